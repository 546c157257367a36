import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import { fuseRrf } from '../../src/rank/fuse-rrf.js';

describe('fuseRrf', () => {
  it('scores Σ weight / (k + rank) with 1-based ranks and reports each leg rank', () => {
    const fused = fuseRrf(
      [
        { name: 'fts', ids: [10, 20] },
        { name: 'vector', ids: [20, 30], weight: 0.5 },
      ],
      { k: 60 },
    );
    expect(fused.map((f) => f.id)).toEqual([20, 10, 30]);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 0.5 / 61, 12);
    expect(fused[0]!.ranks).toEqual({ fts: 2, vector: 1 });
    expect(fused[1]!.score).toBeCloseTo(1 / 61, 12);
  });

  it('breaks ties by id ascending', () => {
    const fused = fuseRrf(
      [
        { name: 'a', ids: [7] },
        { name: 'b', ids: [3] },
      ],
      { k: 1 },
    );
    expect(fused.map((f) => f.id)).toEqual([3, 7]);
  });

  it('counts a repeated id once per leg, at its best rank', () => {
    const fused = fuseRrf([{ name: 'a', ids: [5, 5, 6] }], { k: 10 });
    expect(fused[0]).toEqual({ id: 5, score: 1 / 11, ranks: { a: 1 } });
    expect(fused[1]!.ranks).toEqual({ a: 3 });
  });

  it('rejects a non-positive k or a negative weight', () => {
    expect(() => fuseRrf([], { k: 0 })).toThrow(GrooveError);
    expect(() => fuseRrf([{ name: 'a', ids: [1], weight: -1 }], { k: 60 })).toThrow(/weight/);
  });

  it('matches a naive oracle on random legs', () => {
    const leg = fc.record({
      ids: fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 25 }),
      weight: fc.option(fc.double({ min: 0, max: 3, noNaN: true }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(leg, { maxLength: 4 }), fc.integer({ min: 1, max: 100 }), (legs, k) => {
        const named = legs.map((l, i) => ({ name: `leg${i}`, ids: l.ids, weight: l.weight }));
        const fused = fuseRrf(named, { k });
        const expected = new Map<number, number>();
        for (const l of named) {
          l.ids.forEach((id, index) => {
            expected.set(id, (expected.get(id) ?? 0) + (l.weight ?? 1) / (k + index + 1));
          });
        }
        expect(fused.map((f) => f.id).sort((a, b) => a - b)).toEqual(
          [...expected.keys()].sort((a, b) => a - b),
        );
        for (const f of fused) expect(f.score).toBeCloseTo(expected.get(f.id)!, 12);
        for (let i = 1; i < fused.length; i++) {
          const prev = fused[i - 1]!;
          const cur = fused[i]!;
          expect(prev.score > cur.score || (prev.score === cur.score && prev.id < cur.id)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
