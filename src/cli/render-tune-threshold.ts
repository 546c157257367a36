// The min_confidence part of `groove tune`'s report: the fitted threshold with its held-out abstention numbers
// and the groove.toml lines that make the KB use it, or why the golden set cannot support one.
import { formatThresholdSnippet, type ThresholdFit } from '../app/index.js';
import { formatRate } from './render-abstention.js';

export function renderThresholdFit(fit: ThresholdFit): string[] {
  const lines = ['', '## Abstention threshold (min_confidence)'];
  if (fit.kind === 'refused') {
    lines.push(`  not fitted: ${fit.reason}`, '  the KB keeps the min_confidence it has');
    return lines;
  }
  const row = (label: string, held: string, current: string) =>
    `  ${label.padEnd(14)} ${held.padEnd(34)} ${current}`;
  lines.push(
    `  fitted: ${fit.threshold} (balanced accuracy ${fit.balancedAccuracy.toFixed(3)} on all ${fit.heldOut.answerable + fit.heldOut.negatives} queries; ` +
      `${Math.round(fit.stability * 100)}% of leave-one-out folds chose it)`,
    `  held-out (each query decided by the threshold fitted without it) vs min_confidence ${fit.currentThreshold} now:`,
    row('precision', formatRate(fit.heldOut.precision), formatRate(fit.atDefault.precision)),
    row('recall', formatRate(fit.heldOut.recall), formatRate(fit.atDefault.recall)),
    row('false abstain', formatRate(fit.heldOut.falseAbstain), formatRate(fit.atDefault.falseAbstain)),
    `  AUC of confidence: ${fit.atDefault.auc === null ? '—' : fit.atDefault.auc.toFixed(3)}`,
    '  Paste into groove.toml (under [search] if the file has one):',
    '',
    ...formatThresholdSnippet(fit.threshold)
      .split('\n')
      .map((l) => `    ${l}`),
  );
  return lines;
}

/** The JSON form (`threshold` in `groove tune --format json`). */
export function thresholdFitToJson(fit: ThresholdFit): Record<string, unknown> {
  if (fit.kind === 'refused') {
    return { fitted: false, reason: fit.reason, answerable: fit.answerable, negatives: fit.negatives };
  }
  const rates = (a: typeof fit.heldOut) => ({
    precision: a.precision,
    recall: a.recall,
    false_abstain: a.falseAbstain,
    auc: a.auc,
  });
  return {
    fitted: true,
    min_confidence: fit.threshold,
    balanced_accuracy: fit.balancedAccuracy,
    stability: fit.stability,
    held_out: rates(fit.heldOut),
    current: { min_confidence: fit.currentThreshold, ...rates(fit.atDefault) },
    toml_snippet: formatThresholdSnippet(fit.threshold),
  };
}
