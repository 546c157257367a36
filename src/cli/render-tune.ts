// Pure renderers for `groove tune`: the text report (stdout), the stderr progress
// and warning lines, and the effective-N = 0 diagnosis. The JSON form is in tune-json.ts.
import pc from 'picocolors';
import type {
  FusionCondition,
  QueryDiagnostics,
  ScoredFusion,
  TuneEvent,
  TuneOutcome,
  TuneReport,
} from '../app/index.js';
import { displayPath } from '../app/index.js';
import { renderThresholdFit } from './render-tune-threshold.js';

/** Colours for callers that already decided to colour (a terminal, no --no-color). */
const COLORS = pc.createColors(true);
/** Rows of the diagnostics table in the text report; every row is in --format json. */
const MAX_DIAGNOSTIC_ROWS = 20;

export interface RenderTuneOptions {
  color: boolean;
}

const weight = (value: number) => (Number.isInteger(value) ? value.toFixed(1) : String(value));
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(4)}`;
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

function describeCondition(c: FusionCondition): string {
  return `rrf_k ${c.rrfK}, heading ${weight(c.bm25HeadingWeight)}, context ${weight(c.bm25ContextWeight)}, content ${weight(c.bm25ContentWeight)}`;
}

export function renderTuneText(report: TuneReport, options: RenderTuneOptions): string {
  const paint = (colour: 'green' | 'red' | 'yellow', text: string) =>
    options.color ? COLORS[colour](text) : text;
  const lines = [
    'groove tune — can the fusion parameters move retrieval on this KB?',
    `  kb: ${displayPath(report.kbPath)}`,
    `  golden: ${displayPath(report.goldenPath)}`,
    `  model: ${report.model}`,
    '  reranker: none (tune always measures the plain RRF stage)',
    `  limit: ${report.limit}    candidate pool: ${report.candidatePool} per leg (floor, not a cap)`,
    `  chunks in index: ${report.chunkTotal}`,
    `  queries: ${report.queryCount} total, ${report.effectiveQueryCount} effective    primary metric: nDCG@${report.primaryK}`,
    '',
    ...renderDiagnostics(report),
    '',
    ...renderGrid(report),
    '',
    ...renderLoo(report),
    '',
    `## Secondary metrics (all ${report.queryCount} queries, default -> refit)`,
  ];
  const { baseline, refit, violations } = report.secondary;
  // As wide as the longest label plus two spaces, so a value never touches its label.
  const labelWidth = Math.max(11, ...report.kValues.map((k) => `recall@${k}`.length + 2));
  const row = (label: string, before: number, after: number) =>
    `  ${label.padEnd(labelWidth)}${before.toFixed(3)} -> ${after.toFixed(3)}`;
  for (const k of report.kValues)
    lines.push(row(`recall@${k}`, baseline.recallAtK[k] ?? 0, refit.recallAtK[k] ?? 0));
  lines.push(row('MRR', baseline.mrr, refit.mrr));
  for (const violation of violations) lines.push(paint('red', `  DEGRADED: ${violation}`));

  const impact = report.perQueryImpact;
  lines.push(
    '',
    `## Per-query impact (refit vs default, nDCG@${report.primaryK}, all ${report.queryCount} queries)`,
    `  improved: ${impact.improved}    degraded: ${impact.degraded}    unchanged: ${report.queryCount - impact.improved - impact.degraded}`,
    impact.worstDelta === null
      ? '  worst: no query got worse'
      : `  worst: ${signed(impact.worstDelta)} (${impact.worstQueryId})`,
    '',
    '## Verdict',
  );
  const { verdict } = report;
  if (verdict.decision === 'adopt') {
    lines.push(
      paint('green', `  adopt: ${describeCondition(verdict.condition)}`),
      '  Paste into groove.toml:',
      '',
      ...verdict.tomlSnippet.split('\n').map((l) => `    ${l}`),
      '',
      '  tune measured the plain RRF stage. Before keeping it, re-run `groove eval --reranker <yours> --no-history`',
      '  with and without this [search.fusion]; drop it if the full pipeline does not improve.',
    );
  } else {
    lines.push(paint('yellow', '  keep the built-in defaults'));
    for (const reason of verdict.reasons) lines.push(`    - ${reason}`);
  }
  lines.push(...renderThresholdFit(report.threshold));
  return `${lines.join('\n')}\n`;
}

