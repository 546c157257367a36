// The per-query table of the eval HTML report: one row per golden query — regressions and misses first (the
// rows the text report flags), then the rest in golden order — sortable by any column, each with its top hits,
// the expected ones marked, and the expected entries no hit matched.
import { type EvalReport, isExpectedHit } from '../../app/index.js';
import { escapeHtml, formatSigned, numberCell } from './html-text.js';

type QueryResult = EvalReport['run']['perQuery'][number];

const where = (path: string, heading: string | null) => (heading === null ? path : `${path} # ${heading}`);

function renderHits(query: QueryResult): string {
  const hits = query.topK.map((hit) => {
    const expected = query.expected.some((e) => isExpectedHit(e, hit));
    return `<li class="${expected ? 'expected' : 'other'}" value="${hit.rank}"><span class="hit-where">${escapeHtml(where(hit.path, hit.heading))}</span> <span class="muted">${hit.score.toFixed(4)}</span></li>`;
  });
  const missing = query.expected.filter((e) => !query.topK.some((hit) => isExpectedHit(e, hit)));
  const missingList =
    missing.length === 0
      ? ''
      : `<ul class="missing">${missing.map((e) => `<li>not found: ${escapeHtml(where(e.path, e.heading))}</li>`).join('')}</ul>`;
  return `<ol class="hits">${hits.join('')}</ol>${missingList}`;
}

/** The table; `maxK` is the largest k, at which the flags and the shown metrics are taken. */
export function renderQueryTable(report: EvalReport): string {
  const { run } = report;
  const maxK = Math.max(...run.fingerprint.kValues);
  const flagged = new Map(report.flagged.rows.map((row) => [row.id, row]));
  const ordered = [
    ...run.perQuery.filter((q) => flagged.has(q.id)),
    ...run.perQuery.filter((q) => !flagged.has(q.id)),
  ];
  const before = new Map((report.diff ? (report.previous?.perQuery ?? []) : []).map((q) => [q.id, q]));
  const rows = ordered.map((q, i) => {
    const flag = flagged.get(q.id);
    // Sorting by the flag column puts regressions (2) and misses (1) above the rest (0), descending.
    const flagRank = flag?.kind === 'regressed' ? 2 : flag?.kind === 'miss' ? 1 : 0;
    const badge = flag ? `<span class="badge ${flag.kind}">${flag.kind}</span>` : '';
    const previous = before.get(q.id)?.metrics.ndcgAtK[maxK];
    const now = q.metrics.ndcgAtK[maxK];
    const delta = previous === undefined || now === undefined ? null : now - previous;
    return [
      `<tr data-query-id="${escapeHtml(q.id)}">`,
      `<td class="num" data-sort-value="${i}">${i + 1}</td>`,
      `<td data-sort-value="${flagRank}">${badge}</td>`,
      `<td class="query-id">${escapeHtml(q.id)}</td>`,
      `<td class="query-text">${escapeHtml(q.query)}</td>`,
      numberCell(q.metrics.recallAtK[maxK], 'data-metric="recall"'),
      numberCell(q.metrics.reciprocalRank, 'data-metric="rr"'),
      numberCell(now, 'data-metric="ndcg"'),
      numberCell(q.metrics.extra?.precisionAtK[maxK], 'data-metric="precision"'),
      numberCell(q.metrics.extra?.averagePrecisionAtK[maxK], 'data-metric="ap"'),
      `<td class="num" data-value="${delta ?? ''}">${formatSigned(delta)}</td>`,
      `<td class="hits-cell">${renderHits(q)}</td>`,
      '</tr>',
    ].join('');
  });
  const head = (label: string, sort: 'number' | 'text', numeric = sort === 'number') =>
    `<th data-sort="${sort}"${numeric ? ' class="num"' : ''}><button type="button">${escapeHtml(label)}</button></th>`;
  return [
    `<p class="muted">${report.flagged.rows.length} of ${run.perQuery.length} queries flagged (misses: nothing expected in the top ${maxK}; regressions: recall@${maxK} fell by more than ${report.regressionThreshold}). Click a column header to sort.</p>`,
    '<table id="per-query" class="sortable"><thead><tr>',
    head('#', 'number'),
    head('flag', 'number', false),
    head('id', 'text'),
    head('query', 'text'),
    head(`recall@${maxK}`, 'number'),
    head('RR', 'number'),
    head(`nDCG@${maxK}`, 'number'),
    head(`P@${maxK}`, 'number'),
    head(`AP@${maxK}`, 'number'),
    head(`ΔnDCG@${maxK}`, 'number'),
    '<th>top hits (✓ expected)</th>',
    '</tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('\n');
}
