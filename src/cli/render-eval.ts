// Pure renderers for `groove eval`: the text report (stdout), and the diagnostics for
// stderr — notes, failed legs, golden-queries-quoted findings, the regression gate — in ASCII only.

import pc from 'picocolors';
import type { EvalReport, EvalRowReport, GoldenFreshness, QuoteFinding } from '../app/index.js';
import { displayPath, rowsOf } from '../app/index.js';
import { renderAbstention } from './render-abstention.js';
import {
  renderDetectableEffect,
  renderIntegrityHeader,
  renderIntervalSuffix,
  renderRowTitle,
  renderVersusDecision,
} from './render-integrity.js';
import { renderLearnedRow } from './render-learned-rows.js';

/** Colours for callers that already decided to colour (a terminal, no --no-color). */
const COLORS = pc.createColors(true);

export interface RenderEvalTextOptions {
  /** ANSI colours on the diff arrows (only when stdout is a terminal and --no-color is absent). */
  color: boolean;
  /** For a reference row of --rows: the decision row's name, to label its paired comparison. */
  decisionRow?: string;
}

export function renderEvalText(report: EvalReport, options: RenderEvalTextOptions): string {
  return renderRowText(report, report.freshness, options);
}

/** One row's block; the golden set's freshness is the run's, shown in every row's header. */
function renderRowText(
  report: EvalRowReport,
  freshness: GoldenFreshness | null,
  options: RenderEvalTextOptions,
): string {
  const { run, previous } = report;
  const f = run.fingerprint;
  const lines = [
    `groove eval — ${run.timestamp}`,
    `  model: ${f.model}    reranker: ${f.reranker ?? 'none'}    limit: ${f.limit}    queries: ${run.aggregate.queryCount}`,
  ];
  if (run.corpus) {
    lines.push(`  corpus: ${run.corpus.documents} docs / ${run.corpus.chunks} chunks`);
    if (report.corpusChange) {
      lines.push(`    ⚠️ corpus changed since last run (${report.corpusChange})`);
      lines.push('       a delta below may reflect that, not retrieval');
    }
  }
  lines.push(...renderIntegrityHeader(report, freshness));
  lines.push('');
  if (report.comparison === 'golden-changed') lines.push('⚠️ golden changed since last run, diff disabled');
  if (report.comparison === 'kbs-changed') {
    lines.push('⚠️ the knowledge bases measured changed since last run, diff disabled');
  }
  if (report.comparison === 'config-changed') {
    lines.push('⚠️ config or metric version changed since last run, diff disabled');
  }
  if (report.comparison === 'degradation-changed') {
    lines.push('⚠️ one of the two runs was measured with a component down, diff disabled');
  }
  const against = report.comparedWith === 'chosen' ? 'compared run' : 'previous run';
  lines.push(report.diff && previous ? `Aggregate (${against}: ${previous.timestamp})` : 'Aggregate');

  const paired = new Map((report.paired?.metrics ?? []).map((m) => [m.metric, m]));
  const maxK = Math.max(...f.kValues);
  const shown = [...f.kValues.map((k) => `recall@${k}`), 'MRR', `nDCG@${maxK}`];
  // The label column is as wide as its longest label plus two spaces, so a value never touches its label.
  const labelWidth = Math.max(11, ...shown.map((label) => label.length + 2));
  const row = (label: string, value: number, delta: number | undefined) => {
    const arrow = delta === undefined ? '' : renderDelta(delta, report.regressionThreshold, options.color);
    return `  ${label.padEnd(labelWidth)}${value.toFixed(3)}${arrow}${renderIntervalSuffix(paired.get(label))}`;
  };
  for (const k of f.kValues)
    lines.push(row(`recall@${k}`, run.aggregate.recallAtK[k] ?? 0, report.diff?.recallAtK[k]));
  lines.push(row('MRR', run.aggregate.mrr, report.diff?.mrr));
  lines.push(row(`nDCG@${maxK}`, run.aggregate.ndcgAtK[maxK] ?? 0, report.diff?.ndcgAtK[maxK]));
  lines.push(...renderExtraRows(report, { maxK, labelWidth, color: options.color }));
  lines.push(...renderJudged(report, { maxK, labelWidth }));
  lines.push(...renderDetectableEffect(report, shown));
  if (options.decisionRow) lines.push(...renderVersusDecision(report, options.decisionRow, shown));
  lines.push(...renderLearnedRow(report, { decisionRow: options.decisionRow ?? report.run.row, shown }));
  lines.push(...renderAbstention(report.run.abstention));

  const { k, rows } = report.flagged;
  if (rows.length > 0) {
    lines.push('', `Per-query (regressions and misses, ${rows.length} of ${run.perQuery.length})`);
    for (const r of rows) {
      const mark = r.kind === 'miss' ? '✗' : '↓';
      const values =
        r.previousRecall === null
          ? r.recall.toFixed(2)
          : `${r.previousRecall.toFixed(2)} → ${r.recall.toFixed(2)}`;
      lines.push(`  ${mark} ${r.id.padEnd(24)} recall@${k}: ${values}`);
    }
  }
  lines.push(...renderMissesAtSmallerK(report));
  return `${lines.join('\n')}\n`;
}