function renderDiagnostics(report: TuneReport): string[] {
  const d = report.diagnostics;
  const count = (pick: (row: QueryDiagnostics) => boolean) => d.filter(pick).length;
  const lines = [
    '## Query diagnostics',
    `  effective: ${report.effectiveQueryCount} of ${d.length}    bm25-sensitive: ${count((r) => r.bm25Sensitive)}    ` +
      `idf clamped: ${count((r) => r.idfClamped)}    no vector/FTS overlap: ${count((r) => r.vecFtsOverlap === 0)}`,
  ];
  const ordered = [...d.filter((r) => !r.effective), ...d.filter((r) => r.effective)];
  const shown = ordered.slice(0, MAX_DIAGNOSTIC_ROWS);
  lines.push(
    `  ${'id'.padEnd(24)} ${'fts'.padStart(5)} ${'total'.padStart(7)} ${'overlap'.padStart(7)}  bm25  idf-clamp  ties  effective`,
  );
  for (const r of shown) {
    lines.push(
      `  ${r.id.slice(0, 24).padEnd(24)} ${String(r.ftsCandidates).padStart(5)} ${String(r.ftsTotalMatches).padStart(7)} ` +
        `${String(r.vecFtsOverlap).padStart(7)}  ${yesNo(r.bm25Sensitive).padEnd(4)}  ${yesNo(r.idfClamped).padEnd(9)}  ` +
        `${String(r.rrfTies).padStart(4)}  ${yesNo(r.effective)}`,
    );
  }
  if (ordered.length > shown.length) {
    lines.push(
      `  … ${ordered.length - shown.length} more rows (not effective first); every row is in --format json`,
    );
  }
  lines.push(
    '  legend:',
    `    fts        lexical candidates at the default weights (pool ${report.candidatePool}); fewer than 2 = not effective`,
    '    total      chunks matching any query term on either FTS table, unlimited',
    '    overlap    chunks in both the vector and the FTS candidates; 0 = rrf_k cannot move the ranking',
    '    bm25       the top results moved between heading-heavy (4.0/1.0/0.5) and content-heavy (0.5/1.0/4.0) weights',
    '    idf-clamp  the terms cover at least half of all chunks, where FTS5 clamps idf to ~0',
    `    ties       adjacent equal fused scores in the top ${report.limit} at the default condition`,
  );
  return lines;
}

function renderScored(rows: ScoredFusion[], label: (c: FusionCondition) => string): string[] {
  return rows.map(
    (r) => `    ${label(r.condition)}  ${r.ndcg.toFixed(4)}${r.isDefault ? '  (default)' : ''}`,
  );
}

function renderGrid(report: TuneReport): string[] {
  const n = report.effectiveQueryCount;
  return [
    '## Grid',
    `  Phase W: bm25 weights at rrf_k = 60, top 5 of 64 (mean nDCG@${report.primaryK} over ${n} effective queries)`,
    `    ${'heading'.padEnd(8)} ${'context'.padEnd(8)} ${'content'.padEnd(8)}  nDCG@${report.primaryK}`,
    ...renderScored(
      report.grid.topWeightConditions.some((r) => r.isDefault)
        ? report.grid.topWeightConditions
        : [...report.grid.topWeightConditions, report.grid.defaultWeights],
      (c) =>
        `${weight(c.bm25HeadingWeight).padEnd(8)} ${weight(c.bm25ContextWeight).padEnd(8)} ${weight(c.bm25ContentWeight).padEnd(8)}`,
    ),
    '  Phase K: rrf_k at the winning weights',
    `    ${'rrf_k'.padEnd(8)}  nDCG@${report.primaryK}`,
    ...renderScored(report.grid.rrfKSweep, (c) => String(c.rrfK).padEnd(8)),
  ];
}

