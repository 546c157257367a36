import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeMatchSpans } from '../../src/rank/match-spans.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function textOf(content: string, span: { start: number; end: number }): string {
  return decoder.decode(encoder.encode(content).subarray(span.start, span.end));
}

/** Case-insensitive equality, one code point at a time (no context-dependent lowering such as final sigma). */
function sameIgnoringCase(a: string, b: string): boolean {
  const fold = (s: string) => [...s].map((ch) => ch.toLowerCase()).join('');
  return fold(a) === fold(b);
}

describe('computeMatchSpans', () => {
  it('returns UTF-8 byte offsets, including for Japanese terms', () => {
    const content = '東京都の売上報告書';
    const spans = computeMatchSpans(content, ['売上']);
    expect(spans).toEqual([{ start: 12, end: 18 }]);
    expect(textOf(content, spans[0]!)).toBe('売上');
  });

  it('matches case-insensitively in every script', () => {
    const content = 'Café CAFÉ café Ωmega ωMEGA';
    const spans = computeMatchSpans(content, ['café', 'ωmega']);
    expect(spans.map((s) => textOf(content, s))).toEqual(['Café', 'CAFÉ', 'café', 'Ωmega', 'ωMEGA']);
  });

  it('merges overlaps but not adjacent spans', () => {
    expect(computeMatchSpans('abcdef', ['abcd', 'cdef'])).toEqual([{ start: 0, end: 6 }]);
    expect(computeMatchSpans('abc-def', ['abc', 'def'])).toEqual([
      { start: 0, end: 3 },
      { start: 4, end: 7 },
    ]);
    expect(computeMatchSpans('東京大阪', ['東京', '大阪'])).toEqual([
      { start: 0, end: 6 },
      { start: 6, end: 12 },
    ]);
  });

  it('gives each term floor(100 / #terms) occurrences in document order, without redistribution', () => {
    const content = 'x '.repeat(150) + 'y';
    const spans = computeMatchSpans(content, ['x', 'y']);
    expect(spans).toHaveLength(51);
    expect(spans[49]).toEqual({ start: 98, end: 99 });
    expect(textOf(content, spans[50]!)).toBe('y');
  });

  it('caps the result at 100 spans and gives each of many terms at least one', () => {
    const terms = Array.from({ length: 150 }, (_, i) => `t${String(i).padStart(3, '0')}`);
    const content = terms.join(' ');
    expect(computeMatchSpans(content, terms)).toHaveLength(100);
  });

  it('skips content over 256 KiB, empty terms and empty content', () => {
    expect(computeMatchSpans('a'.repeat(256 * 1024 + 1), ['a'])).toEqual([]);
    expect(computeMatchSpans('a '.repeat(128 * 1024), ['a'])).toHaveLength(100);
    expect(computeMatchSpans('あ'.repeat(90_000), ['あ'])).toEqual([]); // 270,000 bytes
    expect(computeMatchSpans('abc', [''])).toEqual([]);
    expect(computeMatchSpans('', ['a'])).toEqual([]);
  });

  it('treats regex syntax in terms literally', () => {
    const content = 'call f(x) or a.b* or sqlite-vec';
    const spans = computeMatchSpans(content, ['f(x)', 'a.b*', 'sqlite-vec']);
    expect(spans.map((s) => textOf(content, s))).toEqual(['f(x)', 'a.b*', 'sqlite-vec']);
  });

  it('satisfies the span invariants against a naive oracle in scripts without spaces', () => {
    const alphabet = fc.constantFrom(...[...'東京のアイ 𠮷-.한국']);
    const text = fc.array(alphabet, { maxLength: 60 }).map((chars) => chars.join(''));
    const term = fc.array(alphabet, { minLength: 1, maxLength: 3 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(text, fc.array(term, { minLength: 1, maxLength: 5 }), (content, terms) => {
        const spans = computeMatchSpans(content, terms);
        const bytes = encoder.encode(content);
        const chars = [...content];
        // Every occurrence of every term, overlapping ones included, as byte ranges.
        const occurrences: Array<{ term: number; start: number; end: number }> = [];
        terms.forEach((t, term) => {
          const width = [...t].length;
          for (let i = 0; i + width <= chars.length; i++) {
            const slice = chars.slice(i, i + width).join('');
            if (sameIgnoringCase(slice, t)) {
              const start = encoder.encode(chars.slice(0, i).join('')).length;
              occurrences.push({ term, start, end: start + encoder.encode(slice).length });
            }
          }
        });
        let previousEnd = -1;
        for (const span of spans) {
          expect(span.start).toBeGreaterThanOrEqual(previousEnd); // sorted and disjoint
          expect(span.end).toBeGreaterThan(span.start);
          expect(span.end).toBeLessThanOrEqual(bytes.length);
          previousEnd = span.end;
          // The span's text starts and ends with an occurrence of some term (it is one, or a merge of several).
          const spanText = [...textOf(content, span)];
          const startsWithTerm = terms.some((t) =>
            sameIgnoringCase(spanText.slice(0, [...t].length).join(''), t),
          );
          const endsWithTerm = terms.some((t) =>
            sameIgnoringCase(spanText.slice(-[...t].length).join(''), t),
          );
          expect(startsWithTerm && endsWithTerm).toBe(true);
          // And it is exactly the union of overlapping occurrences inside it.
          const inside = occurrences.filter((o) => o.start >= span.start && o.end <= span.end);
          let covered = span.start;
          for (const o of inside.sort((a, b) => a.start - b.start)) {
            if (o.start <= covered) covered = Math.max(covered, o.end);
          }
          expect(covered).toBe(span.end);
        }
        // The budget is at least 1, so the first occurrence of every term is covered.
        terms.forEach((_, term) => {
          const first = occurrences.filter((o) => o.term === term).sort((a, b) => a.start - b.start)[0];
          if (first)
            expect(spans.some((span) => span.start <= first.start && first.end <= span.end)).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('marks words, not the letters of a query inside them', () => {
    const content =
      'Obsidian typically syncs notes. However, when a conflict appears I resolve it by hand: ' +
      'how you resolve conflicts depends on the sync service.';
    // The terms a search for this query highlights: the trigram phrases, then the word-level words.
    const terms = ['how', 'resolve', 'sync', 'conflict', 'how', 'do', 'I', 'resolve', 'sync', 'conflict'];
    const marked = computeMatchSpans(content, terms).map((span) => textOf(content, span));
    expect(marked).toEqual([
      'syncs',
      'However',
      'conflict',
      'I',
      'resolve',
      'how',
      'resolve',
      'conflicts',
      'sync',
    ]);
  });

  it('marks a 1–2 letter term only as a whole word, and widens a longer one to its word', () => {
    const content = 'An idea: do it, or do not. Undo is a dojo word; Ba-sync and re_sync and résumé.';
    const mark = (terms: string[]) => computeMatchSpans(content, terms).map((span) => textOf(content, span));
    expect(mark(['do'])).toEqual(['do', 'do']);
    expect(mark(['a', 'i'])).toEqual(['a']);
    expect(mark(['sync'])).toEqual(['sync', 'sync']);
    expect(mark(['sum'])).toEqual(['résumé']);
    expect(mark(['dea'])).toEqual(['idea']);
    // Next to a script written without spaces, a Latin term stops where the other script starts.
    expect(computeMatchSpans('このAPIは速い', ['api']).map((span) => textOf('このAPIは速い', span))).toEqual([
      'API',
    ]);
  });

  it('puts every span in space-separated text on word boundaries, with no 1–2 letter term inside a word', () => {
    const isWord = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}\p{M}]/u.test(ch);
    const letter = fc.constantFrom(...[...'aAbBcCéÉσΣ']);
    const word = fc.array(letter, { minLength: 1, maxLength: 7 }).map((chars) => chars.join(''));
    const separator = fc.constantFrom(' ', ' ', ', ', '. ', '-', '_', '\n', "'");
    const text = fc
      .array(fc.tuple(word, separator), { maxLength: 12 })
      .map((pairs) => pairs.map(([w, s]) => w + s).join(''));
    const term = fc.array(letter, { minLength: 1, maxLength: 4 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(text, fc.array(term, { minLength: 1, maxLength: 5 }), (content, terms) => {
        const chars = [...content];
        // Character index of each UTF-8 byte offset that starts a character.
        const charIndexAt = new Map<number, number>();
        let bytes = 0;
        chars.forEach((ch, i) => {
          charIndexAt.set(bytes, i);
          bytes += encoder.encode(ch).length;
        });
        charIndexAt.set(bytes, chars.length);
        const fold = (s: string) => [...s].map((ch) => ch.toLowerCase()).join('');
        const shortTerms = new Set(terms.filter((t) => [...t].length < 3).map(fold));
        const longTerms = terms.filter((t) => [...t].length >= 3).map(fold);
        const marked: string[] = [];
        for (const span of computeMatchSpans(content, terms)) {
          const from = charIndexAt.get(span.start)!;
          const to = charIndexAt.get(span.end)!;
          expect(from).toBeDefined();
          expect(to).toBeDefined();
          // On word boundaries: never between two word characters.
          expect(isWord(chars[from - 1]) && isWord(chars[from])).toBe(false);
          expect(isWord(chars[to - 1]) && isWord(chars[to])).toBe(false);
          // Each word in the span is a short term itself or holds a long term: no letters of a word marked alone.
          const spanText = fold(chars.slice(from, to).join(''));
          for (const w of spanText.split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean)) {
            expect(shortTerms.has(w) || longTerms.some((t) => w.includes(t))).toBe(true);
          }
          marked.push(...spanText.split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean));
        }
        // Nothing missed: the first word that equals a short term or holds a long one is marked.
        const words = fold(content)
          .split(/[^\p{L}\p{N}\p{M}]+/u)
          .filter(Boolean);
        for (const t of shortTerms) if (words.includes(t)) expect(marked).toContain(t);
        for (const t of longTerms) {
          const first = words.find((w) => w.includes(t));
          if (first) expect(marked).toContain(first);
        }
      }),
      { numRuns: 500 },
    );
  });
});
