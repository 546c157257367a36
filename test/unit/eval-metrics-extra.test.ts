import { describe, expect, it } from 'vitest';
import { evalRunToJson } from '../../src/app/eval/eval-run-json.js';
import { evalRunFromJson } from '../../src/app/eval/eval-run-reader.js';
import type { ExpectedEntry, RankedHit } from '../../src/measure/eval-metrics.js';
import {
  aggregateExtraMetrics,
  computeAveragePrecisionAtK,
  computeExtraQueryMetrics,
  computeHitAtK,
  computePrecisionAtK,
  computeRPrecision,
} from '../../src/measure/eval-metrics-extra.js';
import { findSignificantRegressions, pairRuns } from '../../src/measure/eval-paired.js';

const e = (path: string, heading: string | null = null): ExpectedEntry => ({ path, heading });
const ranked = (...paths: (string | [string, string])[]): RankedHit[] =>
  paths.map((p, i) => {
    const [path, heading] = typeof p === 'string' ? [p, null] : p;
    return { rank: i + 1, path, heading, score: 1 / (i + 1) };
  });

describe('P@k, AP@k, R-precision, hit@k from their definitions', () => {
  // Relevant at ranks 1 and 3 of 4; two expected entries.
  const expected = [e('a.md'), e('b.md')];
  const hits = ranked('a.md', 'x.md', 'b.md', 'y.md');

  it('P@k counts relevant hits in the top k over k', () => {
    expect(computePrecisionAtK(expected, hits, 1)).toBe(1);
    expect(computePrecisionAtK(expected, hits, 2)).toBe(0.5);
    expect(computePrecisionAtK(expected, hits, 4)).toBe(0.5);
  });

  it('AP@k sums precision at each relevant rank and divides by the expected count', () => {
    expect(computeAveragePrecisionAtK(expected, hits, 1)).toBe(0.5); // (1/1) / 2
    expect(computeAveragePrecisionAtK(expected, hits, 2)).toBe(0.5);
    expect(computeAveragePrecisionAtK(expected, hits, 3)).toBeCloseTo((1 + 2 / 3) / 2, 12);
  });

  it('R-precision is precision at R = expected count', () => {
    expect(computeRPrecision(expected, hits)).toBe(0.5);
    expect(computeRPrecision([e('a.md')], hits)).toBe(1);
  });

  it('hit@k is 1 once any expected entry is in the top k', () => {
    expect(computeHitAtK(expected, ranked('x.md', 'b.md'), 1)).toBe(0);
    expect(computeHitAtK(expected, ranked('x.md', 'b.md'), 2)).toBe(1);
  });

  it('no expected entry: every metric is 0', () => {
    const m = computeExtraQueryMetrics([], hits, [1, 5]);
    expect(m).toEqual({
      precisionAtK: { 1: 0, 5: 0 },
      averagePrecisionAtK: { 1: 0, 5: 0 },
      hitAtK: { 1: 0, 5: 0 },
      rPrecision: 0,
    });
  });

  it('fewer hits than k: the missing places count as not relevant', () => {
    const short = ranked('a.md');
    expect(computePrecisionAtK(expected, short, 10)).toBe(0.1);
    expect(computeAveragePrecisionAtK(expected, short, 10)).toBe(0.5);
    expect(computeRPrecision(expected, short)).toBe(0.5);
    expect(computePrecisionAtK(expected, [], 5)).toBe(0);
  });

  it('duplicate hits of one entry are relevant once', () => {
    const dup = ranked(['a.md', 'One'], ['a.md', 'Two'], 'x.md');
    expect(computePrecisionAtK([e('a.md')], dup, 2)).toBe(0.5);
    expect(computeAveragePrecisionAtK([e('a.md')], dup, 3)).toBe(1);
    expect(computeRPrecision([e('a.md')], dup)).toBe(1);
    // Two entries of the same document: each chunk can consume one, so both count.
    const twoEntries = [e('a.md', 'One'), e('a.md')];
    expect(computePrecisionAtK(twoEntries, dup, 2)).toBe(1);
  });

  it('a heading entry needs its heading', () => {
    expect(computePrecisionAtK([e('a.md', 'Two')], ranked(['a.md', 'One']), 1)).toBe(0);
  });

  it('every value stays in [0, 1]', () => {
    const m = computeExtraQueryMetrics([e('a.md'), e('a.md')], ranked('a.md', 'a.md', 'a.md'), [1, 2, 3]);
    for (const v of [...Object.values(m.precisionAtK), ...Object.values(m.averagePrecisionAtK), m.rPrecision])
      expect(v).toBeLessThanOrEqual(1);
    expect(m.averagePrecisionAtK[3]).toBe(1);
  });
});

