// Passages within a token budget: segments cut at sentence and line boundaries (English and Japanese), the
// per-script token estimate, and the selection's rules checked by hand and against a naive oracle.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeForQuote } from '../../src/core/quote-text.js';
import { type PassageHit, selectBudgetPassages } from '../../src/rank/budget-passages.js';
import { computeMatchSpans } from '../../src/rank/match-spans.js';
import { splitSegments } from '../../src/rank/passage-segments.js';
import { estimateTokens, prefixWithinTokens } from '../../src/rank/token-estimate.js';

const texts = (text: string, max?: number) => splitSegments(text, max).map((s) => text.slice(s.start, s.end));

/** A hit whose spans are computed for `terms`, as search computes them. */
function hit(content: string, terms: string[], firstLine: number | null = null): PassageHit {
  return { content, matchSpans: computeMatchSpans(content, terms), firstLine };
}

/** One token per character: budgets in tests read as character counts. */
const perChar = (text: string) => [...text].length;

describe('splitSegments', () => {
  it('cuts English after sentence punctuation followed by a space, and at line breaks', () => {
    expect(texts('One fish. Two fish! Red fish?\nBlue fish 3.5 kg')).toEqual([
      'One fish. ',
      'Two fish! ',
      'Red fish?',
      '\n',
      'Blue fish 3.5 kg',
    ]);
  });

  it('cuts Japanese after 。！？ with the closing brackets that follow them', () => {
    expect(texts('梅雨は雨季の一種である。「本当？」と聞いた。北海道には梅雨がない')).toEqual([
      '梅雨は雨季の一種である。',
      '「本当？」',
      'と聞いた。',
      '北海道には梅雨がない',
    ]);
  });

  it('covers the text exactly and cuts an over-long sentence at a space before the cap', () => {
    const long = `${'word '.repeat(30)}end.`;
    const parts = texts(long, 40);
    expect(parts.join('')).toBe(long);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(40);
    expect(parts[0]!.endsWith(' ')).toBe(true);
  });
});

describe('estimateTokens', () => {
  it('counts unspaced-script characters one each and other text at four characters a token', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('梅雨')).toBe(2);
    expect(estimateTokens('梅雨 rain')).toBe(2 + Math.ceil(5 / 4));
    expect(estimateTokens('한국어')).toBe(3);
  });

  it('prefixWithinTokens keeps the longest prefix within the count, never half a surrogate pair', () => {
    expect(prefixWithinTokens('abcdefgh', 1, estimateTokens)).toBe('abcd');
    expect(prefixWithinTokens('梅雨前線', 3, estimateTokens)).toBe('梅雨前');
    expect(prefixWithinTokens('a😀b', 2, (t) => t.length)).toBe('a');
    expect(prefixWithinTokens('short', 100, estimateTokens)).toBe('short');
  });
});

