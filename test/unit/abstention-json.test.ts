import { describe, expect, it } from 'vitest';
import { evalRunToJson } from '../../src/app/eval/eval-run-json.js';
import { evalRunFromJson } from '../../src/app/eval/eval-run-reader.js';
import { computeAbstention } from '../../src/measure/abstention-metrics.js';
import { computeQueryMetrics } from '../../src/measure/eval-metrics.js';
import type { EvalRun } from '../../src/measure/eval-run.js';

function runWith(abstention: boolean): EvalRun {
  const hits = [{ rank: 1, path: 'a.md', heading: null, score: 1 }];
  const query = (id: string, expected: { path: string; heading: null }[], value: number) => ({
    id,
    query: id,
    expected,
    topK: hits,
    metrics: computeQueryMetrics(expected, hits, [1]),
    ...(abstention ? { confidence: { value, abstained: value < 0.3 } } : {}),
  });
  const perQuery = [query('answerable', [{ path: 'a.md', heading: null }], 0.8), query('negative', [], 0.1)];
  const metrics = computeAbstention(
    [
      { answerable: true, confidence: 0.8, abstained: false },
      { answerable: false, confidence: 0.1, abstained: true },
    ],
    0.3,
  )!;
  return {
    timestamp: 't',
    fingerprint: {
      model: 'none',
      reranker: null,
      limit: 1,
      kValues: [1],
      goldenHash: 'h',
      metricVersion: 2,
      ftsQueryVersion: 4,
    },
    corpus: null,
    aggregate: { recallAtK: { 1: 1 }, mrr: 1, ndcgAtK: { 1: 1 }, queryCount: 1 },
    perQuery,
    findings: [],
    ...(abstention ? { abstention: metrics } : {}),
  };
}

describe('abstention in the history JSON', () => {
  it('round-trips the run abstention and each query confidence', () => {
    const run = runWith(true);
    const json = JSON.parse(JSON.stringify(evalRunToJson(run, { forHistory: true })));
    expect(json.abstention.false_abstain).toEqual({
      value: 0,
      low: 0,
      high: expect.any(Number),
      count: 0,
      of: 1,
    });
    const back = evalRunFromJson(json)!;
    expect(back.abstention).toEqual(run.abstention);
    expect(back.perQuery.map((q) => q.confidence)).toEqual(run.perQuery.map((q) => q.confidence));
  });

  it('reads a run stored without them as before', () => {
    const back = evalRunFromJson(JSON.parse(JSON.stringify(evalRunToJson(runWith(false)))))!;
    expect(back.abstention).toBeUndefined();
    expect(back.perQuery[0]).not.toHaveProperty('confidence');
  });
});