describe('aggregate and history', () => {
  it('averages over queries with expected entries and is null when none carries the metrics', () => {
    const q1 = { expected: [e('a.md')], extra: computeExtraQueryMetrics([e('a.md')], ranked('a.md'), [1]) };
    const q2 = { expected: [e('b.md')], extra: computeExtraQueryMetrics([e('b.md')], ranked('x.md'), [1]) };
    const q3 = { expected: [], extra: computeExtraQueryMetrics([], ranked('x.md'), [1]) };
    expect(aggregateExtraMetrics([q1, q2, q3], [1])).toEqual({
      precisionAtK: { 1: 0.5 },
      mapAtK: { 1: 0.5 },
      hitRateAtK: { 1: 0.5 },
      rPrecision: 0.5,
    });
    expect(aggregateExtraMetrics([{ expected: [e('a.md')] }], [1])).toBeNull();
  });

  const run = (id: string, hits: RankedHit[], withExtra: boolean) => {
    const expected = [e('a.md')];
    const extra = computeExtraQueryMetrics(expected, hits, [1]);
    return {
      timestamp: id,
      fingerprint: {
        model: 'm',
        reranker: null,
        limit: 1,
        kValues: [1],
        goldenHash: 'h',
        metricVersion: 2,
        ftsQueryVersion: 4,
      },
      corpus: null,
      aggregate: { recallAtK: { 1: 0 }, mrr: 0, ndcgAtK: { 1: 0 }, queryCount: 3 },
      perQuery: ['q1', 'q2', 'q3'].map((qid) => ({
        id: qid,
        query: qid,
        expected,
        topK: hits,
        metrics: {
          recallAtK: { 1: 1 },
          reciprocalRank: 1,
          ndcgAtK: { 1: 1 },
          ...(withExtra ? { extra } : {}),
        },
      })),
      findings: [],
    };
  };

  it('pairs the extra metrics only where both runs have them, and never gates on them', () => {
    const old = run('old', ranked('a.md'), false);
    const now = run('now', ranked('x.md'), true);
    const p1 = pairRuns(now, old).metrics.find((m) => m.metric === 'P@1')!;
    expect(p1.n).toBe(0);
    const before = run('before', ranked('a.md'), true);
    const paired = pairRuns(now, before);
    const p = paired.metrics.find((m) => m.metric === 'P@1')!;
    expect(p.n).toBe(3);
    expect(p.meanDiff).toBe(-1);
    expect(paired.metrics.map((m) => m.metric)).toEqual(
      expect.arrayContaining(['MAP@1', 'hit@1', 'R-precision']),
    );
    expect(findSignificantRegressions(paired).map((m) => m.metric)).not.toContain('P@1');
  });

  it('round-trips through the history JSON; an old run reads back without them', () => {
    const now = run('now', ranked('a.md'), true);
    const back = evalRunFromJson(JSON.parse(JSON.stringify(evalRunToJson(now))))!;
    expect(back.perQuery[0]!.metrics.extra).toEqual(now.perQuery[0]!.metrics.extra);
    const old = evalRunFromJson(
      JSON.parse(JSON.stringify(evalRunToJson(run('old', ranked('a.md'), false)))),
    )!;
    expect(old.perQuery[0]!.metrics.extra).toBeUndefined();
    expect(old.aggregate.extra).toBeUndefined();
  });
});
