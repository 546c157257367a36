// FTS5's bm25 arithmetic: the idf clamp, the empty-table row count, the per-instance weighted frequency (whose
// float order must be FTS5's), and one term's score on hand-checked numbers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BM25_B,
  BM25_K1,
  bm25Corpus,
  bm25Idf,
  bm25LengthTerm,
  bm25TermScore,
  columnWeights,
  weightedFrequency,
} from '../../src/rank/bm25.js';

describe('bm25Idf', () => {
  it('is log((N − n + 0.5) / (n + 0.5)) for a rare term', () => {
    expect(bm25Idf(1, 10)).toBe(Math.log(9.5 / 1.5));
    expect(bm25Idf(0, 1)).toBe(Math.log(1.5 / 0.5));
  });

  it('clamps to 1e-6 where the idf would be zero or negative', () => {
    expect(Math.log(5.5 / 5.5)).toBe(0);
    expect(bm25Idf(5, 10)).toBe(1e-6);
    expect(bm25Idf(3, 3)).toBe(1e-6);
    expect(bm25Idf(9, 10)).toBe(1e-6);
    expect(bm25Idf(4, 10)).toBeGreaterThan(1e-6);
  });
});

describe('bm25Corpus', () => {
  it('divides the tokens by the rows, counting an empty table as one row', () => {
    expect(bm25Corpus(4, 10)).toEqual({ rowCount: 4, averageLength: 2.5 });
    expect(bm25Corpus(0, 0)).toEqual({ rowCount: 1, averageLength: 0 });
  });
});

describe('weightedFrequency', () => {
  it('adds a fractional weight once per instance, in column order, as FTS5 does', () => {
    // Ten additions of 0.1 are not 10 × 0.1: the per-instance sum is what FTS5 ranks by.
    const weights = columnWeights([1, 1, 0.1]);
    expect(weights.integral).toBe(false);
    expect(weightedFrequency([0, 0, 10], 0, weights)).toBe(0.9999999999999999);
    expect(10 * 0.1).toBe(1);
  });

  it('reads the counts at an offset', () => {
    const hits = Int32Array.from([9, 9, 9, 2, 0, 3]);
    expect(weightedFrequency(hits, 3, columnWeights([4, 1, 2]))).toBe(14);
  });

  it('gives exactly the per-instance sum for integral weights (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(50), { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 3, maxLength: 3 }),
        (counts, values) => {
          let perInstance = 0;
          values.forEach((weight, column) => {
            for (let i = 0; i < counts[column]!; i++) perInstance += weight;
          });
          expect(columnWeights(values).integral).toBe(true);
          expect(weightedFrequency(counts, 0, columnWeights(values))).toBe(perInstance);
        },
      ),
    );
  });
});

describe('bm25TermScore', () => {
  it('is idf · f(k1 + 1) / (f + k1(1 − b + b·len/avg)) with k1 = 1.2, b = 0.75', () => {
    expect([BM25_K1, BM25_B]).toEqual([1.2, 0.75]);
    // A row twice the average length: 1.2 · (0.25 + 1.5) = 2.1; frequency 3: 3 · 2.2 / 5.1.
    const lengthTerm = bm25LengthTerm(8, 4);
    expect(lengthTerm).toBeCloseTo(2.1, 15);
    expect(bm25TermScore(2, 3, lengthTerm)).toBeCloseTo((2 * 6.6) / 5.1, 14);
    expect(bm25TermScore(2, 3, lengthTerm)).toBe(
      2 * ((3 * (1.2 + 1.0)) / (3 + 1.2 * (1 - 0.75 + (0.75 * 8) / 4))),
    );
  });
});