describe('selectBudgetPassages', () => {
  it('answers with the matched sentence, its lines, and the tokens it costs', () => {
    const content = 'Intro line.\nThe alpha engine runs hot.\nUnrelated closing line.';
    const { passages, tokensUsed } = selectBudgetPassages([hit(content, ['alpha'], 10)], {
      maxTokens: 200,
      count: perChar,
    });
    expect(passages).toEqual([
      expect.objectContaining({ hit: 0, text: 'The alpha engine runs hot.', lineStart: 11, lineEnd: 11 }),
    ]);
    expect(tokensUsed).toBe('The alpha engine runs hot.'.length);
  });

  it('prefers the sentence holding the rarer term and widens by `context` segments', () => {
    const content = 'The cat sat. The cat ate. The zebra cat ran. The cat slept.';
    const h = hit(content, ['cat', 'zebra']);
    const [best] = selectBudgetPassages([h], { maxTokens: 1000, count: perChar, perHit: 1 }).passages;
    expect(best!.text).toBe('The zebra cat ran.');
    const [wide] = selectBudgetPassages([h], {
      maxTokens: 1000,
      count: perChar,
      perHit: 1,
      context: 1,
    }).passages;
    expect(wide!.text).toBe('The cat ate. The zebra cat ran. The cat slept.');
  });

  it('a hit without matches offers its opening sentence', () => {
    const { passages } = selectBudgetPassages([hit('First words here. Second one.', [])], {
      maxTokens: 100,
      count: perChar,
    });
    expect(passages.map((p) => p.text)).toEqual(['First words here.']);
  });

  it('takes each hit in rank order in the first round, then returns passages by hit rank', () => {
    const a = hit('Alpha one. Filler. Alpha two.', ['alpha']);
    const b = hit('Alpha three.', ['alpha']);
    // Budget for three short passages: a's first, b's first, then a's second.
    const { passages } = selectBudgetPassages([a, b], { maxTokens: 40, count: perChar });
    expect(passages.map((p) => [p.hit, p.text])).toEqual([
      [0, 'Alpha one.'],
      [0, 'Alpha two.'],
      [1, 'Alpha three.'],
    ]);
    const tight = selectBudgetPassages([a, b], { maxTokens: 25, count: perChar }).passages;
    expect(tight.map((p) => p.text)).toEqual(['Alpha one.', 'Alpha three.']);
  });

  it('keeps identical text from two hits once (whitespace and case ignored)', () => {
    const a = hit('Shared alpha sentence.', ['alpha']);
    const b = hit('shared   ALPHA sentence.', ['alpha']);
    const { passages } = selectBudgetPassages([a, b], { maxTokens: 500, count: perChar });
    expect(passages.map((p) => p.hit)).toEqual([0]);
  });

  it('cuts the first passage to the budget when nothing fits whole', () => {
    const { passages, tokensUsed } = selectBudgetPassages(
      [hit('Alpha is a very long sentence.', ['alpha'])],
      {
        maxTokens: 8,
        count: perChar,
      },
    );
    expect(passages.map((p) => p.text)).toEqual(['Alpha is']);
    expect(tokensUsed).toBe(8);
  });

  it('never exceeds the budget, never repeats a passage, and returns text of its hit in hit order', () => {
    const sentence = fc.constantFrom(
      'Alpha beta.',
      'Gamma alpha delta!',
      '梅雨は雨季である。',
      'Nothing here.',
      'beta beta beta?',
      '\n',
    );
    const content = fc.array(sentence, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(' '));
    fc.assert(
      fc.property(
        fc.array(content, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 120 }),
        (contents, max) => {
          const hits = contents.map((c) => hit(c, ['alpha', 'beta', '梅雨']));
          const { passages, tokensUsed } = selectBudgetPassages(hits, {
            maxTokens: max,
            count: estimateTokens,
          });
          expect(tokensUsed).toBeLessThanOrEqual(max);
          expect(tokensUsed).toBe(passages.reduce((sum, p) => sum + estimateTokens(p.text), 0));
          const keys = passages.map((p) => normalizeForQuote(p.text));
          expect(new Set(keys).size).toBe(keys.length);
          for (const p of passages) {
            expect(hits[p.hit]!.content.slice(p.start, p.end)).toBe(p.text);
            expect(p.text.trim()).toBe(p.text);
          }
          // Passages come back ordered by hit, and within a hit no two overlap.
          for (let i = 1; i < passages.length; i++) {
            const [prev, cur] = [passages[i - 1]!, passages[i]!];
            expect(cur.hit).toBeGreaterThanOrEqual(prev.hit);
            if (cur.hit === prev.hit) expect(cur.start >= prev.end || cur.end <= prev.start).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('selectBudgetPassages and Markdown', () => {
  it('never offers a heading line alone: a match only in a heading falls back to the opening sentence', () => {
    const content = '# Tsuyu\n\nTsuyu season brings rain. Other words here.\n\n## Tsuyu again';
    const { passages } = selectBudgetPassages([hit(content, ['tsuyu'])], { maxTokens: 500, count: perChar });
    expect(passages.map((p) => p.text)).toEqual(['Tsuyu season brings rain.']);
    const onlyHeading = selectBudgetPassages([hit('# Alpha\n\nNo match below.', ['alpha'])], {
      maxTokens: 500,
      count: perChar,
    });
    expect(onlyHeading.passages.map((p) => p.text)).toEqual(['No match below.']);
  });
});