/** At most this many query ids per `Missed at k` line; the JSON report has every query. */
const MISSED_IDS_SHOWN = 20;

/**
 * For each k below the largest (whose misses the per-query section marks `✗`): the queries with no expected
 * document in their top k, by id.
 */
function renderMissesAtSmallerK(report: EvalRowReport): string[] {
  const { kValues } = report.run.fingerprint;
  const maxK = Math.max(...kValues);
  const queries = report.run.perQuery.filter((q) => q.expected.length > 0);
  const lines: string[] = [];
  for (const k of kValues.filter((value) => value < maxK)) {
    const missed = queries.filter((q) => (q.metrics.recallAtK[k] ?? 0) === 0).map((q) => q.id);
    if (missed.length === 0) continue;
    const more = missed.length > MISSED_IDS_SHOWN ? `, … ${missed.length - MISSED_IDS_SHOWN} more` : '';
    lines.push(
      `  missed at k=${k} (${missed.length} of ${queries.length}): ${missed.slice(0, MISSED_IDS_SHOWN).join(', ')}${more}`,
    );
  }
  return lines.length > 0 ? ['', 'No expected document in the top k', ...lines] : [];
}

/**
 * P@k, MAP@k (largest k), R-precision (labelled `R-prec` to fit the label column) and the hit rate, after the
 * gated metrics; a delta only when the compared run measured the metric too, and its paired interval.
 */
function renderExtraRows(
  report: EvalRowReport,
  layout: { maxK: number; labelWidth: number; color: boolean },
): string[] {
  const extra = report.run.aggregate.extra;
  if (!extra) return [];
  const { maxK, labelWidth } = layout;
  const delta = report.diff?.extra;
  const paired = new Map((report.paired?.metrics ?? []).map((m) => [m.metric, m]));
  const line = (label: string, metric: string, now: number | undefined, change: number | undefined) => {
    const arrow = change === undefined ? '' : renderDelta(change, report.regressionThreshold, layout.color);
    return `  ${label.padEnd(labelWidth)}${(now ?? 0).toFixed(3)}${arrow}${renderIntervalSuffix(paired.get(metric))}`;
  };
  return [
    line(`P@${maxK}`, `P@${maxK}`, extra.precisionAtK[maxK], delta?.precisionAtK[maxK]),
    line(`MAP@${maxK}`, `MAP@${maxK}`, extra.mapAtK[maxK], delta?.mapAtK[maxK]),
    line('R-prec', 'R-precision', extra.rPrecision, delta?.rPrecision),
    line(`hit@${maxK}`, `hit@${maxK}`, extra.hitRateAtK[maxK], delta?.hitRateAtK[maxK]),
  ];
}

