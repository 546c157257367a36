// `groove tune --report FILE.html`: the tune report as one self-contained page — the grid as a heat map
// (rrf_k × bm25 weights, coloured by mean nDCG@5), the leave-one-query-out fold choices, the per-query impact
// histogram, and the verdict with its five criteria. Pure: every number comes from the TuneReport, whose
// `--format json` form is embedded as #groove-tune-json.
import { displayPath, type FusionCondition, type TuneReport } from '../../app/index.js';
import { tuneReportToJson } from '../tune-json.js';
import { renderReportPage } from './html-page.js';
import { escapeHtml, formatSigned, formatValue, numberCell } from './html-text.js';
import { renderHeatMap } from './svg-heat-map.js';
import { renderHistogram } from './svg-histogram.js';

const describe = (c: FusionCondition) =>
  `rrf_k ${c.rrfK}, heading ${c.bm25HeadingWeight}, context ${c.bm25ContextWeight}, content ${c.bm25ContentWeight}`;

function renderHeader(report: TuneReport): string {
  const fact = (label: string, value: string) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`;
  return [
    '<h1>groove tune <span class="muted">can the fusion parameters move retrieval on this KB?</span></h1>',
    '<dl class="facts">',
    fact('kb', displayPath(report.kbPath)),
    fact('golden', displayPath(report.goldenPath)),
    fact('model', report.model),
    fact('reranker', 'none (tune measures the plain RRF stage)'),
    fact('limit / candidate pool', `${report.limit} / ${report.candidatePool} per leg`),
    fact('chunks in index', String(report.chunkTotal)),
    fact('queries', `${report.queryCount} total, ${report.effectiveQueryCount} effective`),
    fact('primary metric', `nDCG@${report.primaryK}`),
    '</dl>',
    report.contextAxisNoop
      ? '<p class="badge warn">every chunk has an empty context column: the context weight axis measures nothing here</p>'
      : '',
  ].join('\n');
}

function renderFolds(report: TuneReport): string {
  const { loo } = report;
  const byChoice = new Map<string, { condition: FusionCondition; heldOut: string[] }>();
  for (const fold of loo.foldChoices) {
    const key = describe(fold.condition);
    const entry = byChoice.get(key) ?? { condition: fold.condition, heldOut: [] };
    entry.heldOut.push(fold.heldOut);
    byChoice.set(key, entry);
  }
  const refitKey = describe(loo.refit);
  const summary = [...byChoice.entries()]
    .sort((a, b) => b[1].heldOut.length - a[1].heldOut.length)
    .map(
      ([key, entry]) =>
        `<tr><td>${escapeHtml(key)}${key === refitKey ? ' <span class="badge holds">refit</span>' : ''}</td><td class="num" data-value="${entry.heldOut.length}">${entry.heldOut.length}</td><td>${escapeHtml(entry.heldOut.join(', '))}</td></tr>`,
    );
  const folds = loo.foldChoices.map(
    (fold) =>
      `<tr><td>${escapeHtml(fold.heldOut)}</td><td>${escapeHtml(describe(fold.condition))}</td>${numberCell(fold.heldOutDiff)}</tr>`,
  );
  const se = Number.isFinite(loo.pairedSe)
    ? loo.pairedSe.toFixed(4)
    : 'infinite (fewer than 2 effective queries)';
  return [
    `<p>refit on all effective queries: <strong>${escapeHtml(describe(loo.refit))}</strong>${loo.refitIsDefault ? ' (the built-in default)' : ''}. ` +
      `${loo.folds} folds; held-out mean ΔnDCG@${report.primaryK} <span data-value="${loo.meanDelta}">${formatSigned(loo.meanDelta, 4)}</span>, paired SE ${se}, ` +
      `selection stability <span data-value="${loo.selectionStability}">${loo.selectionStability.toFixed(2)}</span>; sign test ${loo.signTest.improved} improved, ${loo.signTest.degraded} degraded, ${loo.signTest.tied} tied, p = ${loo.signTest.pValue.toFixed(4)}.</p>`,
    '<table id="fold-choices"><thead><tr><th>condition chosen</th><th class="num">folds</th><th>held-out queries</th></tr></thead><tbody>',
    ...summary,
    '</tbody></table>',
    '<details><summary>every fold</summary>',
    `<table id="folds" class="sortable"><thead><tr><th data-sort="text"><button type="button">held out</button></th><th data-sort="text"><button type="button">chose</button></th><th data-sort="number" class="num"><button type="button">held-out ΔnDCG@${report.primaryK}</button></th></tr></thead><tbody>`,
    ...folds,
    '</tbody></table></details>',
  ].join('\n');
}

function renderImpact(report: TuneReport): string {
  const impact = report.perQueryImpact;
  const unchanged = report.queryCount - impact.improved - impact.degraded;
  const worst =
    impact.worstDelta === null
      ? 'no query got worse'
      : `worst ${formatSigned(impact.worstDelta, 4)} (${escapeHtml(impact.worstQueryId ?? '')})`;
  const { baseline, refit } = report.secondary;
  const secondary = [
    ...report.kValues.map((k) => ({
      label: `recall@${k}`,
      before: baseline.recallAtK[k],
      after: refit.recallAtK[k],
    })),
    { label: 'MRR', before: baseline.mrr, after: refit.mrr },
  ].map(
    (m) =>
      `<tr><th scope="row">${m.label}</th>${numberCell(m.before)}${numberCell(m.after)}<td class="num">${formatSigned((m.after ?? 0) - (m.before ?? 0))}</td></tr>`,
  );
  return [
    `<p>refit against default, all ${report.queryCount} queries: <span class="badge improved">${impact.improved} improved</span> <span class="badge worse">${impact.degraded} degraded</span> <span class="badge unchanged">${unchanged} unchanged</span> — ${worst}</p>`,
    renderHistogram(report.perQueryDeltas.map((d) => d.delta)),
    '<h3>Secondary metrics (default → refit)</h3>',
    '<table id="secondary"><thead><tr><th>metric</th><th class="num">default</th><th class="num">refit</th><th class="num">Δ</th></tr></thead><tbody>',
    ...secondary,
    '</tbody></table>',
  ].join('\n');
}

function renderVerdict(report: TuneReport): string {
  const { verdict } = report;
  const decision =
    verdict.decision === 'adopt'
      ? `<p class="verdict" data-decision="adopt"><span class="badge holds">adopt</span> ${escapeHtml(describe(verdict.condition))}</p><pre>${escapeHtml(verdict.tomlSnippet)}</pre><p class="muted">tune measured the plain RRF stage: re-run groove eval with your reranker, with and without this [search.fusion], before keeping it.</p>`
      : '<p class="verdict" data-decision="keep_default"><span class="badge none">keep the built-in defaults</span></p>';
  const criteria = report.criteria.map(
    (c) =>
      `<tr data-criterion="${c.number}"><td class="num">${c.number}</td><td>${escapeHtml(c.rule)}</td><td><span class="badge ${c.holds ? 'holds' : 'fails'}">${c.holds ? 'holds' : 'fails'}</span></td><td>${escapeHtml(c.reasons.join('; '))}</td></tr>`,
  );
  return [
    decision,
    '<table id="criteria"><thead><tr><th class="num">#</th><th>criterion</th><th>state</th><th>why not</th></tr></thead><tbody>',
    ...criteria,
    '</tbody></table>',
  ].join('\n');
}

export function renderTuneHtml(report: TuneReport): string {
  const { grid, loo } = report;
  const body = [
    renderHeader(report),
    '<h2>Verdict</h2>',
    renderVerdict(report),
    `<h2>Grid: mean nDCG@${report.primaryK} over ${report.effectiveQueryCount} effective queries</h2>`,
    `<p class="muted">${grid.rrfK.length} rrf_k values × ${grid.weightSets.length} bm25 weight sets = ${grid.rrfK.length * grid.weightSets.length} conditions; best ${formatValue(Math.max(...grid.meanNdcg.flat()), 4)}.</p>`,
    renderHeatMap({
      rrfK: grid.rrfK,
      weightSets: grid.weightSets,
      values: grid.meanNdcg,
      defaultCell: grid.defaultWeights.condition,
      refitCell: loo.refit,
    }),
    '<h2>Nested leave-one-query-out: what each fold chose</h2>',
    renderFolds(report),
    '<h2>Per-query impact</h2>',
    renderImpact(report),
  ].join('\n');
  return renderReportPage({
    title: 'groove tune report',
    body,
    data: { 'groove-tune-json': tuneReportToJson(report) },
  });
}
