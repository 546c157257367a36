import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MmrCandidate, selectMmr } from '../../src/rank/mmr.js';

function candidate(id: number, docId: number, relevance: number, vector: number[] | null): MmrCandidate {
  return { id, docId, relevance, vector: vector === null ? null : Float32Array.from(vector) };
}

describe('selectMmr', () => {
  it('with λ=1 and no penalty keeps relevance order', () => {
    const picks = selectMmr(
      [candidate(1, 1, 0.2, [1, 0]), candidate(2, 1, 0.9, [1, 0]), candidate(3, 2, 0.5, [0, 1])],
      { lambda: 1, sameDocPenalty: 0, limit: 3 },
    );
    expect(picks).toEqual([2, 3, 1]);
  });

  it('prefers a dissimilar candidate over a near-duplicate when λ < 1', () => {
    const candidates = [
      candidate(1, 1, 1.0, [1, 0]),
      candidate(2, 2, 0.95, [0.99, 0.01]),
      candidate(3, 3, 0.9, [0, 1]),
      candidate(4, 4, 0.0, [0, 1]),
    ];
    // Normalised relevance 1, .95, .9, 0: candidate 2 scores .7·.95 − .3·~1 ≈ .37, candidate 3 scores .63.
    expect(selectMmr(candidates, { lambda: 0.7, sameDocPenalty: 0, limit: 2 })).toEqual([1, 3]);
    expect(selectMmr(candidates, { lambda: 1, sameDocPenalty: 0, limit: 2 })).toEqual([1, 2]);
  });

  it('penalises a second chunk of an already picked document', () => {
    const candidates = [candidate(1, 7, 1.0, null), candidate(2, 7, 0.9, null), candidate(3, 8, 0.8, null)];
    expect(selectMmr(candidates, { lambda: 1, sameDocPenalty: 0, limit: 3 })).toEqual([1, 2, 3]);
    // Normalised relevance 1, .5, 0: with the penalty candidate 2 scores .5 − .6 < 0.
    expect(selectMmr(candidates, { lambda: 1, sameDocPenalty: 0.6, limit: 3 })).toEqual([1, 3, 2]);
  });

  it('treats an all-equal relevance range as 0 and breaks ties by input order', () => {
    const candidates = [candidate(5, 1, 0.3, null), candidate(4, 2, 0.3, null), candidate(9, 3, 0.3, null)];
    expect(selectMmr(candidates, { lambda: 0.7, sameDocPenalty: 0, limit: 3 })).toEqual([5, 4, 9]);
  });

  it('counts similarity to a candidate without a vector as 0', () => {
    // 2 is identical to 1 and would be pushed down; 3 has no vector, so it is not.
    const candidates = [
      candidate(1, 1, 1.0, [1, 0]),
      candidate(2, 2, 0.9, [1, 0]),
      candidate(3, 3, 0.5, null),
    ];
    expect(selectMmr(candidates, { lambda: 0.5, sameDocPenalty: 0, limit: 3 })).toEqual([1, 3, 2]);
  });

  it('respects the limit and handles an empty pool', () => {
    expect(selectMmr([], { lambda: 0.7, sameDocPenalty: 0, limit: 5 })).toEqual([]);
    const candidates = [candidate(1, 1, 1, null), candidate(2, 2, 0, null)];
    expect(selectMmr(candidates, { lambda: 0.7, sameDocPenalty: 0, limit: 1 })).toEqual([1]);
  });

  const pool = fc
    .array(
      fc.record({
        docId: fc.integer({ min: 0, max: 5 }),
        // Tenths keep distinct relevances distinct after min-max normalisation (no float collapse).
        relevance: fc.integer({ min: -50, max: 50 }).map((tenths) => tenths / 10),
        vector: fc.option(
          fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
          {
            nil: null,
          },
        ),
      }),
      { maxLength: 30 },
    )
    .map((rows) => rows.map((row, index) => candidate(100 + index, row.docId, row.relevance, row.vector)));

  it('with λ=1 and penalty 0 equals relevance order (ties by input index) on random pools', () => {
    fc.assert(
      fc.property(pool, fc.integer({ min: 0, max: 40 }), (candidates, limit) => {
        const expected = candidates
          .map((c, index) => ({ c, index }))
          .sort((a, b) => b.c.relevance - a.c.relevance || a.index - b.index)
          .map(({ c }) => c.id);
        const relevances = candidates.map((c) => c.relevance);
        const flat = relevances.length > 0 && Math.max(...relevances) - Math.min(...relevances) <= 1e-9;
        const picks = selectMmr(candidates, { lambda: 1, sameDocPenalty: 0, limit });
        expect(picks).toEqual(flat ? candidates.slice(0, limit).map((c) => c.id) : expected.slice(0, limit));
      }),
      { numRuns: 300 },
    );
  });

  it('returns a duplicate-free selection of min(limit, n) candidate ids for any λ and penalty', () => {
    fc.assert(
      fc.property(
        pool,
        fc.integer({ min: 0, max: 100 }).map((percent) => percent / 100),
        fc.integer({ min: 0, max: 100 }).map((percent) => percent / 100),
        fc.integer({ min: 0, max: 40 }),
        (candidates, lambda, sameDocPenalty, limit) => {
          const picks = selectMmr(candidates, { lambda, sameDocPenalty, limit });
          expect(picks).toHaveLength(Math.min(limit, candidates.length));
          expect(new Set(picks).size).toBe(picks.length);
          const ids = new Set(candidates.map((c) => c.id));
          for (const id of picks) expect(ids.has(id)).toBe(true);
          // The first pick is always a most relevant candidate.
          if (picks.length > 0 && lambda > 0) {
            const best = Math.max(...candidates.map((c) => c.relevance));
            expect(candidates.find((c) => c.id === picks[0])!.relevance).toBe(best);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
