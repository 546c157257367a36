// Comparing a run with the previous one: compatibility, metric deltas and their arrows, the regression rule
// behind --fail-on-regression, the per-query rows worth showing, and the corpus-change note.

import { type EvalFingerprint, fingerprintsEqual } from './eval-fingerprint.js';
import type { AggregateMetrics, ExtraAggregateMetrics, MetricsByK } from './eval-metrics.js';
import type { CorpusSnapshot, EvalRun } from './eval-run.js';

/**
 * Why a previous run can or cannot be diffed against. The golden check wins when several changed, then a
 * change of the measured KB set, then a change in degradation (one run measured with a leg down, the other not, or other legs).
 */
export type RunComparison =
  | 'none'
  | 'compatible'
  | 'golden-changed'
  | 'kbs-changed'
  | 'degradation-changed'
  | 'config-changed';

export function compareRuns(now: EvalFingerprint, previous: EvalFingerprint | null): RunComparison {
  if (previous === null) return 'none';
  if (fingerprintsEqual(now, previous)) return 'compatible';
  if (now.goldenHash !== previous.goldenHash) return 'golden-changed';
  if (kbSetOf(now) !== kbSetOf(previous)) return 'kbs-changed';
  const legs = (f: EvalFingerprint) => (f.degraded ?? []).join(',');
  return legs(now) === legs(previous) ? 'config-changed' : 'degradation-changed';
}

/** The KB set a run measured, as one key; '' for a one-KB run. */
function kbSetOf(fingerprint: EvalFingerprint): string {
  return (fingerprint.kbs ?? []).join('+');
}

export interface AggregateDiff {
  recallAtK: MetricsByK;
  ndcgAtK: MetricsByK;
  mrr: number;
  /**
   * now − previous of P@k, MAP@k, hit rate@k and R-precision; absent when either run lacks them (runs recorded
   * before they existed), and each map holds only the k both runs measured.
   */
  extra?: ExtraAggregateMetrics;
}

/** now − previous for every k of the current run (a k the previous run lacks counts as 0). */
export function diffAggregates(now: AggregateMetrics, previous: AggregateMetrics): AggregateDiff {
  const delta = (current: MetricsByK, before: MetricsByK): MetricsByK => {
    const out: MetricsByK = {};
    for (const [k, value] of Object.entries(current)) out[Number(k)] = value - (before[Number(k)] ?? 0);
    return out;
  };
  const extra = now.extra && previous.extra ? diffExtra(now.extra, previous.extra) : null;
  return {
    recallAtK: delta(now.recallAtK, previous.recallAtK),
    ndcgAtK: delta(now.ndcgAtK, previous.ndcgAtK),
    mrr: now.mrr - previous.mrr,
    ...(extra ? { extra } : {}),
  };
}

/** The extra metrics' deltas over the k both runs measured: a value one run never had is skipped, not 0. */
function diffExtra(now: ExtraAggregateMetrics, previous: ExtraAggregateMetrics): ExtraAggregateMetrics {
  const delta = (current: MetricsByK, before: MetricsByK): MetricsByK => {
    const out: MetricsByK = {};
    for (const [k, value] of Object.entries(current)) {
      const then = before[Number(k)];
      if (then !== undefined) out[Number(k)] = value - then;
    }
    return out;
  };
  return {
    precisionAtK: delta(now.precisionAtK, previous.precisionAtK),
    mapAtK: delta(now.mapAtK, previous.mapAtK),
    hitRateAtK: delta(now.hitRateAtK, previous.hitRateAtK),
    rPrecision: now.rPrecision - previous.rPrecision,
  };
}

export type DeltaTone = 'improved' | 'regressed' | 'noise' | 'unchanged';

