// The statistics half of the `groove tune` report, read off the metric table: the grid's phase rankings, the
// nested leave-one-query-out CV, the secondary-metric guard, the per-query impact and the verdict.
import {
  BM25_WEIGHT_VALUES,
  conditionValues,
  DEFAULT_CONDITION,
  type FusionCondition,
  RRF_K_VALUES,
} from './tune-grid.js';
import type { MetricTable } from './tune-metric-table.js';
import type { LooResult, SignTest } from './tune-select.js';
import {
  compareSecondaryMetrics,
  decideVerdict,
  MIN_MEAN_DELTA,
  MIN_STABILITY,
  measurePerQueryImpact,
  type PerQueryImpact,
  SE_MULTIPLIER,
  type SecondaryComparison,
  type SecondaryMetrics,
  type TuneVerdict,
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
    signTest: SignTest;
    threshold: number;
    seMultiplier: number;
    minStability: number;
  };
  secondary: SecondaryComparison;
  perQueryImpact: PerQueryImpact;
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

/** Everything the report says about selection and adoption; `queryIds` in table row order. */
export function summariseTune(
  loo: LooResult,
  table: MetricTable,
  queryIds: readonly string[],
): TuneStatistics {
  const refit = loo.refit.condition;
  const secondary = compareSecondaryMetrics(
    secondaryAt(table, DEFAULT_CONDITION),
    secondaryAt(table, refit),
    table.kValues,
  );
  const n = table.queryCount;
  const perQueryImpact = measurePerQueryImpact(
    queryIds.map((id, q) => ({
      id,
      delta: table.primary[refit * n + q]! - table.primary[DEFAULT_CONDITION * n + q]!,
    })),
  );
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
    },
    loo: {
      refit: conditionValues(refit),
      refitIsDefault: refit === DEFAULT_CONDITION,
      folds: loo.foldSelections.length,
      heldOutDiffs: loo.heldOutDiffs,
      meanDelta: loo.meanDelta,
      pairedSe: loo.pairedSe,
      selectionStability: loo.selectionStability,
      signTest: loo.signTest,
      threshold: MIN_MEAN_DELTA,
      seMultiplier: SE_MULTIPLIER,
      minStability: MIN_STABILITY,
    },
    secondary,
    perQueryImpact,
    verdict: decideVerdict({
      refit,
      meanDelta: loo.meanDelta,
      pairedSe: loo.pairedSe,
      selectionStability: loo.selectionStability,
      effectiveQueryCount: loo.foldSelections.length,
      secondaryViolations: secondary.violations,
    }),
  };
}
