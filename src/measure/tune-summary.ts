// The statistics half of the `groove tune` report, read off the metric table: the grid's phase rankings, the
// nested leave-one-query-out CV, the secondary-metric guard, the per-query impact and the verdict.
import {
  BM25_WEIGHT_VALUES,
  conditionValues,
  DEFAULT_CONDITION,
  type FusionCondition,
  RRF_K_VALUES,
  WEIGHT_SET_COUNT,
  weightSetValues,
} from './tune-grid.js';
import type { MetricTable } from './tune-metric-table.js';
import type { LooResult, SignTest } from './tune-select.js';
import {
  assessCriteria,
  compareSecondaryMetrics,
  decideVerdict,
  MIN_MEAN_DELTA,
  MIN_STABILITY,
  measurePerQueryImpact,
  type PerQueryImpact,
  SE_MULTIPLIER,
  type SecondaryComparison,
  type SecondaryMetrics,
  type TuneCriterion,
  type TuneVerdict,
  type VerdictEvidence,
} from './tune-verdict.js';

export interface ScoredFusion {
  condition: FusionCondition;
  /** Mean nDCG@5 over the effective queries. */
  ndcg: number;
  isDefault: boolean;
}

export interface TuneStatistics {
  grid: {
    rrfK: number[];
    bm25Weights: number[];
    /** Phase W (k = 60), the five best weight sets. */
    topWeightConditions: ScoredFusion[];
    /** Phase K: every k at the winning weights. */
    rrfKSweep: ScoredFusion[];
    /** The built-in weights at k = 60, for reference when they are not in the top five. */
    defaultWeights: ScoredFusion;
    /** The 64 weight sets in grid order (heading major, then context, then content). */
    weightSets: { heading: number; context: number; content: number }[];
    /** Mean nDCG@5 over the effective queries of every condition: `meanNdcg[rrf_k index][weight set index]`. */
    meanNdcg: number[][];
  };
  loo: {
    refit: FusionCondition;
    refitIsDefault: boolean;
    folds: number;
    heldOutDiffs: number[];
    meanDelta: number;
    /** Infinity when fewer than 2 effective queries. */
    pairedSe: number;
    selectionStability: number;
    /** What each fold chose, in effective-query order: the query it held out and its held-out delta. */
    foldChoices: { heldOut: string; condition: FusionCondition; heldOutDiff: number }[];
    signTest: SignTest;
    threshold: number;
    seMultiplier: number;
    minStability: number;
  };
  secondary: SecondaryComparison;
  perQueryImpact: PerQueryImpact;
  /** nDCG@5 of the refit minus the default's, per usable query in golden order (the impact histogram). */
  perQueryDeltas: { id: string; delta: number }[];
  /** The five adoption criteria, each with whether it holds. */
  criteria: TuneCriterion[];
  verdict: TuneVerdict;
}

function scored(condition: number, ndcg: number): ScoredFusion {
  return { condition: conditionValues(condition), ndcg, isDefault: condition === DEFAULT_CONDITION };
}

/** Mean recall@k and MRR of one condition over every usable query (criterion 5 looks at all of them). */
function secondaryAt(table: MetricTable, condition: number): SecondaryMetrics {
  const n = table.queryCount;
  const mean = (values: Float64Array) => {
    let total = 0;
    for (let q = 0; q < n; q++) total += values[condition * n + q]!;
    return n === 0 ? 0 : total / n;
  };
  const recallAtK: Record<number, number> = {};
  for (const [k, values] of table.recallAtK) recallAtK[k] = mean(values);
  return { recallAtK, mrr: mean(table.reciprocalRank) };
}

/** Mean nDCG@5 over `queries` for every condition, as rows of rrf_k and columns of weight sets. */
function gridMeans(table: MetricTable, queries: readonly number[]): number[][] {
  const n = table.queryCount;
  return RRF_K_VALUES.map((_, k) =>
    Array.from({ length: WEIGHT_SET_COUNT }, (_, w) => {
      const condition = k * WEIGHT_SET_COUNT + w;
      let total = 0;
      for (const q of queries) total += table.primary[condition * n + q]!;
      return queries.length === 0 ? 0 : total / queries.length;
    }),
  );
}

/**
 * Everything the report says about selection and adoption. `queries.ids` are in table row order;
 * `queries.effective` are the rows the LOO ran on.
 */
export function summariseTune(
  loo: LooResult,
  table: MetricTable,
  queries: { ids: readonly string[]; effective: readonly number[] },
): TuneStatistics {
  const refit = loo.refit.condition;
  const secondary = compareSecondaryMetrics(
    secondaryAt(table, DEFAULT_CONDITION),
    secondaryAt(table, refit),
    table.kValues,
  );
  const n = table.queryCount;
  const perQueryDeltas = queries.ids.map((id, q) => ({
    id,
    delta: table.primary[refit * n + q]! - table.primary[DEFAULT_CONDITION * n + q]!,
  }));
  const evidence: VerdictEvidence = {
    refit,
    meanDelta: loo.meanDelta,
    pairedSe: loo.pairedSe,
    selectionStability: loo.selectionStability,
    effectiveQueryCount: loo.foldSelections.length,
    secondaryViolations: secondary.violations,
  };
  return {
    grid: {
      rrfK: [...RRF_K_VALUES],
      bm25Weights: [...BM25_WEIGHT_VALUES],
      topWeightConditions: loo.refit.weightRanking.slice(0, 5).map((s) => scored(s.condition, s.score)),
      rrfKSweep: loo.refit.kSweep.map((s) => scored(s.condition, s.score)),
      defaultWeights: scored(
        DEFAULT_CONDITION,
        loo.refit.weightRanking.find((s) => s.condition === DEFAULT_CONDITION)?.score ?? 0,
      ),
      weightSets: Array.from({ length: WEIGHT_SET_COUNT }, (_, w) => weightSetValues(w)),
      meanNdcg: gridMeans(table, queries.effective),
    },
    loo: {
      refit: conditionValues(refit),
      refitIsDefault: refit === DEFAULT_CONDITION,
      folds: loo.foldSelections.length,
      heldOutDiffs: loo.heldOutDiffs,
      meanDelta: loo.meanDelta,
      pairedSe: loo.pairedSe,
      selectionStability: loo.selectionStability,
      foldChoices: loo.foldSelections.map((condition, j) => ({
        heldOut: queries.ids[queries.effective[j]!]!,
        condition: conditionValues(condition),
        heldOutDiff: loo.heldOutDiffs[j]!,
      })),
      signTest: loo.signTest,
      threshold: MIN_MEAN_DELTA,
      seMultiplier: SE_MULTIPLIER,
      minStability: MIN_STABILITY,
    },
    secondary,
    perQueryImpact: measurePerQueryImpact(perQueryDeltas),
    perQueryDeltas,
    criteria: assessCriteria(evidence),
    verdict: decideVerdict(evidence),
  };
}
