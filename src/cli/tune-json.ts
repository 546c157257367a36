// `groove tune --format json`: the keys docs/tune.md lists, snake_case; an infinite SE is null. The HTML report
// (--report) embeds this same object, so its numbers and the JSON's are one.
import type { FusionCondition, ScoredFusion, TuneReport } from '../app/index.js';
import { thresholdFitToJson } from './render-tune-threshold.js';

function conditionJson(c: FusionCondition) {
  return {
    rrf_k: c.rrfK,
    bm25_heading_weight: c.bm25HeadingWeight,
    bm25_context_weight: c.bm25ContextWeight,
    bm25_content_weight: c.bm25ContentWeight,
  };
}

export function tuneReportToJson(report: TuneReport): Record<string, unknown> {
  const { loo, verdict } = report;
  const scoredJson = (rows: ScoredFusion[]) =>
    rows.map((r) => ({ condition: conditionJson(r.condition), ndcg: r.ndcg }));
  const metricsJson = (m: TuneReport['secondary']['baseline']) => ({ recall_at_k: m.recallAtK, mrr: m.mrr });
  return {
    kb_path: report.kbPath,
    golden_path: report.goldenPath,
    model: report.model,
    reranker: null,
    limit: report.limit,
    candidate_pool: report.candidatePool,
    primary_k: report.primaryK,
    k_values: report.kValues,
    chunk_total: report.chunkTotal,
    context_axis_noop: report.contextAxisNoop,
    query_count: report.queryCount,
    effective_query_count: report.effectiveQueryCount,
    diagnostics: report.diagnostics.map((d) => ({
      id: d.id,
      fts_candidates: d.ftsCandidates,
      fts_total_matches: d.ftsTotalMatches,
      vec_fts_overlap: d.vecFtsOverlap,
      bm25_sensitive: d.bm25Sensitive,
      idf_clamped: d.idfClamped,
      rrf_ties: d.rrfTies,
      effective: d.effective,
    })),
    grid: {
      rrf_k: report.grid.rrfK,
      bm25_weights: report.grid.bm25Weights,
      top_weight_conditions: scoredJson(report.grid.topWeightConditions),
      rrf_k_sweep: scoredJson(report.grid.rrfKSweep),
      weight_sets: report.grid.weightSets,
      mean_ndcg: report.grid.meanNdcg,
    },
    loo: {
      refit: conditionJson(loo.refit),
      folds: loo.folds,
      held_out_diffs: loo.heldOutDiffs,
      mean_delta: loo.meanDelta,
      paired_se: Number.isFinite(loo.pairedSe) ? loo.pairedSe : null,
      selection_stability: loo.selectionStability,
      fold_choices: loo.foldChoices.map((f) => ({
        held_out: f.heldOut,
        condition: conditionJson(f.condition),
        held_out_diff: f.heldOutDiff,
      })),
      sign_test: {
        improved: loo.signTest.improved,
        degraded: loo.signTest.degraded,
        tied: loo.signTest.tied,
        p_value: loo.signTest.pValue,
      },
    },
    secondary_metrics: {
      baseline: metricsJson(report.secondary.baseline),
      refit: metricsJson(report.secondary.refit),
      violations: report.secondary.violations,
    },
    per_query_impact: {
      improved: report.perQueryImpact.improved,
      degraded: report.perQueryImpact.degraded,
      worst_delta: report.perQueryImpact.worstDelta,
      worst_query: report.perQueryImpact.worstQueryId,
      deltas: report.perQueryDeltas,
    },
    verdict:
      verdict.decision === 'adopt'
        ? {
            decision: 'adopt',
            condition: conditionJson(verdict.condition),
            toml_snippet: verdict.tomlSnippet,
            criteria: report.criteria,
          }
        : { decision: 'keep_default', reasons: verdict.reasons, criteria: report.criteria },
    threshold: thresholdFitToJson(report.threshold),
  };
}
