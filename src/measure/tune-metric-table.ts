// The table `groove tune`'s sweep fills: every metric of every fusion condition for every golden query, in flat
// typed arrays indexed `condition * queryCount + query`.
import { CONDITION_COUNT } from './tune-grid.js';

/** Every metric of every condition: `x[condition * queryCount + query]`. */
export interface MetricTable {
  queryCount: number;
  kValues: number[];
  /** nDCG@5, the primary metric. */
  primary: Float64Array;
  recallAtK: Map<number, Float64Array>;
  reciprocalRank: Float64Array;
}

export function createMetricTable(queryCount: number, kValues: number[]): MetricTable {
  const size = CONDITION_COUNT * queryCount;
  return {
    queryCount,
    kValues,
    primary: new Float64Array(size),
    recallAtK: new Map(kValues.map((k) => [k, new Float64Array(size)])),
    reciprocalRank: new Float64Array(size),
  };
}
