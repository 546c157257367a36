import { describe, expect, it } from 'vitest';
import { answerConfidence, confidenceTerms, isLowConfidence } from '../../src/rank/answer-confidence.js';

/** bm25's idf as FTS5 computes it (clamped to 1e-6). */
const idf = (n: number, rows: number) => Math.max(1e-6, Math.log((rows - n + 0.5) / (n + 0.5)));

describe('answerConfidence', () => {
  it('is the idf-weighted share of the query terms the top hit holds', () => {
    const terms = [
      { rowsHolding: 2, inTopHit: true },
      { rowsHolding: 40, inTopHit: false },
    ];
    const expected = idf(2, 100) / (idf(2, 100) + idf(40, 100));
    expect(answerConfidence(terms, 100)).toBeCloseTo(expected, 12);
    expect(answerConfidence(terms, 100)).toBeGreaterThan(0.5);
  });

  it('is 1 when the top hit holds every term and 0 when it holds none', () => {
    const held = [
      { rowsHolding: 3, inTopHit: true },
      { rowsHolding: 9, inTopHit: true },
    ];
    expect(answerConfidence(held, 50)).toBe(1);
    expect(
      answerConfidence(
        held.map((t) => ({ ...t, inTopHit: false })),
        50,
      ),
    ).toBe(0);
  });

  it('counts a term the index never uses as missing, at the highest weight', () => {
    const withUnknown = [
      { rowsHolding: 5, inTopHit: true },
      { rowsHolding: 0, inTopHit: false },
    ];
    expect(answerConfidence(withUnknown, 100)).toBeCloseTo(idf(5, 100) / (idf(5, 100) + idf(0, 100)), 12);
    expect(answerConfidence(withUnknown, 100)).toBeLessThan(0.5);
  });

  it('is 0 without terms or rows', () => {
    expect(answerConfidence([], 10)).toBe(0);
    expect(answerConfidence([{ rowsHolding: 0, inTopHit: true }], 0)).toBe(0);
  });

  it('stays in [0, 1] for any evidence', () => {
    for (let seed = 1; seed < 300; seed++) {
      const rows = 1 + (seed % 37);
      const terms = Array.from({ length: 1 + (seed % 5) }, (_, i) => ({
        rowsHolding: (seed * (i + 3)) % (rows + 2),
        inTopHit: (seed >> i) % 2 === 1,
      }));
      const value = answerConfidence(terms, rows);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
  });
});

describe('isLowConfidence', () => {
  it('flags a confidence below the threshold; 0 never flags', () => {
    expect(isLowConfidence(0.2, 0.3)).toBe(true);
    expect(isLowConfidence(0.3, 0.3)).toBe(false);
    expect(isLowConfidence(0, 0)).toBe(false);
  });
});

describe('confidenceTerms', () => {
  it('drops question words and repeats, keeping them when nothing else is left', () => {
    expect(confidenceTerms(['How', 'do', 'i', 'restore', 'backup', 'restore'])).toEqual([
      'restore',
      'backup',
    ]);
    expect(confidenceTerms(['what', 'how', 'what'])).toEqual(['what', 'how']);
  });
});
