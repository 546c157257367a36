import { describe, expect, it } from 'vitest';
import {
  classifyDelta,
  compareRuns,
  describeCorpusChange,
  diffAggregates,
  findRegressions,
  isCorpusChanged,
  selectFlaggedQueries,
} from '../../src/measure/eval-diff.js';
import type { EvalFingerprint } from '../../src/measure/eval-fingerprint.js';
import { fingerprintsEqual, normalizeEvalDepth } from '../../src/measure/eval-fingerprint.js';
import type { AggregateMetrics } from '../../src/measure/eval-metrics.js';
import type { EvalRun, QueryResult } from '../../src/measure/eval-run.js';
import { formatRunTimestamp } from '../../src/measure/eval-run.js';

const fingerprint = (over: Partial<EvalFingerprint> = {}): EvalFingerprint => ({
  model: 'none',
  reranker: null,
  limit: 10,
  kValues: [1, 5, 10],
  goldenHash: 'abc',
  metricVersion: 2,
  ftsQueryVersion: 4,
  ...over,
});

const aggregate = (r1: number, r5: number, mrr: number, n10: number): AggregateMetrics => ({
  recallAtK: { 1: r1, 5: r5, 10: r5 },
  mrr,
  ndcgAtK: { 1: r1, 5: n10, 10: n10 },
  queryCount: 2,
});

const query = (id: string, recall10: number): QueryResult => ({
  id,
  query: id,
  expected: [{ path: `${id}.md`, heading: null }],
  topK: [],
  metrics: { recallAtK: { 1: 0, 5: recall10, 10: recall10 }, reciprocalRank: 0, ndcgAtK: {} },
});

const run = (perQuery: QueryResult[], agg = aggregate(0, 0, 0, 0)): EvalRun => ({
  timestamp: '2026-04-24T05:32:01+00:00',
  fingerprint: fingerprint(),
  corpus: null,
  aggregate: agg,
  perQuery,
  findings: [],
});

describe('fingerprint compatibility', () => {
  it('compares the whole struct, ignoring key order and absent optional parts', () => {
    expect(fingerprintsEqual(fingerprint(), { ...fingerprint(), mmr: undefined })).toBe(true);
    const { goldenHash, ...rest } = fingerprint();
    const reordered = { goldenHash, ...rest, parentRetriever: undefined };
    expect(fingerprintsEqual(fingerprint(), reordered)).toBe(true);
    expect(fingerprintsEqual(fingerprint(), fingerprint({ metricVersion: 1 }))).toBe(false);
    expect(fingerprintsEqual(fingerprint(), fingerprint({ ftsQueryVersion: 3 }))).toBe(false);
    expect(fingerprintsEqual(fingerprint(), fingerprint({ kValues: [1, 5] }))).toBe(false);
    expect(fingerprintsEqual(fingerprint(), fingerprint({ mmr: { lambda: 0.7, sameDocPenalty: 0 } }))).toBe(
      false,
    );
    expect(fingerprintsEqual(fingerprint(), fingerprint({ context: { mode: 'static' } }))).toBe(false);
  });

  it('names the golden change first, then any other change', () => {
    expect(compareRuns(fingerprint(), null)).toBe('none');
    expect(compareRuns(fingerprint(), fingerprint())).toBe('compatible');
    expect(compareRuns(fingerprint(), fingerprint({ goldenHash: 'zzz', limit: 20 }))).toBe('golden-changed');
    expect(compareRuns(fingerprint(), fingerprint({ reranker: 'bge' }))).toBe('config-changed');
  });

  it('a change of the measured KB set disables the diff, after a golden change', () => {
    const ab = fingerprint({ kbs: ['a', 'b'] });
    expect(compareRuns(ab, fingerprint({ kbs: ['a', 'b'] }))).toBe('compatible');
    expect(compareRuns(ab, fingerprint({ kbs: ['a', 'c'] }))).toBe('kbs-changed');
    expect(compareRuns(ab, fingerprint())).toBe('kbs-changed');
    expect(compareRuns(ab, fingerprint({ kbs: ['a'], goldenHash: 'zzz' }))).toBe('golden-changed');
  });

  it('clamps limit and k to 1000, sorts and de-duplicates k, and fetches max(k, limit)', () => {
    expect(normalizeEvalDepth({ limit: 5, kValues: [10, 1, 5, 5] })).toEqual({
      limit: 5,
      kValues: [1, 5, 10],
      fetchDepth: 10,
      notes: [],
    });
    const clamped = normalizeEvalDepth({ limit: 2000, kValues: [1001, 2000, 3] });
    expect(clamped.limit).toBe(1000);
    expect(clamped.kValues).toEqual([3, 1000]);
    expect(clamped.fetchDepth).toBe(1000);
    expect(clamped.notes).toHaveLength(2);
  });
});