/** ↑/↓ with green/red beyond the threshold, gray within it, — when |d| < 1e-9. */
export function classifyDelta(delta: number, threshold: number): { arrow: '↑' | '↓' | '—'; tone: DeltaTone } {
  if (Math.abs(delta) < 1e-9) return { arrow: '—', tone: 'unchanged' };
  const arrow = delta > 0 ? '↑' : '↓';
  if (delta > threshold) return { arrow, tone: 'improved' };
  if (delta < -threshold) return { arrow, tone: 'regressed' };
  return { arrow, tone: 'noise' };
}

export interface RegressedMetric {
  /** `recall@5`, `MRR`, `nDCG@10`. */
  metric: string;
  previous: number;
  now: number;
}

/**
 * Every aggregate metric where previous − now > threshold: recall@k for each k of the current run, MRR, and
 * nDCG@k for each k. Pairs with a non-finite value are skipped (they cannot be compared).
 */
export function findRegressions(
  now: AggregateMetrics,
  previous: AggregateMetrics,
  threshold: number,
): RegressedMetric[] {
  const found: RegressedMetric[] = [];
  const check = (metric: string, current: number, before: number) => {
    if (!Number.isFinite(current) || !Number.isFinite(before)) return;
    if (before - current > threshold) found.push({ metric, previous: before, now: current });
  };
  for (const [k, value] of Object.entries(now.recallAtK))
    check(`recall@${k}`, value, previous.recallAtK[Number(k)] ?? 0);
  check('MRR', now.mrr, previous.mrr);
  for (const [k, value] of Object.entries(now.ndcgAtK))
    check(`nDCG@${k}`, value, previous.ndcgAtK[Number(k)] ?? 0);
  return found;
}

export interface FlaggedQuery {
  id: string;
  /** `miss`: recall@max k is 0 (or nothing was expected); `regressed`: fell by more than the threshold. */
  kind: 'miss' | 'regressed';
  recall: number;
  /** recall@max k of the same id in the compared run, when there is one. */
  previousRecall: number | null;
}

/** The per-query rows the text report lists: misses and regressions at the largest k, in golden order. */
export function selectFlaggedQueries(
  run: EvalRun,
  compared: EvalRun | null,
  threshold: number,
): { k: number; rows: FlaggedQuery[] } {
  const k = Math.max(...run.fingerprint.kValues);
  const before = new Map((compared?.perQuery ?? []).map((q) => [q.id, q.metrics.recallAtK[k] ?? 0]));
  const rows: FlaggedQuery[] = [];
  for (const query of run.perQuery) {
    // A negative query (nothing expected) is measured by abstention, never as a ranking miss.
    if (query.expected.length === 0) continue;
    const recall = query.metrics.recallAtK[k] ?? 0;
    const previousRecall = before.get(query.id) ?? null;
    const miss = query.expected.length === 0 || recall === 0;
    const regressed = previousRecall !== null && previousRecall - recall > threshold;
    if (miss || regressed)
      rows.push({ id: query.id, kind: miss ? 'miss' : 'regressed', recall, previousRecall });
  }
  return { k, rows };
}

/**
 * Whether the corpus differs from the compared run's: null when there is nothing to compare (no previous run,
 * or one recorded before snapshots existed) — distinct from false.
 */
export function isCorpusChanged(now: CorpusSnapshot | null, previous: CorpusSnapshot | null): boolean | null {
  if (now === null || previous === null) return null;
  return (
    now.documents !== previous.documents || now.chunks !== previous.chunks || now.digest !== previous.digest
  );
}

/** `642 -> 646 documents, 11090 -> 11215 chunks`, or the same-counts wording; null when unchanged/unknown. */
export function describeCorpusChange(
  now: CorpusSnapshot | null,
  previous: CorpusSnapshot | null,
): string | null {
  if (!isCorpusChanged(now, previous)) return null;
  const a = previous!;
  const b = now!;
  if (a.documents === b.documents && a.chunks === b.chunks) {
    return 'same document and chunk counts, different contents';
  }
  return `${a.documents} -> ${b.documents} documents, ${a.chunks} -> ${b.chunks} chunks`;
}
