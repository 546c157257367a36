// The abstention block of `groove eval`'s text: on a golden set with negative queries, how well low_confidence
// tells the questions the KB should not answer from those it should, each share with its 95% interval.
import type { AbstentionMetrics, RateWithInterval } from '../app/index.js';

/** `0.87 [0.81, 0.91] (174/200)`, or `—` when nothing was counted. */
export function formatRate(rate: RateWithInterval): string {
  if (rate.value === null || rate.low === null || rate.high === null) return `— (0/${rate.of})`;
  return `${rate.value.toFixed(2)} [${rate.low.toFixed(2)}, ${rate.high.toFixed(2)}] (${rate.count}/${rate.of})`;
}

/** No lines without negative queries. */
export function renderAbstention(abstention: AbstentionMetrics | undefined): string[] {
  if (!abstention) return [];
  const a = abstention;
  return [
    '',
    `Abstention (low_confidence: confidence < ${a.threshold}; ${a.negatives} negative, ${a.answerable} answerable queries; 95% Wilson intervals)`,
    `  precision      ${formatRate(a.precision)}   abstained queries that were negative`,
    `  recall         ${formatRate(a.recall)}   negative queries that abstained`,
    `  false abstain  ${formatRate(a.falseAbstain)}   answerable queries that abstained`,
    `  AUC            ${a.auc === null ? '—' : a.auc.toFixed(3)}   chance an answerable query outscores a negative one`,
    '  Negative queries are left out of recall, MRR and nDCG.',
  ];
}
