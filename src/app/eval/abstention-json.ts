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
