// The IR metrics `groove eval` reports beside recall/MRR/nDCG: P@k, MAP@k (AP@k averaged), R-precision and hit
// rate@k. Binary relevance, and the same one-to-one matching as nDCG@k: walking the ranking, each hit consumes
// at most one still-unconsumed matching expected entry (heading entries first, then listing order), so a second
// chunk of an already-found entry is not relevant again. They are additions: they never enter metric_version,
// the fingerprint, or the regression gates.
import {
  type ExpectedEntry,
  type ExtraAggregateMetrics,
  type ExtraQueryMetrics,
  isHit,
  type MetricsByK,
  type RankedHit,
} from './eval-metrics.js';

/** For each hit in list order: whether it consumed an expected entry, and which (index into expected, or -1). */
export function matchHits(expected: readonly ExpectedEntry[], hits: readonly RankedHit[]): number[] {
  const consumed = new Array<boolean>(expected.length).fill(false);
  return hits.map((hit) => {
    let pick = -1;
    for (let i = 0; i < expected.length; i++) {
      if (consumed[i] || !isHit(expected[i]!, hit)) continue;
      if (pick === -1 || (expected[pick]!.heading === null && expected[i]!.heading !== null)) pick = i;
    }
    if (pick !== -1) consumed[pick] = true;
    return pick;
  });
}

/** Relevant hits in the top k ÷ k; a ranking shorter than k counts its missing places as not relevant. */
export function computePrecisionAtK(
  expected: readonly ExpectedEntry[],
  hits: readonly RankedHit[],
  k: number,
): number {
  if (expected.length === 0 || k <= 0) return 0;
  const relevant = matchHits(expected, hits.slice(0, k)).filter((m) => m !== -1).length;
  return relevant / k;
}

/**
 * AP@k = Σ over relevant positions i ≤ k of (relevant hits in the top i ÷ i), divided by the number of expected
 * entries (trec_eval's map_cut convention: an entry never retrieved in the top k contributes 0).
 */
export function computeAveragePrecisionAtK(
  expected: readonly ExpectedEntry[],
  hits: readonly RankedHit[],
  k: number,
): number {
  if (expected.length === 0 || k <= 0) return 0;
  const matches = matchHits(expected, hits.slice(0, k));
  let found = 0;
  let sum = 0;
  matches.forEach((m, i) => {
    if (m === -1) return;
    found += 1;
    sum += found / (i + 1);
  });
  return sum / expected.length;
}

/** R-precision: relevant hits in the top R ÷ R, R = number of expected entries (P@R). */
export function computeRPrecision(expected: readonly ExpectedEntry[], hits: readonly RankedHit[]): number {
  return computePrecisionAtK(expected, hits, expected.length);
}

/** 1 when any hit in the top k matches any expected entry, else 0 (also 0 with no expected entry). */
export function computeHitAtK(
  expected: readonly ExpectedEntry[],
  hits: readonly RankedHit[],
  k: number,
): number {
  if (k <= 0) return 0;
  return hits.slice(0, k).some((hit) => expected.some((entry) => isHit(entry, hit))) ? 1 : 0;
}

export function computeExtraQueryMetrics(
  expected: readonly ExpectedEntry[],
  hits: readonly RankedHit[],
  kValues: readonly number[],
): ExtraQueryMetrics {
  const precisionAtK: MetricsByK = {};
  const averagePrecisionAtK: MetricsByK = {};
  const hitAtK: MetricsByK = {};
  for (const k of kValues) {
    precisionAtK[k] = computePrecisionAtK(expected, hits, k);
    averagePrecisionAtK[k] = computeAveragePrecisionAtK(expected, hits, k);
    hitAtK[k] = computeHitAtK(expected, hits, k);
  }
  return { precisionAtK, averagePrecisionAtK, hitAtK, rPrecision: computeRPrecision(expected, hits) };
}

/**
 * Means over the queries with at least one expected entry that carry the extra metrics (a run read from older
 * history has none); null when no such query exists, so "not measured" never reads as 0.
 */
export function aggregateExtraMetrics(
  perQuery: readonly { expected: readonly ExpectedEntry[]; extra?: ExtraQueryMetrics }[],
  kValues: readonly number[],
): ExtraAggregateMetrics | null {
  const counted = perQuery.filter((q) => q.expected.length > 0 && q.extra !== undefined);
  if (counted.length === 0) return null;
  const mean = (pick: (m: ExtraQueryMetrics) => number | undefined) =>
    counted.reduce((sum, q) => sum + (pick(q.extra!) ?? 0), 0) / counted.length;
  const precisionAtK: MetricsByK = {};
  const mapAtK: MetricsByK = {};
  const hitRateAtK: MetricsByK = {};
  for (const k of kValues) {
    precisionAtK[k] = mean((m) => m.precisionAtK[k]);
    mapAtK[k] = mean((m) => m.averagePrecisionAtK[k]);
    hitRateAtK[k] = mean((m) => m.hitAtK[k]);
  }
  return { precisionAtK, mapAtK, hitRateAtK, rPrecision: mean((m) => m.rPrecision) };
}
