// Folding keeps one hit per section (or document) in rank order, counts what it folded, and refills the list.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FoldMode, type FoldPlace, foldKey, foldRanked } from '../../src/rank/fold-hits.js';

interface Hit extends FoldPlace {
  id: number;
}

const hit = (id: number, documentId: number, heading: string | null, breadcrumb = `Doc ${documentId}`) => ({
  id,
  documentId,
  heading,
  breadcrumb: heading === null ? breadcrumb : `${breadcrumb} > ${heading}`,
});

const fold = (hits: readonly Hit[], mode: FoldMode, limit: number) =>
  foldRanked(hits, (h) => foldKey(mode, h), limit).map(({ entry, folded }) => [entry.id, folded]);

describe('foldRanked', () => {
  // A split section (doc 1, "Setup") takes ranks 1, 2 and 4; doc 1 has a second section; doc 2 one.
  const ranked: Hit[] = [
    hit(10, 1, 'Setup'),
    hit(11, 1, 'Setup'),
    hit(20, 2, 'Intro'),
    hit(12, 1, 'Setup'),
    hit(13, 1, 'Usage'),
    hit(30, 3, null),
    hit(40, 4, null),
  ];

  it('folds later hits of a section into its first, keeps the order and refills up to the limit', () => {
    expect(fold(ranked, 'section', 3)).toEqual([
      [10, 2],
      [20, 0],
      [13, 0],
    ]);
  });

  it('counts only the folded hits ranked above the last kept one once the list is full', () => {
    expect(fold(ranked, 'section', 2)).toEqual([
      [10, 1],
      [20, 0],
    ]);
  });

  it('folds every later hit of a document under document', () => {
    expect(fold(ranked, 'document', 4)).toEqual([
      [10, 3],
      [20, 0],
      [30, 0],
      [40, 0],
    ]);
  });

  it('returns fewer than the limit only when the candidates run out, and leaves none untouched', () => {
    expect(fold(ranked, 'section', 10)).toEqual([
      [10, 2],
      [20, 0],
      [13, 0],
      [30, 0],
      [40, 0],
    ]);
    expect(fold(ranked, 'none', 3)).toEqual([
      [10, 0],
      [11, 0],
      [20, 0],
    ]);
  });

  it('tells apart sections with the same heading under different parents', () => {
    const sameHeading = [hit(1, 1, 'Example', 'Doc > Install'), hit(2, 1, 'Example', 'Doc > Upgrade')];
    expect(fold(sameHeading, 'section', 5)).toEqual([
      [1, 0],
      [2, 0],
    ]);
  });

  it('keeps a hit whose place is unknown, folding nothing into it', () => {
    const keys = [null, null, 'a', 'a'];
    const kept = foldRanked([0, 1, 2, 3], (i) => keys[i]!, 5);
    expect(kept.map((k) => [k.entry, k.folded])).toEqual([
      [0, 0],
      [1, 0],
      [2, 1],
    ]);
    expect(foldKey('section', null)).toBeNull();
  });
});

describe('folding, for any ranking', () => {
  const candidates = fc
    .array(
      fc.record({
        documentId: fc.integer({ min: 1, max: 5 }),
        heading: fc.constantFrom(null, 'A', 'B', 'C'),
      }),
      { maxLength: 40 },
    )
    .map((places) => places.map((p, id) => hit(id, p.documentId, p.heading)));
  const modes = fc.constantFrom<FoldMode>('section', 'document');

  it('never returns two hits of one fold key, keeps rank order, and fills the limit when the candidates can', () => {
    fc.assert(
      fc.property(candidates, modes, fc.integer({ min: 1, max: 12 }), (hits, mode, limit) => {
        const kept = foldRanked(hits, (h) => foldKey(mode, h), limit);
        const keys = kept.map(({ entry }) => foldKey(mode, entry));
        expect(new Set(keys).size).toBe(keys.length);
        const ids = kept.map(({ entry }) => entry.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        const distinct = new Set(hits.map((h) => foldKey(mode, h))).size;
        expect(kept.length).toBe(Math.min(limit, distinct));
        // Candidates are looked at until the list is full, or all of them.
        const full = kept.length === limit;
        const scanned = full ? hits.findIndex((h) => h.id === ids[ids.length - 1]) + 1 : hits.length;
        expect(kept.reduce((sum, k) => sum + k.folded + 1, 0)).toBe(scanned);
      }),
    );
  });

  it('never drops a document entirely: each document ranked above the last kept hit keeps one', () => {
    fc.assert(
      fc.property(candidates, modes, fc.integer({ min: 1, max: 12 }), (hits, mode, limit) => {
        const kept = foldRanked(hits, (h) => foldKey(mode, h), limit);
        if (kept.length === 0) return;
        const last = hits.findIndex((h) => h.id === kept[kept.length - 1]!.entry.id);
        const keptDocuments = new Set(kept.map(({ entry }) => entry.documentId));
        for (const h of hits.slice(0, last + 1)) expect(keptDocuments.has(h.documentId)).toBe(true);
        // Every document of the unfolded list (the first `limit` candidates) is still shown.
        for (const h of hits.slice(0, limit)) expect(keptDocuments.has(h.documentId)).toBe(true);
      }),
    );
  });
});
