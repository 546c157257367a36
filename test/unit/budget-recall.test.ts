// Recall at a token budget, recomputed independently on hand-built answers: passages and whole chunks, path,
// heading and quote entries, the chunk the budget cuts, the paired interval of the difference, and that a
// larger budget never lowers recall when its selection holds the smaller one's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type QueryBudgetRecall,
  type ReturnedPiece,
  recallOfPieces,
  summarizeBudgetRecall,
  wholeChunksWithin,
} from '../../src/measure/budget-recall.js';
import type { ExpectedEntry } from '../../src/measure/eval-metrics.js';
import { comparePaired } from '../../src/measure/paired-ci.js';

const count = (text: string) => text.length;
const counter = { count, prefixWithin: (text: string, tokens: number) => text.slice(0, Math.max(0, tokens)) };
const entry = (path: string, extra: Partial<ExpectedEntry> = {}): ExpectedEntry => ({
  path,
  heading: null,
  ...extra,
});
const piece = (path: string, text: string, heading: string | null = null): ReturnedPiece => ({
  path,
  heading,
  text,
  tokens: text.length,
});

describe('recallOfPieces', () => {
  it('counts path, heading and quote entries against the returned text', () => {
    const pieces = [piece('a.md', 'The engine runs HOT\nat noon.', 'Engines'), piece('b.md', 'Other text.')];
    const expected = [
      entry('a.md'),
      entry('a.md', { heading: 'engines' }),
      entry('a.md', { heading: 'Wheels' }),
      entry('a.md', { quote: 'runs hot at noon' }),
      entry('b.md', { quote: 'not there' }),
      entry('c.md'),
    ];
    // Matched: the path, the heading (case ignored), the quote (whitespace and case ignored): 3 of 6.
    expect(recallOfPieces(expected, pieces)).toBe(3 / 6);
    expect(recallOfPieces([], pieces)).toBe(0);
  });
});

describe('wholeChunksWithin', () => {
  const chunks = [
    { path: 'a.md', heading: null, text: 'aaaaaaaaaa' },
    { path: 'b.md', heading: null, text: 'bbbbb quote here' },
    { path: 'c.md', heading: null, text: 'cccc' },
  ];

  it('takes chunks whole in rank order, then the prefix the budget leaves of the next, then stops', () => {
    const pieces = wholeChunksWithin(chunks, 16, counter);
    expect(pieces.map((p) => [p.path, p.text, p.tokens])).toEqual([
      ['a.md', 'aaaaaaaaaa', 10],
      ['b.md', 'bbbbb ', 6],
    ]);
    // c.md would fit the 0 tokens left by nothing: the fill stopped at the cut chunk.
    expect(pieces.reduce((sum, p) => sum + p.tokens, 0)).toBeLessThanOrEqual(16);
  });

  it('a cut chunk counts for its path but a quote only when the prefix holds it', () => {
    const pieces = wholeChunksWithin(chunks, 16, counter);
    expect(recallOfPieces([entry('b.md')], pieces)).toBe(1);
    expect(recallOfPieces([entry('b.md', { quote: 'quote here' })], pieces)).toBe(0);
    const roomier = wholeChunksWithin(chunks, 26, counter);
    expect(recallOfPieces([entry('b.md', { quote: 'quote here' })], roomier)).toBe(1);
    expect(recallOfPieces([entry('c.md')], roomier)).toBe(0);
  });

  it('a larger budget never lowers recall: its chunks hold the smaller budget’s', () => {
    const text = fc.stringMatching(/^[a-z]{1,30}$/);
    const chunk = fc.record({
      path: fc.constantFrom('a.md', 'b.md', 'c.md', 'd.md'),
      heading: fc.constant(null),
      text,
    });
    fc.assert(
      fc.property(
        fc.array(chunk, { maxLength: 8 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 120 }),
        fc.array(fc.constantFrom('a.md', 'b.md', 'c.md', 'd.md'), { minLength: 1, maxLength: 4 }),
        (list, x, y, paths) => {
          const [small, large] = x <= y ? [x, y] : [y, x];
          const expected = paths.map((p) => entry(p));
          const a = wholeChunksWithin(list, small, counter);
          const b = wholeChunksWithin(list, large, counter);
          expect(a.reduce((s, p) => s + p.tokens, 0)).toBeLessThanOrEqual(small);
          expect(b.reduce((s, p) => s + p.tokens, 0)).toBeLessThanOrEqual(large);
          expect(recallOfPieces(expected, b)).toBeGreaterThanOrEqual(recallOfPieces(expected, a));
          // The naive oracle: an entry is recalled when its path starts within the first `budget` characters of
          // the chunks laid end to end.
          let offset = 0;
          const reached = new Set<string>();
          for (const c of list) {
            if (offset < small) reached.add(c.path);
            offset += c.text.length;
          }
          const oracle = expected.filter((e) => reached.has(e.path)).length / expected.length;
          expect(recallOfPieces(expected, a)).toBe(oracle);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('summarizeBudgetRecall', () => {
  it('means each answer over the queries with entries and pairs passages − whole chunks', () => {
    const q = (passages: number[], chunks: number[]): QueryBudgetRecall => ({
      passages: passages.map((recall) => ({ recall, tokens: 90 })),
      wholeChunks: chunks.map((recall) => ({ recall, tokens: 100 })),
    });
    const perQuery = [
      { expected: [entry('a.md')], budget: q([1, 1], [0, 1]) },
      { expected: [entry('b.md')], budget: q([1, 1], [1, 1]) },
      { expected: [entry('c.md')], budget: q([0.5, 1], [0, 0.5]) },
      // A query without entries (a negative) does not count.
      { expected: [], budget: q([0, 0], [1, 1]) },
    ];
    const [first, second] = summarizeBudgetRecall([500, 1000], perQuery);
    expect(first!.maxTokens).toBe(500);
    expect(first!.passages.recall).toBeCloseTo(2.5 / 3, 12);
    expect(first!.wholeChunks.recall).toBeCloseTo(1 / 3, 12);
    expect(first!.passages.meanTokens).toBe(90);
    expect(first!.wholeChunks.meanTokens).toBe(100);
    expect(first!.difference).toEqual(comparePaired([1, 0, 0.5]));
    expect(first!.difference.n).toBe(3);
    expect(second!.difference.meanDiff).toBeCloseTo(0.5 / 3, 12);
  });
});
