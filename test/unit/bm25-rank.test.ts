// In-memory bm25: phrase hits from token occurrences, the FTS5 formula, and the ordering (score, then rowid).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BM25_B, BM25_K1 } from '../../src/rank/bm25.js';
import { countPhraseHits, rankByBm25 } from '../../src/rank/bm25-rank.js';

const occurrences = (list: [row: number, column: number, offset: number][]) => ({
  rows: list.map((o) => o[0]),
  columns: list.map((o) => o[1]),
  offsets: list.map((o) => o[2]),
});

describe('countPhraseHits', () => {
  it('counts a single token per row and column', () => {
    const hits = countPhraseHits(
      [
        occurrences([
          [1, 0, 0],
          [1, 2, 4],
          [1, 2, 9],
          [3, 1, 0],
        ]),
      ],
      3,
    );
    expect(hits.rows).toEqual([1, 3]);
    expect([...hits.counts]).toEqual([1, 0, 2, 0, 1, 0]);
  });

  it('counts a phrase only where its tokens are adjacent, in order, in the same column', () => {
    const first = occurrences([
      [1, 2, 0],
      [1, 2, 5],
      [2, 0, 3],
      [4, 2, 7],
    ]);
    const second = occurrences([
      [1, 2, 1],
      [1, 2, 7],
      [2, 2, 4],
      [4, 2, 6],
    ]);
    const hits = countPhraseHits([first, second], 3);
    // Row 1 at offset 0 only; row 2's second token is in another column; row 4's is before the first.
    expect(hits.rows).toEqual([1]);
    expect([...hits.counts]).toEqual([0, 0, 1]);
  });
});

describe('rankByBm25', () => {
  it('reproduces the FTS5 formula on a hand-checked case', () => {
    // Two rows, one phrase: row 10 has one hit in column 0, row 20 has two in column 1.
    const phrase = { rows: [10, 20], counts: Int32Array.from([1, 0, 0, 2]) };
    const lengths = new Map([
      [10, 4],
      [20, 8],
    ]);
    const input = {
      candidates: [10, 20],
      phrases: [phrase],
      columnCount: 2,
      rowLength: (row: number) => lengths.get(row)!,
      rowCount: 10,
      tokenTotal: 60,
    };
    const idf = Math.log((10 - 2 + 0.5) / (2 + 0.5));
    const score = (freq: number, length: number) =>
      idf * ((freq * (BM25_K1 + 1)) / (freq + BM25_K1 * (1 - BM25_B + (BM25_B * length) / 6)));
    // Weights (4, 1): row 10 freq 4, row 20 freq 2; weights (1, 4): row 10 freq 1, row 20 freq 8.
    expect(score(4, 4)).toBeGreaterThan(score(2, 8));
    expect(score(8, 8)).toBeGreaterThan(score(1, 4));
    expect(
      rankByBm25(
        input,
        [
          [4, 1],
          [1, 4],
        ],
        5,
      ),
    ).toEqual([
      [10, 20],
      [20, 10],
    ]);
  });

  it('clamps a non-positive idf to 1e-6 and breaks equal scores by rowid', () => {
    // Every row has the phrase: idf ≤ 0 is clamped, and identical rows tie.
    const phrase = { rows: [7, 3, 5], counts: Int32Array.from([1, 1, 1]) };
    const ranked = rankByBm25(
      {
        candidates: [7, 3, 5],
        phrases: [phrase],
        columnCount: 1,
        rowLength: () => 5,
        rowCount: 3,
        tokenTotal: 15,
      },
      [[1]],
      2,
    );
    expect(ranked).toEqual([[3, 5]]);
  });

  it('returns at most `limit` rows, best first, and only candidates (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 2 }), fc.nat(30)), {
          minLength: 1,
          maxLength: 120,
        }),
        fc.integer({ min: 1, max: 15 }),
        (list, limit) => {
          const hits = countPhraseHits([occurrences(list)], 3);
          const candidates = hits.rows.filter((row) => row % 2 === 0);
          const [ranked] = rankByBm25(
            {
              candidates,
              phrases: [hits],
              columnCount: 3,
              rowLength: (row) => row,
              rowCount: 50,
              tokenTotal: 900,
            },
            [[2, 1, 1]],
            limit,
          );
          expect(ranked!.length).toBe(Math.min(limit, candidates.length));
          expect(ranked!.every((row) => candidates.includes(row))).toBe(true);
          expect(new Set(ranked).size).toBe(ranked!.length);
        },
      ),
    );
  });
});
