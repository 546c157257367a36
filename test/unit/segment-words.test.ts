import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEGMENT_PIECE_MAX_CHARS, segmentForIndex, segmentQueryWords } from '../../src/rank/segment-words.js';

describe('segmentForIndex', () => {
  it('splits Japanese into words separated by single spaces', () => {
    expect(segmentForIndex('東京都の売上報告書とパスワード再設定の手順')).toBe(
      '東京 都 の 売上 報告書 と パスワード 再 設定 の 手順',
    );
  });

  it('drops punctuation and whitespace and keeps Latin words as they are', () => {
    expect(segmentForIndex('Hello,  world!\n\tCafé — naïve.')).toBe('Hello world Café naïve');
  });

  it('returns an empty string for text without words', () => {
    expect(segmentForIndex('')).toBe('');
    expect(segmentForIndex(' 。、!?—\n')).toBe('');
  });

  it('keeps every word of text longer than one segmenter piece, without merging across cuts', () => {
    const sentence = 'alpha beta gamma delta ';
    const text = sentence.repeat(Math.ceil((SEGMENT_PIECE_MAX_CHARS * 3) / sentence.length));
    const words = segmentForIndex(text).split(' ');
    expect(words.length).toBe(text.trim().split(/\s+/).length);
    expect(new Set(words)).toEqual(new Set(['alpha', 'beta', 'gamma', 'delta']));
  });

  it('cuts long unspaced Japanese at punctuation and keeps the words intact', () => {
    const sentence = '日本で梅雨がないのは北海道です。';
    const text = sentence.repeat(Math.ceil((SEGMENT_PIECE_MAX_CHARS * 2.5) / sentence.length));
    const words = segmentForIndex(text).split(' ');
    const once = segmentForIndex(sentence).split(' ');
    expect(words.length).toBe(once.length * (text.length / sentence.length));
  });

  it('never splits a surrogate pair at a hard cut', () => {
    const text = '𠮷'.repeat(SEGMENT_PIECE_MAX_CHARS * 2);
    const joined = segmentForIndex(text).replaceAll(' ', '');
    expect(joined).toBe(text);
  });
});

describe('segmentQueryWords', () => {
  it('returns word-like segments in order', () => {
    expect(segmentQueryWords('日本で梅雨がないのは北海道とどこか。')).toEqual([
      '日本',
      'で',
      '梅雨',
      'が',
      'ない',
      'の',
      'は',
      '北海道',
      'と',
      'どこか',
    ]);
    expect(segmentQueryWords('What is sqlite-vec?')).toEqual(['What', 'is', 'sqlite', 'vec']);
  });

  it('splits Latin text where unicode61 would, with or without Japanese around it', () => {
    expect(segmentQueryWords("don't use foo_bar v3.14 x²")).toEqual([
      'don',
      't',
      'use',
      'foo',
      'bar',
      'v3',
      '14',
      'x²',
    ]);
    expect(segmentQueryWords('バージョン3.14のfoo_barとx²')).toEqual([
      'バージョン',
      '3',
      '14',
      'の',
      'foo',
      'bar',
      'と',
      'x²',
    ]);
  });

  it('segments Thai, which has no spaces between words either', () => {
    expect(segmentQueryWords('สวัสดีครับ').length).toBeGreaterThan(1);
  });
});

describe('segmentation invariants', () => {
  const alphabet = fc.constantFrom(...[...'ab Zé1.-_\n東京のデータ。、x²𠮷'], '  ');
  const text = fc.array(alphabet, { maxLength: 1200 }).map((chars) => chars.join(''));

  it('emits non-empty words, in order, each taken from the text', () => {
    fc.assert(
      fc.property(text, (input) => {
        const words = segmentQueryWords(input);
        let from = 0;
        for (const word of words) {
          expect(word).not.toMatch(/\s/);
          const at = input.indexOf(word, from);
          expect(at).toBeGreaterThanOrEqual(from);
          from = at + word.length;
        }
        expect(segmentForIndex(input)).toBe(words.join(' '));
      }),
      { numRuns: 200 },
    );
  });

  it('gives Latin text the same words however it is cut into pieces', () => {
    const latin = fc
      .array(fc.constantFrom(...[...'abc XYZ é1.-_']), { maxLength: 1500 })
      .map((c) => c.join(''));
    fc.assert(
      fc.property(latin, latin, (a, b) => {
        expect(segmentQueryWords(`${a} ${b}`)).toEqual([...segmentQueryWords(a), ...segmentQueryWords(b)]);
      }),
      { numRuns: 200 },
    );
  });
});
