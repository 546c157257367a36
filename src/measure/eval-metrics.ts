// Retrieval metrics of `groove eval` (metric_version 2): the hit rule, recall@k, reciprocal rank, nDCG@k with
// greedy one-to-one matching, and the mean over queries. Binary relevance; every value is in [0, 1].

import { containsQuote } from '../core/quote-text.js';

/** Bump whenever a formula below changes: the fingerprint then keeps old history out of comparisons. */
export const METRIC_VERSION = 2;

/** A ground-truth entry of the golden file. */
export interface ExpectedEntry {
  path: string;
  /** When set, only a chunk under this heading counts (trimmed, case-insensitive). */
  heading: string | null;
  /** Only in a cross-KB eval: the KB the document must come from; absent = any measured KB. */
  kb?: string;
  /** When set, only a hit whose returned text contains this passage counts (whitespace and case ignored). */
  quote?: string;
}

/** One returned chunk as eval records it; ranks are 1-based. */
export interface RankedHit {
  rank: number;
  path: string;
  heading: string | null;
  score: number;
  /** Only in a cross-KB eval: the KB the hit came from. */
  kb?: string;
  /** The text returned for the hit, when eval kept it: what a `quote` entry is matched against. */
  text?: string;
}

/** Metric values keyed by k. */
export type MetricsByK = Record<number, number>;

/** P@k, AP@k, hit@k and R-precision per query (computed in eval-metrics-extra.ts). */
export interface ExtraQueryMetrics {
  precisionAtK: MetricsByK;
  averagePrecisionAtK: MetricsByK;
  /** 1 when any expected entry is matched in the top k, else 0. */
  hitAtK: MetricsByK;
  rPrecision: number;
}

export interface ExtraAggregateMetrics {
  precisionAtK: MetricsByK;
  mapAtK: MetricsByK;
  hitRateAtK: MetricsByK;
  rPrecision: number;
}

export interface QueryMetrics {
  recallAtK: MetricsByK;
  reciprocalRank: number;
  ndcgAtK: MetricsByK;
  /** P@k, AP@k, hit@k, R-precision (eval-metrics-extra.ts); absent in runs recorded before they existed. */
  extra?: ExtraQueryMetrics;
}

export interface AggregateMetrics {
  recallAtK: MetricsByK;
  mrr: number;
  ndcgAtK: MetricsByK;
  /** P@k, MAP@k, hit rate@k, R-precision; absent in runs recorded before they existed. */
  extra?: ExtraAggregateMetrics;
  /**
   * judged@k (measure/eval-judged.ts): the mean share of each query's top k carrying any recorded judgment; only
   * when the index holds judgments or the golden set came from feedback. Describes the labels, not retrieval.
   */
  judgedAtK?: MetricsByK;
  /** Queries that had at least one expected entry (the denominator of every mean). */
  queryCount: number;
}

/** Headings compare trimmed and lowercased. */
export function normalizeHeading(heading: string): string {
  return heading.trim().toLowerCase();
}

/**
 * Same path, the same KB when the entry names one, when the entry names a heading the same heading after
 * trim + lowercase, and when it names a quote a returned text that contains it (a hit without text never does).
 */
export function isHit(
  expected: ExpectedEntry,
  hit: Pick<RankedHit, 'path' | 'heading' | 'kb' | 'text'>,
): boolean {
  if (expected.path !== hit.path) return false;
  if (expected.kb !== undefined && expected.kb !== hit.kb) return false;
  if (expected.quote !== undefined && (hit.text === undefined || !containsQuote(hit.text, expected.quote)))
    return false;
  if (expected.heading === null) return true;
  return hit.heading !== null && normalizeHeading(expected.heading) === normalizeHeading(hit.heading);
}

/** Share of expected entries matched by any hit in the top k; duplicate entries count separately. */
export function computeRecallAtK(
  expected: readonly ExpectedEntry[],
  hits: readonly RankedHit[],
  k: number,
): number {
  if (expected.length === 0 || hits.length === 0) return 0;
  const window = hits.slice(0, k);
  const matched = expected.filter((entry) => window.some((hit) => isHit(entry, hit))).length;
  return matched / expected.length;
}

/** 1 / rank of the first hit matching any expected entry; 0 when none does (or the rank is not 1-based). */
export function computeReciprocalRank(
  expected: readonly ExpectedEntry[],
  hits: readonly RankedHit[],
): number {
  const first = hits.find((hit) => expected.some((entry) => isHit(entry, hit)));
  if (!first || first.rank < 1) return 0;
  return 1 / first.rank;
}

/**
 * nDCG@k. Walking the top k in rank order, each hit consumes at most one still-unconsumed matching entry —
 * heading entries before path-only ones, then listing order — so one hit is worth at most one gain and the
 * i-th gain sits at a rank ≥ i: DCG never exceeds IDCG, whatever duplicates the golden file lists.
 */
export function computeNdcgAtK(
  expected: readonly ExpectedEntry[],
  hits: readonly RankedHit[],
  k: number,
): number {
  if (expected.length === 0 || hits.length === 0 || k <= 0) return 0;
  const consumed = new Array<boolean>(expected.length).fill(false);
  let dcg = 0;
  for (const hit of hits.slice(0, k)) {
    let pick = -1;
    for (let i = 0; i < expected.length; i++) {
      if (consumed[i] || !isHit(expected[i]!, hit)) continue;
      if (pick === -1 || (expected[pick]!.heading === null && expected[i]!.heading !== null)) pick = i;
    }
    if (pick === -1) continue;
    consumed[pick] = true;
    dcg += 1 / Math.log2(hit.rank + 1);
  }
  const idcg = idealDcg(Math.min(expected.length, k));
  return idcg === 0 ? 0 : dcg / idcg;
}

function idealDcg(count: number): number {
  let total = 0;
  for (let i = 1; i <= count; i++) total += 1 / Math.log2(i + 1);
  return total;
}

export function computeQueryMetrics(
  expected: readonly ExpectedEntry[],
  hits: readonly RankedHit[],
  kValues: readonly number[],
): QueryMetrics {
  const recallAtK: MetricsByK = {};
  const ndcgAtK: MetricsByK = {};
  for (const k of kValues) {
    recallAtK[k] = computeRecallAtK(expected, hits, k);
    ndcgAtK[k] = computeNdcgAtK(expected, hits, k);
  }
  return { recallAtK, reciprocalRank: computeReciprocalRank(expected, hits), ndcgAtK };
}

/** Means over the queries with at least one expected entry; all zero when there is none. */
export function aggregateMetrics(
  perQuery: readonly { expected: readonly ExpectedEntry[]; metrics: QueryMetrics }[],
  kValues: readonly number[],
): AggregateMetrics {
  const counted = perQuery.filter((q) => q.expected.length > 0);
  const n = counted.length;
  const mean = (pick: (m: QueryMetrics) => number) =>
    n === 0 ? 0 : counted.reduce((sum, q) => sum + pick(q.metrics), 0) / n;
  const recallAtK: MetricsByK = {};
  const ndcgAtK: MetricsByK = {};
  for (const k of kValues) {
    recallAtK[k] = mean((m) => m.recallAtK[k] ?? 0);
    ndcgAtK[k] = mean((m) => m.ndcgAtK[k] ?? 0);
  }
  return { recallAtK, mrr: mean((m) => m.reciprocalRank), ndcgAtK, queryCount: n };
}
