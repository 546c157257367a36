// `groove eval --report FILE.html`: the eval report as one self-contained page — the header (model, reranker,
// corpus, golden, fingerprint, leg health, findings), the aggregate metrics with their paired 95% intervals, a
// trend chart per metric over the history, the per-query table and one block per --rows row. Pure: every number
// comes from the EvalReport, which is also what `--format json` prints (embedded as #groove-eval-json).
import {
  buildEvalTrend,
  type EvalReport,
  type EvalRowReport,
  type EvalTrendPoint,
  evalReportToJson,
  namedAggregateMetrics,
  type PairedRunComparison,
  rowsOf,
} from '../../app/index.js';
import { renderAblationBlock } from './eval-ablation-html.js';
import { renderEvalHeader } from './eval-header-html.js';
import { renderQueryTable } from './eval-queries-html.js';
import { renderReportPage } from './html-page.js';
import { escapeHtml, formatSigned, numberCell } from './html-text.js';
import { renderTrendChart } from './svg-trend.js';

/** The metrics that get a trend chart: recall at every k, MRR, and the rest at the largest k. */
function trendMetrics(kValues: readonly number[]): string[] {
  const maxK = Math.max(...kValues);
  return [
    ...kValues.map((k) => `recall@${k}`),
    'MRR',
    `nDCG@${maxK}`,
    `P@${maxK}`,
    `MAP@${maxK}`,
    `hit@${maxK}`,
    'R-precision',
  ];
}

function renderTrends(
  trend: readonly EvalTrendPoint[],
  kValues: readonly number[],
  history: boolean,
): string {
  const charts = trendMetrics(kValues).map((metric) => {
    const points = trend.map((p) => ({
      timestamp: p.timestamp,
      row: p.row,
      value: p.values.find((v) => v.metric === metric)?.value ?? null,
      compatible: p.comparison === 'compatible',
      degraded: p.degraded,
      current: p.current,
    }));
    return `<figure><figcaption>${escapeHtml(metric)}</figcaption>${renderTrendChart(metric, points)}</figure>`;
  });
  const note = history
    ? `${trend.length - 1} run(s) from the history, then this run (outlined). Filled dots joined by the line are runs compatible with this one; hollow dots measured another configuration, golden set or k list; a red ring marks a degraded run.`
    : 'The history was not read (--no-history): this run is the only point.';
  return `<p class="muted">${note}</p><div class="charts">${charts.join('')}</div>`;
}

/** Every aggregate metric, its change against the baseline and the paired 95% interval. */
function renderAggregate(report: EvalRowReport, paired: PairedRunComparison | null, against: string): string {
  const kValues = report.run.fingerprint.kValues;
  const intervals = new Map((paired?.metrics ?? []).map((m) => [m.metric, m]));
  // A metric the run did not measure (judged@k without judgments, the extras in an old run) has no row.
  const measured = namedAggregateMetrics(report.run.aggregate, kValues).filter((m) => m.value !== null);
  const rows = measured.map(({ metric, value }) => {
    const m = intervals.get(metric);
    const ci =
      m && Number.isFinite(m.ciLow) && Number.isFinite(m.ciHigh)
        ? `[${formatSigned(m.ciLow)}, ${formatSigned(m.ciHigh)}]`
        : '—';
    return [
      `<tr data-metric="${escapeHtml(metric)}">`,
      `<th scope="row">${escapeHtml(metric)}</th>`,
      numberCell(value, 'data-role="value"'),
      `<td class="num" data-role="mean-diff" data-value="${m ? m.meanDiff : ''}">${m ? formatSigned(m.meanDiff) : '—'}</td>`,
      `<td class="num" data-role="ci">${ci}</td>`,
      `<td>${m ? `<span class="badge ${escapeHtml(m.verdict)}">${escapeHtml(m.verdict)}</span>` : ''}</td>`,
      numberCell(m?.minDetectableEffect, 'data-role="mde"'),
      '</tr>',
    ].join('');
  });
  const judged = report.run.aggregate.judgedAtK
    ? `<p class="muted">judged@k: the share of each query's top k with any recorded judgment — labels from what was once served cannot credit a better document nobody judged.</p>`
    : '<p class="muted">judged@k not measured: no recorded judgments and a golden set not built from feedback.</p>';
  const caption = paired
    ? `paired over ${paired.sharedQueries} queries against ${escapeHtml(against)} (${Math.round(paired.confidence * 100)}% interval)`
    : `no paired comparison: ${escapeHtml(against)}`;
  return [
    `<p class="muted">${caption}</p>`,
    '<table class="aggregate"><thead><tr><th>metric</th><th class="num">value</th><th class="num">Δ mean</th><th class="num">95% CI</th><th>verdict</th><th class="num">min. detectable</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
    judged,
  ].join('\n');
}

/** Why there is no baseline, or which run it is. */
function describeBaseline(report: EvalReport): string {
  if (report.paired)
    return `the ${report.comparedWith === 'chosen' ? 'compared' : 'previous'} run ${report.paired.against}`;
  if (report.history === null && report.comparedWith !== 'chosen')
    return 'the history was not read (--no-history)';
  switch (report.comparison) {
    case 'none':
      return 'there is no earlier run to compare with (or --no-diff)';
    case 'golden-changed':
      return `the golden set changed since ${report.previous?.timestamp ?? 'the last run'}`;
    case 'kbs-changed':
      return `the knowledge bases measured changed since ${report.previous?.timestamp ?? 'the last run'}`;
    case 'config-changed':
      return `the configuration or metric version changed since ${report.previous?.timestamp ?? 'the last run'}`;
    case 'degradation-changed':
      return 'one of the two runs was measured with a component down';
    default:
      return 'the runs share no query';
  }
}

/** One block per --rows row: its metrics, and a reference row's paired difference against the decision row. */
function renderRows(report: EvalReport): string {
  if (report.run.row === undefined) return '';
  const decision = report.run.row;
  const blocks = rowsOf(report).map((row, i) => {
    const name = row.run.row ?? '';
    const title =
      i === 0
        ? `row ${name} · decision row (the gates apply to it)`
        : `row ${name} · reference row${row.appended ? ' (added for a learned row)' : ''}`;
    const body =
      i === 0
        ? renderAggregate(row, row.paired, describeBaseline(report))
        : renderAggregate(row, row.versusDecision, `the decision row ${decision}`);
    return `<section class="row-block" data-row="${escapeHtml(name)}"><h3>${escapeHtml(title)}</h3>${body}</section>`;
  });
  return `<h2>Rows</h2>${blocks.join('\n')}`;
}

export function renderEvalHtml(report: EvalReport): string {
  const trend = buildEvalTrend(report);
  const json = evalReportToJson(report);
  const kValues = report.run.fingerprint.kValues;
  const body = [
    renderEvalHeader(report, json.fingerprint),
    '<h2>Aggregate</h2>',
    renderAggregate(report, report.paired, describeBaseline(report)),
    '<h2>Trend</h2>',
    renderTrends(trend, kValues, report.history !== null),
    '<h2>Per query</h2>',
    renderQueryTable(report),
    renderRows(report),
    renderAblationBlock(json.ablation),
  ].join('\n');
  return renderReportPage({
    title: `groove eval — ${report.run.timestamp}`,
    body,
    data: { 'groove-eval-json': json, 'groove-eval-trend': trend },
  });
}