/** judged@k at the largest k and what it means; nothing when it was not measured. */
function renderJudged(report: EvalRowReport, layout: { maxK: number; labelWidth: number }): string[] {
  const judged = report.run.aggregate.judgedAtK?.[layout.maxK];
  if (judged === undefined) return [];
  return [
    `  ${`judged@${layout.maxK}`.padEnd(layout.labelWidth)}${judged.toFixed(3)}`,
    `    share of the top ${layout.maxK} with any recorded judgment: labels from what was once served cannot credit a better document nobody judged`,
  ];
}

/** Every row of a `--rows` run, one block each, the decision row first; a plain run is its single block. */
export function renderEvalRowsText(report: EvalReport, options: RenderEvalTextOptions): string {
  if (report.run.row === undefined) return renderEvalText(report, options);
  return rowsOf(report)
    .map(
      (r, i) =>
        `${renderRowTitle(r.run.row ?? '', i === 0, r.appended)}\n${renderRowText(r, report.freshness, i === 0 ? options : { ...options, decisionRow: report.run.row })}`,
    )
    .join('\n');
}

/** `  (↑ 0.056)`: green beyond +threshold, red beyond −threshold, gray within; `  (—)` when unchanged. */
function renderDelta(delta: number, threshold: number, color: boolean): string {
  if (!Number.isFinite(delta)) return '  (?)';
  if (Math.abs(delta) < 1e-9) return '  (—)';
  const arrow = delta > 0 ? '↑' : '↓';
  const text = `${arrow} ${Math.abs(delta).toFixed(3)}`;
  if (!color) return `  (${text})`;
  const tone = delta > threshold ? COLORS.green : delta < -threshold ? COLORS.red : COLORS.gray;
  return `  (${tone(text)})`;
}

/** Notes and failed-leg warnings for stderr, one line each. */
export function renderEvalDiagnostics(report: EvalReport): string {
  const lines = report.notes.map((note) => `groove eval: note: ${note}`);
  const total = report.run.perQuery.length;
  const degradation = report.run.degradation ?? [];
  for (const failure of report.legFailures) {
    // A reason the degradation warning just printed (renderIntegrityDiagnostics) is not repeated.
    const said = degradation.some((d) => d.leg === failure.leg && d.reason.includes(failure.firstReason));
    const reason = said ? 'the reason above' : failure.firstReason;
    lines.push(
      `groove eval: warning: the ${failure.leg} leg failed on ${failure.queries} of ${total} queries (${reason}); those results come from the remaining legs`,
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** The golden-queries-quoted report for stderr, or '' when nothing was found. */
export function renderQuoteFindings(findings: readonly QuoteFinding[]): string {
  if (findings.length === 0) return '';
  const lines = [
    `groove eval: ${findings.length} document(s) quote 2 or more golden queries verbatim (golden-queries-quoted).`,
  ];
  for (const finding of findings) {
    lines.push(`  ${displayPath(finding.path)}`);
    for (const q of finding.quoted) {
      lines.push(`    ${q.queryId} (${q.rankInTopK === null ? 'not in top_k' : `rank ${q.rankInTopK}`})`);
    }
  }
  lines.push('  Either these notes leaked into the corpus, or the queries came from them');
  lines.push('  and the documents belong in `expected`. groove eval changes neither.');
  return `${lines.join('\n')}\n`;
}

/** What --fail-on-regression decided, for stderr; '' when the flag is off or nothing regressed. */
export function renderGate(report: EvalReport): string {
  const gate = report.gate;
  if (gate.state === 'no-op') return `groove eval: --fail-on-regression compared nothing: ${gate.reason}\n`;
  if (gate.state !== 'regressed') return '';
  const metrics = gate.regressions
    .map((r) => `${r.metric} ${r.previous.toFixed(3)} -> ${r.now.toFixed(3)}`)
    .join(', ');
  const lines = [
    `groove eval: regression against the run of ${gate.against} (threshold ${report.regressionThreshold}): ${metrics}`,
  ];
  if (report.corpusChange) {
    lines.push(
      `groove eval: note: the corpus changed since that run (${report.corpusChange}); the drop may reflect that, not retrieval`,
    );
  }
  return `${lines.join('\n')}\n`;
}
