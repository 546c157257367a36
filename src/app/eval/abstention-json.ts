// The wire form (snake_case) of a run's abstention and of a query's confidence: `groove eval --format json` and
// the history both carry it.
import type { AbstentionMetrics, RateWithInterval } from '../../measure/abstention-metrics.js';
import type { QueryResult } from '../../measure/eval-run.js';

type Json = Record<string, unknown>;

function rateToJson(rate: RateWithInterval): Json {
  return { value: rate.value, low: rate.low, high: rate.high, count: rate.count, of: rate.of };
}

export function abstentionToJson(a: AbstentionMetrics): Json {
  return {
    threshold: a.threshold,
    answerable: a.answerable,
    negatives: a.negatives,
    precision: rateToJson(a.precision),
    recall: rateToJson(a.recall),
    false_abstain: rateToJson(a.falseAbstain),
    auc: a.auc,
  };
}

/** A query's `confidence` entry, when it was measured with one. */
export function queryConfidenceToJson(q: QueryResult): Json {
  return q.confidence ? { confidence: { value: q.confidence.value, abstained: q.confidence.abstained } } : {};
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function rateFromJson(value: unknown): RateWithInterval | null {
  if (!isRecord(value) || typeof value.count !== 'number' || typeof value.of !== 'number') return null;
  return {
    count: value.count,
    of: value.of,
    value: numberOrNull(value.value),
    low: numberOrNull(value.low),
    high: numberOrNull(value.high),
  };
}

/** A stored run's `abstention`, or nothing when it has none or its shape is wrong. */
export function abstentionFromJson(value: unknown): { abstention?: AbstentionMetrics } {
  if (!isRecord(value)) return {};
  const precision = rateFromJson(value.precision);
  const recall = rateFromJson(value.recall);
  const falseAbstain = rateFromJson(value.false_abstain);
  const { threshold, answerable, negatives } = value;
  if (!precision || !recall || !falseAbstain) return {};
  if (typeof threshold !== 'number' || typeof answerable !== 'number' || typeof negatives !== 'number')
    return {};
  return {
    abstention: {
      threshold,
      answerable,
      negatives,
      precision,
      recall,
      falseAbstain,
      auc: numberOrNull(value.auc),
    },
  };
}

/** A stored query's `confidence`, or nothing. */
export function queryConfidenceFromJson(value: unknown): Pick<QueryResult, 'confidence'> {
  if (!isRecord(value) || typeof value.value !== 'number' || typeof value.abstained !== 'boolean') return {};
  return { confidence: { value: value.value, abstained: value.abstained } };
}
