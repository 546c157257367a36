import { describe, expect, it } from 'vitest';
import { computeJudgedAtK, indexJudgedItems, meanJudgedAtK } from '../../src/measure/eval-judged.js';
import type { RankedHit } from '../../src/measure/eval-metrics.js';

const ranked = (...hits: [string, string | null][]): RankedHit[] =>
  hits.map(([path, heading], i) => ({ rank: i + 1, path, heading, score: 1 }));

describe('judged@k', () => {
  const judged = indexJudgedItems([
    { path: 'a.md', heading: null },
    { path: 'b.md', heading: 'Setup' },
  ]);

  it('is the share of the top k carrying a judgment; a heading judgment covers only its heading', () => {
    const hits = ranked(
      ['a.md', 'Any'],
      ['b.md', 'Other'],
      [' b.md', null],
      ['b.md', ' setup '],
      ['c.md', null],
    );
    expect(computeJudgedAtK(hits, judged, [1, 2, 4, 5])).toEqual({ 1: 1, 2: 0.5, 4: 0.5, 5: 0.4 });
  });

  it('divides by the hits returned when fewer than k, and is null for an empty ranking', () => {
    expect(computeJudgedAtK(ranked(['a.md', null], ['x.md', null]), judged, [10])).toEqual({ 10: 0.5 });
    expect(computeJudgedAtK([], judged, [10])).toBeNull();
    expect(computeJudgedAtK(ranked(['a.md', null]), new Map(), [1])).toEqual({ 1: 0 });
  });

  it('averages over queries that returned something; null when none did', () => {
    expect(meanJudgedAtK([{ 5: 1 }, null, { 5: 0 }], [5])).toEqual({ 5: 0.5 });
    expect(meanJudgedAtK([null], [5])).toBeNull();
  });
});
