import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aggregateMetrics,
  computeNdcgAtK,
  computeQueryMetrics,
  computeRecallAtK,
  computeReciprocalRank,
  type ExpectedEntry,
  isHit,
  type RankedHit,
} from '../../src/measure/eval-metrics.js';

const e = (path: string, heading: string | null = null): ExpectedEntry => ({ path, heading });
const ranked = (...hits: [string, string | null][]): RankedHit[] =>
  hits.map(([path, heading], i) => ({ rank: i + 1, path, heading, score: 1 / (i + 1) }));

describe('hit rule', () => {
  it('needs the same path, and the same trimmed lowercase heading when one is expected', () => {
    expect(isHit(e('a.md'), { path: 'a.md', heading: 'Anything' })).toBe(true);
    expect(isHit(e('a.md'), { path: 'a.md', heading: null })).toBe(true);
    expect(isHit(e('a.md', '  Data Flow '), { path: 'a.md', heading: 'data flow' })).toBe(true);
    expect(isHit(e('a.md', 'Data flow'), { path: 'a.md', heading: 'Data flows' })).toBe(false);
    expect(isHit(e('a.md', 'Data flow'), { path: 'a.md', heading: null })).toBe(false);
    expect(isHit(e('a.md'), { path: 'A.md', heading: null })).toBe(false);
    expect(isHit(e('docs/a.md'), { path: 'a.md', heading: null })).toBe(false);
  });

  it('an entry naming its KB needs a hit from that KB; one without matches the path in any KB', () => {
    const inB: ExpectedEntry = { path: 'a.md', heading: null, kb: 'b' };
    expect(isHit(inB, { path: 'a.md', heading: null, kb: 'b' })).toBe(true);
    expect(isHit(inB, { path: 'a.md', heading: null, kb: 'c' })).toBe(false);
    expect(isHit(inB, { path: 'a.md', heading: null })).toBe(false);
    expect(isHit(e('a.md'), { path: 'a.md', heading: null, kb: 'c' })).toBe(true);
    // The same path in two KBs is one expected entry: found once, one gain.
    const hits: RankedHit[] = [
      { rank: 1, path: 'a.md', heading: null, score: 1, kb: 'b' },
      { rank: 2, path: 'a.md', heading: null, score: 0.5, kb: 'c' },
    ];
    expect(computeRecallAtK([e('a.md'), e('z.md')], hits, 2)).toBe(0.5);
    expect(computeNdcgAtK([e('a.md'), e('z.md')], hits, 2)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
    expect(
      computeReciprocalRank(
        [inB],
        [...hits].reverse().map((h, i) => ({ ...h, rank: i + 1 })),
      ),
    ).toBe(0.5);
  });
  it('an entry with a quote needs a hit whose returned text contains it, whitespace and case aside', () => {
    const quoted: ExpectedEntry = { path: 'a.md', heading: null, quote: 'The  Tokyo\nbranch' };
    expect(isHit(quoted, { path: 'a.md', heading: 'x', text: 'Sales of the tokyo branch rose.' })).toBe(true);
    expect(isHit(quoted, { path: 'a.md', heading: 'x', text: 'Sales of the Osaka branch rose.' })).toBe(
      false,
    );
    expect(isHit(quoted, { path: 'a.md', heading: 'x' })).toBe(false);
    expect(isHit(quoted, { path: 'b.md', heading: 'x', text: 'the tokyo branch' })).toBe(false);
    const both: ExpectedEntry = { path: 'a.md', heading: 'Sales', quote: 'tokyo branch' };
    expect(isHit(both, { path: 'a.md', heading: 'Sales', text: 'the Tokyo branch' })).toBe(true);
    expect(isHit(both, { path: 'a.md', heading: 'Costs', text: 'the Tokyo branch' })).toBe(false);
    expect(
      isHit({ path: 'a.md', heading: null, quote: '  ' }, { path: 'a.md', heading: null, text: 'a' }),
    ).toBe(false);
  });
});

describe('metrics on hand-computed cases', () => {
  // The seed transcript: recall@1 0.250, recall@5 0.500, recall@10 0.500, MRR 0.500, nDCG@10 0.460.
  it('reproduces the seed example numbers', () => {
    const q1 = {
      expected: [e('docs/ARCHITECTURE.md', 'Data flow'), e('src/db.rs')],
      hits: ranked(['docs/ARCHITECTURE.md', 'Data flow'], ['other.md', null], ['src/db.rs', 'fn open']),
    };
    const q2 = { expected: [e('src/indexer.rs')], hits: ranked(['a.md', null], ['b.md', null]) };
    const k = [1, 5, 10];
    const perQuery = [q1, q2].map((q) => ({
      expected: q.expected,
      metrics: computeQueryMetrics(q.expected, q.hits, k),
    }));
    const agg = aggregateMetrics(perQuery, k);
    expect(agg.recallAtK[1]!.toFixed(3)).toBe('0.250');
    expect(agg.recallAtK[5]!.toFixed(3)).toBe('0.500');
    expect(agg.recallAtK[10]!.toFixed(3)).toBe('0.500');
    expect(agg.mrr.toFixed(3)).toBe('0.500');
    expect(agg.ndcgAtK[10]!.toFixed(3)).toBe('0.460');
    // q1: DCG = 1 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3).
    expect(perQuery[0]!.metrics.ndcgAtK[10]).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 12);
    expect(agg.queryCount).toBe(2);
  });

  it('recall counts duplicate expected entries separately', () => {
    expect(computeRecallAtK([e('a.md'), e('a.md'), e('b.md')], ranked(['a.md', null]), 10)).toBeCloseTo(
      2 / 3,
    );
    expect(computeRecallAtK([e('a.md')], ranked(['x.md', null], ['a.md', null]), 1)).toBe(0);
    expect(computeRecallAtK([e('a.md')], [], 5)).toBe(0);
    expect(computeRecallAtK([], ranked(['a.md', null]), 5)).toBe(0);
  });

  it('nDCG gives one hit at most one gain, so duplicate expected entries cannot push it above 1', () => {
    // One hit of a.md against two identical entries: DCG = 1, IDCG = 1 + 1/log2(3).
    const dup = [e('a.md'), e('a.md')];
    expect(computeNdcgAtK(dup, ranked(['a.md', 'H1']), 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
    // Two chunks of a.md satisfy both entries: ideal.
    expect(computeNdcgAtK(dup, ranked(['a.md', 'H1'], ['a.md', 'H2']), 10)).toBeCloseTo(1, 12);
    // Three chunks of a.md against one entry: still ideal, never more.
    expect(computeNdcgAtK([e('a.md')], ranked(['a.md', 'x'], ['a.md', 'y'], ['a.md', 'z']), 10)).toBe(1);
  });

  it('nDCG lets a hit consume the heading entry before the path-only one', () => {
    const expected = [e('a.md'), e('a.md', 'Setup')];
    // Rank 1 matches both entries; taking the heading entry leaves the path-only one for rank 2.
    const hits = ranked(['a.md', 'Setup'], ['a.md', 'Usage']);
    expect(computeNdcgAtK(expected, hits, 10)).toBeCloseTo(1, 12);
    // The other order of hits: rank 1 can only take the path-only entry, rank 2 takes the heading entry.
    expect(computeNdcgAtK(expected, ranked(['a.md', 'Usage'], ['a.md', 'Setup']), 10)).toBeCloseTo(1, 12);
    // Only the heading chunk is returned: one gain of two.
    expect(computeNdcgAtK(expected, ranked(['a.md', 'Setup']), 10)).toBeCloseTo(
      1 / (1 + 1 / Math.log2(3)),
      12,
    );
  });

  it('nDCG@k only looks at the top k and normalises by min(|expected|, k)', () => {
    const expected = [e('a.md'), e('b.md'), e('c.md')];
    const hits = ranked(['x.md', null], ['a.md', null], ['b.md', null]);
    // k = 1: nothing in the window.
    expect(computeNdcgAtK(expected, hits, 1)).toBe(0);
    // k = 2: DCG = 1/log2(3); IDCG = 1 + 1/log2(3).
    expect(computeNdcgAtK(expected, hits, 2)).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 12);
  });

  it('reciprocal rank is 1/rank of the first matching hit, 0 for none or a rank of 0', () => {
    expect(
      computeReciprocalRank([e('b.md')], ranked(['a.md', null], ['x.md', null], ['b.md', null])),
    ).toBeCloseTo(1 / 3);
    expect(computeReciprocalRank([e('b.md')], ranked(['a.md', null]))).toBe(0);
    expect(computeReciprocalRank([e('a.md')], [{ rank: 0, path: 'a.md', heading: null, score: 1 }])).toBe(0);
  });

  it('aggregates only queries with expected entries, and is all zero without any', () => {
    const m = computeQueryMetrics([e('a.md')], ranked(['a.md', null]), [1]);
    const agg = aggregateMetrics(
      [
        { expected: [e('a.md')], metrics: m },
        { expected: [], metrics: { recallAtK: { 1: 0 }, reciprocalRank: 0, ndcgAtK: { 1: 0 } } },
      ],
      [1],
    );
    expect(agg).toEqual({ recallAtK: { 1: 1 }, mrr: 1, ndcgAtK: { 1: 1 }, queryCount: 1 });
    expect(aggregateMetrics([], [1, 5])).toEqual({
      recallAtK: { 1: 0, 5: 0 },
      mrr: 0,
      ndcgAtK: { 1: 0, 5: 0 },
      queryCount: 0,
    });
  });
});

// Small alphabets so that hits and expected entries collide often.
const pathArb = fc.constantFrom('a.md', 'b.md', 'c.md', 'd.md');
const headingArb = fc.option(fc.constantFrom('One', 'two', ' TWO '), { nil: null });
const expectedArb = fc.array(
  fc.record({ path: pathArb, heading: headingArb }).map((r) => ({ path: r.path, heading: r.heading })),
  { maxLength: 6 },
);
const hitsArb = fc
  .array(fc.record({ path: pathArb, heading: headingArb }), { maxLength: 12 })
  .map((rows) => rows.map((r, i) => ({ rank: i + 1, path: r.path, heading: r.heading, score: 0 })));
const kArb = fc.integer({ min: 1, max: 15 });

/** Naive recall: count each expected entry that any of the first k hits matches, written independently. */
function oracleRecall(expected: ExpectedEntry[], hits: RankedHit[], k: number): number {
  if (expected.length === 0 || hits.length === 0) return 0;
  let matched = 0;
  for (const entry of expected) {
    let seen = false;
    for (const hit of hits) {
      if (hit.rank > k) break;
      const headingOk =
        entry.heading === null ||
        (hit.heading !== null && hit.heading.trim().toLowerCase() === entry.heading.trim().toLowerCase());
      if (hit.path === entry.path && headingOk) seen = true;
    }
    if (seen) matched++;
  }
  return matched / expected.length;
}

/**
 * Naive nDCG for path-only golden entries: the j-th hit of a path earns a gain while j does not exceed the
 * number of entries listing that path (any one-to-one matching does the same when there are no headings).
 */
function oracleNdcgPathOnly(expected: ExpectedEntry[], hits: RankedHit[], k: number): number {
  if (expected.length === 0 || hits.length === 0) return 0;
  const available = new Map<string, number>();
  for (const entry of expected) available.set(entry.path, (available.get(entry.path) ?? 0) + 1);
  let dcg = 0;
  for (const hit of hits.filter((h) => h.rank <= k)) {
    const left = available.get(hit.path) ?? 0;
    if (left > 0) {
      available.set(hit.path, left - 1);
      dcg += 1 / Math.log2(hit.rank + 1);
    }
  }
  let idcg = 0;
  for (let i = 1; i <= Math.min(expected.length, k); i++) idcg += 1 / Math.log2(i + 1);
  return dcg / idcg;
}

describe('metric properties against naive oracles', () => {
  it('recall@k equals the naive count', () => {
    fc.assert(
      fc.property(expectedArb, hitsArb, kArb, (expected, hits, k) => {
        expect(computeRecallAtK(expected, hits, k)).toBeCloseTo(oracleRecall(expected, hits, k), 12);
      }),
    );
  });

  it('reciprocal rank equals 1 / the smallest matching rank', () => {
    fc.assert(
      fc.property(expectedArb, hitsArb, (expected, hits) => {
        const ranks = hits.filter((h) => expected.some((x) => isHit(x, h))).map((h) => h.rank);
        const oracle = ranks.length === 0 ? 0 : 1 / Math.min(...ranks);
        expect(computeReciprocalRank(expected, hits)).toBe(oracle);
      }),
    );
  });

  it('nDCG@k equals the naive count when no entry names a heading', () => {
    const pathOnly = fc.array(
      pathArb.map((path) => ({ path, heading: null })),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(pathOnly, hitsArb, kArb, (expected, hits, k) => {
        expect(computeNdcgAtK(expected, hits, k)).toBeCloseTo(oracleNdcgPathOnly(expected, hits, k), 12);
      }),
    );
  });

  it('every metric is finite and within [0, 1]; the ideal ranking scores 1', () => {
    fc.assert(
      fc.property(expectedArb, hitsArb, kArb, (expected, hits, k) => {
        const m = computeQueryMetrics(expected, hits, [k]);
        for (const v of [m.recallAtK[k]!, m.ndcgAtK[k]!, m.reciprocalRank]) {
          expect(Number.isFinite(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1 + 1e-12);
        }
        if (expected.length > 0) {
          const ideal = expected.map((x, i) => ({
            rank: i + 1,
            path: x.path,
            heading: x.heading ?? 'h',
            score: 0,
          }));
          expect(computeNdcgAtK(expected, ideal, k)).toBeCloseTo(1, 12);
          expect(computeRecallAtK(expected, ideal, expected.length)).toBe(1);
        }
      }),
    );
  });

  it('the aggregate is the plain mean of the per-query values', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(expectedArb, hitsArb), { maxLength: 6 }), kArb, (rows, k) => {
        const perQuery = rows.map(([expected, hits]) => ({
          expected,
          metrics: computeQueryMetrics(expected, hits, [k]),
        }));
        const counted = perQuery.filter((q) => q.expected.length > 0);
        const agg = aggregateMetrics(perQuery, [k]);
        const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
        expect(agg.queryCount).toBe(counted.length);
        expect(agg.mrr).toBeCloseTo(mean(counted.map((q) => q.metrics.reciprocalRank)), 12);
        expect(agg.recallAtK[k]).toBeCloseTo(mean(counted.map((q) => q.metrics.recallAtK[k]!)), 12);
      }),
    );
  });
});