function renderLoo(report: TuneReport): string[] {
  const loo = report.loo;
  const se = Number.isFinite(loo.pairedSe)
    ? `${loo.pairedSe.toFixed(4)}    ${loo.seMultiplier} x SE = ${(loo.seMultiplier * loo.pairedSe).toFixed(4)}`
    : 'infinite (fewer than 2 effective queries)';
  const agreeing = Math.round(loo.selectionStability * loo.folds);
  const s = loo.signTest;
  return [
    '## Nested leave-one-query-out CV',
    `  refit: ${describeCondition(loo.refit)}${loo.refitIsDefault ? ' (the built-in default)' : ''}`,
    `  folds: ${loo.folds}`,
    `  held-out mean ΔnDCG@${report.primaryK}: ${signed(loo.meanDelta)}    threshold: +${loo.threshold.toFixed(4)}`,
    `  paired SE: ${se}`,
    `  sign test: ${s.improved} improved, ${s.degraded} degraded, ${s.tied} tied, p = ${s.pValue.toFixed(4)} (reported only)`,
    `  selection stability: ${loo.selectionStability.toFixed(2)} (${agreeing} of ${loo.folds} folds chose the refit; needs > ${loo.minStability.toFixed(2)})`,
  ];
}

/** One stderr block per progress event (ASCII apart from the dash in the context warning). */
export function renderTuneEvent(event: TuneEvent): string {
  switch (event.kind) {
    case 'preflight-start':
      return 'groove tune: pre-flight (measuring FTS candidates per query)...\n';
    case 'preflight-done':
      return [
        `groove tune: ${event.effective} of ${event.total} golden queries are effective`,
        ...event.insensitive.map(
          (d) =>
            `groove tune:   insensitive: ${d.id} (FTS candidates = ${d.ftsCandidates}; ${d.insensitiveReason})`,
        ),
        '',
      ].join('\n');
    case 'small-n':
      return `groove tune: WARNING: effective N = ${event.effective} is below the IR convention of 50 topics. Treat the numbers below as suggestive, not conclusive.\n`;
    case 'context-noop':
      return [
        'groove tune: WARNING — every chunk has an empty context column, so the',
        'bm25_context_weight axis is a no-op on this KB (contextual retrieval is off).',
        'Its rows below mean "not measured", not "has no effect".',
        '',
      ].join('\n');
    case 'sweep-start':
      return `groove tune: sweeping ${event.weightSets} bm25 weight conditions x ${event.kValues} rrf_k values...\n`;
    case 'sweep-done':
      return (
        `groove tune: swept ${event.conditions} conditions x ${event.queries} queries in ${(event.elapsedMs / 1000).toFixed(1)} s ` +
        `(${event.inMemoryQueries} ranked in memory from the FTS postings, ${event.queries - event.inMemoryQueries} through SQL)\n`
      );
  }
}

/** Effective N = 0: why each query cannot be measured and what to change (stderr, exit 2). */
export function renderNoEffectiveQueries(
  outcome: Extract<TuneOutcome, { kind: 'no-effective-queries' }>,
): string {
  return [
    `groove tune: effective N = 0: none of the ${outcome.queryCount} golden queries in ${displayPath(outcome.goldenPath)} has 2 or more`,
    '  FTS candidates, so every grid point returns the same ranking and there is nothing to measure.',
    ...outcome.diagnostics.map(
      (d) => `  ${d.id}: FTS candidates = ${d.ftsCandidates} (${d.insensitiveReason ?? 'effective'})`,
    ),
    '  Fix: add golden queries carrying distinctive terms that occur in the indexed text (proper nouns, API',
    '  names, command names, error codes). Queries under 3 characters, or made of words the KB never uses,',
    '  leave the bm25 stage nothing to reorder. The grid was not run.',
    '',
  ].join('\n');
}

/** Queries where a retrieval leg failed: the numbers then measure less than the pipeline. */
export function renderTuneLegFailures(report: TuneReport): string {
  if (report.legFailures.length === 0) return '';
  const first = report.legFailures[0]!;
  return `groove tune: warning: a retrieval leg failed for ${report.legFailures.length} query(ies), first ${first.id}: ${first.reason}\n`;
}