describe('diff and regression rule', () => {
  it('diffs every metric as now - previous, a missing k counting as 0', () => {
    const diff = diffAggregates(aggregate(0.5, 0.8, 0.6, 0.7), {
      recallAtK: { 1: 0.25 },
      mrr: 0.5,
      ndcgAtK: { 10: 0.7 },
      queryCount: 2,
    });
    expect(diff.recallAtK).toEqual({ 1: 0.25, 5: 0.8, 10: 0.8 });
    expect(diff.mrr).toBeCloseTo(0.1);
    expect(diff.ndcgAtK[10]).toBeCloseTo(0);
    expect(diff.ndcgAtK[1]).toBeCloseTo(0.5);
  });

  it('diffs P@k, MAP@k, hit rate@k and R-precision only where both runs measured them', () => {
    const extra = (p: number, map: number, hit: number, rp: number, ks = [1, 10]) => ({
      precisionAtK: Object.fromEntries(ks.map((k) => [k, p])),
      mapAtK: Object.fromEntries(ks.map((k) => [k, map])),
      hitRateAtK: Object.fromEntries(ks.map((k) => [k, hit])),
      rPrecision: rp,
    });
    const now = { ...aggregate(0.5, 0.8, 0.6, 0.7), extra: extra(0.3, 0.5, 0.75, 0.5) };
    const diff = diffAggregates(now, {
      ...aggregate(0.5, 0.8, 0.6, 0.7),
      extra: extra(0.1, 0.25, 1, 0.5, [10]),
    });
    // k = 1 was not measured by the previous run: skipped, not diffed against 0.
    expect(diff.extra).toEqual({
      precisionAtK: { 10: expect.closeTo(0.2) },
      mapAtK: { 10: 0.25 },
      hitRateAtK: { 10: -0.25 },
      rPrecision: 0,
    });
    // A run recorded before the extra metrics existed has none: no deltas are made up for it.
    expect(diffAggregates(now, aggregate(0.5, 0.8, 0.6, 0.7)).extra).toBeUndefined();
    expect(diffAggregates(aggregate(0.5, 0.8, 0.6, 0.7), now).extra).toBeUndefined();
  });

  it('classifies arrows and colours by the threshold', () => {
    expect(classifyDelta(0.056, 0.05)).toEqual({ arrow: '↑', tone: 'improved' });
    expect(classifyDelta(-0.056, 0.05)).toEqual({ arrow: '↓', tone: 'regressed' });
    expect(classifyDelta(0.01, 0.05)).toEqual({ arrow: '↑', tone: 'noise' });
    expect(classifyDelta(-0.05, 0.05)).toEqual({ arrow: '↓', tone: 'noise' });
    expect(classifyDelta(1e-12, 0.05)).toEqual({ arrow: '—', tone: 'unchanged' });
  });

  it('regresses when any aggregate metric fell by more than the threshold', () => {
    const before = aggregate(0.5, 0.8, 0.6, 0.7);
    expect(findRegressions(before, before, 0.05)).toEqual([]);
    expect(findRegressions(aggregate(0.46, 0.8, 0.6, 0.7), before, 0.05)).toEqual([]);
    expect(findRegressions(aggregate(0.44, 0.8, 0.6, 0.7), before, 0.05).map((r) => r.metric)).toEqual([
      'recall@1',
      'nDCG@1',
    ]);
    expect(findRegressions(aggregate(0.5, 0.8, 0.5, 0.7), before, 0.05).map((r) => r.metric)).toEqual([
      'MRR',
    ]);
    expect(findRegressions(aggregate(0.5, 0.8, 0.6, 0.6), before, 0.05).map((r) => r.metric)).toEqual([
      'nDCG@5',
      'nDCG@10',
    ]);
    // Improvements never count; non-finite pairs are skipped.
    expect(findRegressions(aggregate(0.9, 0.9, 0.9, 0.9), before, 0.05)).toEqual([]);
    expect(findRegressions(aggregate(Number.NaN, 0.8, 0.6, 0.7), before, 0.05)).toEqual([]);
    // A k the previous run did not have counts as 0 before, so it cannot regress.
    expect(findRegressions({ ...before, recallAtK: { ...before.recallAtK, 20: 0.1 } }, before, 0.05)).toEqual(
      [],
    );
  });

  it('lists misses and per-query regressions at the largest k, in golden order', () => {
    const now = run([query('kept', 1), query('miss', 0), query('fell', 0.5), query('noise', 0.96)]);
    const before = run([query('kept', 1), query('miss', 0.5), query('fell', 1), query('noise', 1)]);
    expect(selectFlaggedQueries(now, before, 0.05)).toEqual({
      k: 10,
      rows: [
        { id: 'miss', kind: 'miss', recall: 0, previousRecall: 0.5 },
        { id: 'fell', kind: 'regressed', recall: 0.5, previousRecall: 1 },
      ],
    });
    expect(selectFlaggedQueries(now, null, 0.05).rows).toEqual([
      { id: 'miss', kind: 'miss', recall: 0, previousRecall: null },
    ]);
  });
});

describe('corpus change', () => {
  const corpus = { documents: 642, chunks: 11090, digest: 'd1' };
  it('is null without two snapshots, false when identical, true otherwise', () => {
    expect(isCorpusChanged(corpus, null)).toBeNull();
    expect(isCorpusChanged(null, corpus)).toBeNull();
    expect(isCorpusChanged(corpus, { ...corpus })).toBe(false);
    expect(isCorpusChanged({ ...corpus, digest: 'd2' }, corpus)).toBe(true);
  });

  it('names the counts, or says the counts held but the contents did not', () => {
    expect(describeCorpusChange({ documents: 646, chunks: 11215, digest: 'd2' }, corpus)).toBe(
      '642 -> 646 documents, 11090 -> 11215 chunks',
    );
    expect(describeCorpusChange({ ...corpus, digest: 'd2' }, corpus)).toBe(
      'same document and chunk counts, different contents',
    );
    expect(describeCorpusChange(corpus, { ...corpus })).toBeNull();
    expect(describeCorpusChange(corpus, null)).toBeNull();
  });
});

describe('run timestamp', () => {
  it('is RFC 3339 UTC with whole seconds', () => {
    expect(formatRunTimestamp(new Date('2026-04-24T05:32:01.789Z'))).toBe('2026-04-24T05:32:01+00:00');
  });
});
