// The shared top-k heap against a full sort: which rows it keeps, the order it returns them in, and how each tie
// order treats equal scores.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type TieOrder, TopRows } from '../../src/rank/top-k.js';

/** The oracle: every (score, row), sorted by score desc then row asc, cut to `limit`. */
function bestOf(offers: readonly [score: number, row: number][], limit: number): number[] {
  return [...offers]
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, Math.max(0, limit))
    .map(([, row]) => row);
}

function offerAll(top: TopRows, offers: readonly [number, number][]): TopRows {
  for (const [score, row] of offers) top.offer(score, row);
  return top;
}

/** Offers with few distinct scores (many ties) and distinct rows, in a shuffled order. */
const tiedOffers = fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 400 }).chain((scores) =>
  fc
    .shuffledSubarray(
      scores.map((_, i) => i),
      { minLength: scores.length, maxLength: scores.length },
    )
    .map((rows) => rows.map((row): [number, number] => [scores[row]!, row * 3 + 1])),
);

describe('TopRows', () => {
  it.each<TieOrder>(['lower-row', 'none'])(
    'keeps exactly the rows with the `capacity` highest scores (unique scores, ties %s)',
    (ties) => {
      fc.assert(
        fc.property(
          fc.uniqueArray(fc.double({ min: -1, max: 1, noNaN: true }), {
            maxLength: 300,
            comparator: 'SameValueZero',
          }),
          fc.integer({ min: 1, max: 50 }),
          (scores, capacity) => {
            const heap = new TopRows(capacity, ties);
            scores.forEach((score, row) => {
              heap.offer(score, row);
            });
            const want = scores
              .map((score, row) => ({ score, row }))
              .sort((a, b) => b.score - a.score)
              .slice(0, capacity)
              .map((x) => x.row)
              .sort((a, b) => a - b);
            expect(Array.from(heap.unorderedRows()).sort((a, b) => a - b)).toEqual(want);
            expect(heap.full).toBe(scores.length >= capacity);
          },
        ),
      );
    },
  );

  it('with ties by lower row, returns the best rows by (score desc, row asc) whatever the offer order', () => {
    fc.assert(
      fc.property(tiedOffers, fc.integer({ min: 0, max: 40 }), (offers, limit) => {
        const top = offerAll(new TopRows(limit), offers);
        const sorted = top.sorted();
        expect(sorted.map((kept) => kept.row)).toEqual(bestOf(offers, limit));
        expect(sorted.map((kept) => kept.score)).toEqual(
          bestOf(offers, limit).map((row) => offers.find(([, r]) => r === row)![0]),
        );
      }),
    );
  });

  it('breaks an equal score by the lower row, also against the weakest kept row', () => {
    const top = offerAll(new TopRows(2), [
      [1, 9],
      [2, 5],
      [1, 4],
      [1, 7],
    ]);
    expect(top.sorted()).toEqual([
      { row: 5, score: 2 },
      { row: 4, score: 1 },
    ]);
  });

  it('with scores alone, never lets an equal score displace a kept row', () => {
    const top = offerAll(new TopRows(1, 'none'), [
      [1, 9],
      [1, 4],
    ]);
    expect(Array.from(top.unorderedRows())).toEqual([9]);
    expect(top.minScore).toBe(1);
  });

  it('with scores alone, settles equal scores by heap position: a newcomer stops above an equal child', () => {
    // Rows 1–3 tie at 2; row 3 replaces row 0 at the root and stays there (its children only equal it), so
    // row 4 displaces row 3, not row 1 or 2.
    const top = offerAll(new TopRows(3, 'none'), [
      [1, 0],
      [2, 1],
      [2, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(Array.from(top.unorderedRows()).sort((a, b) => a - b)).toEqual([1, 2, 4]);
  });

  it('keeps nothing for a limit of zero or less', () => {
    for (const limit of [0, -3, Number.NaN]) {
      const top = offerAll(new TopRows(limit), [
        [1, 1],
        [2, 2],
      ]);
      expect(top.full).toBe(true);
      expect(top.size).toBe(0);
      expect(top.sorted()).toEqual([]);
    }
  });

  it('returns every row when fewer than the limit were offered', () => {
    const top = offerAll(new TopRows(10), [
      [0.5, 3],
      [0.5, 1],
      [0.9, 2],
    ]);
    expect(top.full).toBe(false);
    expect(top.sorted().map((kept) => kept.row)).toEqual([2, 1, 3]);
  });

  it('grows past its first allocation up to the limit, and starts over after clear', () => {
    const offers = Array.from({ length: 5000 }, (_, i): [number, number] => [(i * 7919) % 4001, i]);
    const top = offerAll(new TopRows(3000), offers);
    expect(top.size).toBe(3000);
    expect(top.sorted().map((kept) => kept.row)).toEqual(bestOf(offers, 3000));
    top.clear();
    expect(top.size).toBe(0);
    offerAll(top, offers.slice(0, 2));
    expect(top.sorted().map((kept) => kept.row)).toEqual([1, 0]);
  });

  it('holds row numbers beyond 32 bits exactly', () => {
    const big = 2 ** 40 + 1;
    const top = offerAll(new TopRows(2), [
      [1, big],
      [1, big + 2],
      [1, big - 2],
    ]);
    expect(top.sorted().map((kept) => kept.row)).toEqual([big - 2, big]);
  });
});
