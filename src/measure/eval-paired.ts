// Two eval runs compared query by query: for each aggregate metric, the paired differences over the queries
// both runs share (by id), their 95% t-interval and verdict, and the minimum detectable effect at this N.
// Means alone announced gains that a paired test did not uphold; this is what keeps the arrows honest.
import type { QueryMetrics } from './eval-metrics.js';
import type { EvalRun, QueryResult } from './eval-run.js';
import { comparePaired, type PairedInterval } from './paired-ci.js';

export interface PairedMetric extends PairedInterval {
  /** `recall@5`, `MRR`, `nDCG@10` — the names the gate and the text report use. */
  metric: string;
}

export interface PairedRunComparison {
  /** Timestamp of the run compared against. */
  against: string;
  /** Queries present in both runs with at least one expected entry. */
  sharedQueries: number;
  confidence: number;
  power: number;
  metrics: PairedMetric[];
}

export const PAIRED_CONFIDENCE = 0.95;
export const MDE_POWER = 0.8;

/** Pair `now` with `before` over shared query ids; metrics follow the current run's k list. */
export function pairRuns(now: EvalRun, before: EvalRun): PairedRunComparison {
  const earlier = new Map(before.perQuery.filter(counts).map((q) => [q.id, q.metrics]));
  const pairs: [QueryMetrics, QueryMetrics][] = [];
  for (const q of now.perQuery) {
    const old = earlier.get(q.id);
    if (old && counts(q)) pairs.push([q.metrics, old]);
  }
  const metric = (name: string, pick: (m: QueryMetrics) => number | undefined): PairedMetric => {
    const diffs: number[] = [];
    for (const [a, b] of pairs) {
      const x = pick(a);
      const y = pick(b);
      // A value the other run lacks (another k) or cannot compare (NaN from old JSON) drops out of this metric.
      if (x !== undefined && y !== undefined && Number.isFinite(x) && Number.isFinite(y)) diffs.push(x - y);
    }
    const interval = comparePaired(diffs, { confidence: PAIRED_CONFIDENCE, power: MDE_POWER });
    // Every metric lies in [0, 1], so a difference lies in [−1, 1]; a t-interval from a handful of queries can
    // reach past that, which says nothing more than the clipped bound does.
    return {
      metric: name,
      ...interval,
      ciLow: Math.max(-1, interval.ciLow),
      ciHigh: Math.min(1, interval.ciHigh),
    };
  };
  const kValues = now.fingerprint.kValues;
  const metrics = [
    ...kValues.map((k) => metric(`recall@${k}`, (m) => m.recallAtK[k])),
    metric('MRR', (m) => m.reciprocalRank),
    ...kValues.map((k) => metric(`nDCG@${k}`, (m) => m.ndcgAtK[k])),
    // The extra metrics pair only queries both runs measured them on (older history has none).
    ...kValues.map((k) => metric(`P@${k}`, (m) => m.extra?.precisionAtK[k])),
    ...kValues.map((k) => metric(`MAP@${k}`, (m) => m.extra?.averagePrecisionAtK[k])),
    ...kValues.map((k) => metric(`hit@${k}`, (m) => m.extra?.hitAtK[k])),
    metric('R-precision', (m) => m.extra?.rPrecision),
  ];
  return {
    against: before.timestamp,
    sharedQueries: pairs.length,
    confidence: PAIRED_CONFIDENCE,
    power: MDE_POWER,
    metrics,
  };
}

/** The metrics whose whole interval lies below zero: the only regressions --fail-on-significant-regression sees. */
export function findSignificantRegressions(paired: PairedRunComparison): PairedMetric[] {
  return paired.metrics.filter((m) => m.verdict === 'regressed' && isGatedMetric(m.metric));
}

/** The gates watch recall@k, MRR and nDCG@k only; P@k, MAP@k, hit@k and R-precision are reported, not gated. */
export function isGatedMetric(name: string): boolean {
  return name === 'MRR' || name.startsWith('recall@') || name.startsWith('nDCG@');
}

function counts(q: QueryResult): boolean {
  return q.expected.length > 0;
}
