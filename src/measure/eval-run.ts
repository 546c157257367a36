// The record one `groove eval` run produces and the history keeps: what was measured, on which index, and
// the numbers. Pure data; JSON (snake_case) conversion lives in app/eval-run-json.ts.
import type { AbstentionMetrics } from './abstention-metrics.js';
import type { EvalFingerprint } from './eval-fingerprint.js';
import type { AggregateMetrics, ExpectedEntry, QueryMetrics, RankedHit } from './eval-metrics.js';

/** The index a run measured: counts plus a digest over every chunk row (see store/corpus-digest.ts). */
export interface CorpusSnapshot {
  documents: number;
  chunks: number;
  digest: string;
}

export interface QueryResult {
  id: string;
  query: string;
  expected: ExpectedEntry[];
  topK: RankedHit[];
  metrics: QueryMetrics;
  /** The search's confidence and whether it set low_confidence (abstained); absent in runs recorded before. */
  confidence?: { value: number; abstained: boolean };
}

/** One document quoting two or more golden queries verbatim (the golden-queries-quoted check). */
export interface QuoteFinding {
  check: 'golden-queries-quoted';
  path: string;
  quoted: { queryId: string; rankInTopK: number | null }[];
}

/** A leg that was down while the run measured (only with --allow-degraded). */
export interface LegDegradation {
  leg: string;
  reason: string;
}

export interface EvalRun {
  /** RFC 3339, UTC, whole seconds: `2026-04-24T05:32:01+00:00`. */
  timestamp: string;
  fingerprint: EvalFingerprint;
  /** Null only for runs recorded before corpus snapshots existed. */
  corpus: CorpusSnapshot | null;
  aggregate: AggregateMetrics;
  perQuery: QueryResult[];
  findings: QuoteFinding[];
  /** The `--rows` row this run measured (`core`, `rerank`, …); absent for a plain run. */
  row?: string;
  /** Legs that were down (from the probe or during the run); absent or empty for a healthy run. */
  degradation?: LegDegradation[];
  /** Abstention on the golden set's negative queries (abstention-metrics.ts); absent when it has none. */
  abstention?: AbstentionMetrics;
}

/** Format a time the way runs are stamped. */
export function formatRunTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
