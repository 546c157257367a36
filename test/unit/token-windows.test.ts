import { describe, expect, it } from 'vitest';
import { averageUnitVectors, frameOf, windowTokens } from '../../src/models/token-windows.js';

const CLS = 101;
const SEP = 102;
/** `[CLS] p1 p2 body… [SEP]` with `body` tokens 1000, 1001, … */
function input(bodyLength: number, prefix: number[] = []): number[] {
  return [CLS, ...prefix, ...Array.from({ length: bodyLength }, (_, i) => 1000 + i), SEP];
}

describe('frameOf', () => {
  it('takes the leading special token and the prefix, and the closing special token', () => {
    expect(frameOf(input(10, [7, 8]), [CLS, 7, 8, SEP])).toEqual({ lead: 3, trail: 1 });
    expect(frameOf(input(10), [CLS, SEP])).toEqual({ lead: 1, trail: 1 });
  });

  it('stops the lead where the prefix is tokenized differently inside the text', () => {
    // The prefix alone ends in a lone space token (9) that joins the first word inside the text.
    expect(frameOf(input(10, [7, 8]), [CLS, 7, 8, 9, SEP])).toEqual({ lead: 3, trail: 1 });
  });

  it('repeats nothing for a tokenizer that adds no special tokens', () => {
    expect(frameOf([5, 6, 7], [])).toEqual({ lead: 0, trail: 0 });
  });
});

describe('windowTokens', () => {
  it('leaves an input that fits as it is', () => {
    const text = { inputIds: input(10), tokenTypeIds: null };
    expect(windowTokens(text, { lead: 1, trail: 1 }, 12)).toEqual([text]);
  });

  it('covers every body token exactly once, in order, in windows of equal length, each framed', () => {
    const ids = input(1000, [7, 8]);
    const windows = windowTokens({ inputIds: ids, tokenTypeIds: null }, { lead: 3, trail: 1 }, 512);
    expect(windows).toHaveLength(2);
    for (const window of windows) {
      expect(window.inputIds.length).toBeLessThanOrEqual(512);
      expect(window.inputIds.slice(0, 3)).toEqual([CLS, 7, 8]);
      expect(window.inputIds.at(-1)).toBe(SEP);
    }
    expect(windows.map((w) => w.inputIds.length)).toEqual([504, 504]);
    const bodies = windows.flatMap((w) => w.inputIds.slice(3, -1));
    expect(bodies).toEqual(ids.slice(3, -1));
  });

  it('uses the fewest windows that fit', () => {
    const fits = (body: number) =>
      windowTokens({ inputIds: input(body), tokenTypeIds: null }, { lead: 1, trail: 1 }, 512).length;
    expect(fits(510)).toBe(1);
    expect(fits(511)).toBe(2);
    expect(fits(1020)).toBe(2);
    expect(fits(1021)).toBe(3);
  });

  it('slices segment ids along with the token ids', () => {
    const ids = input(20);
    const types = ids.map(() => 0);
    const windows = windowTokens({ inputIds: ids, tokenTypeIds: types }, { lead: 1, trail: 1 }, 12);
    for (const window of windows) expect(window.tokenTypeIds).toHaveLength(window.inputIds.length);
  });

  it('drops a frame that leaves no room for text to the leading token', () => {
    const windows = windowTokens(
      { inputIds: input(6, [7, 8, 9]), tokenTypeIds: null },
      { lead: 4, trail: 1 },
      4,
    );
    for (const window of windows) expect(window.inputIds.length).toBeLessThanOrEqual(4);
    expect(windows.flatMap((w) => w.inputIds.slice(1, -1))).toEqual([7, 8, 9, ...input(6).slice(1, -1)]);
  });
});

describe('averageUnitVectors', () => {
  it('is the normalised mean', () => {
    const mean = averageUnitVectors([new Float32Array([1, 0]), new Float32Array([0, 1])]);
    expect(mean[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(mean[1]).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('returns a single vector unchanged', () => {
    const only = new Float32Array([0.6, 0.8]);
    expect(averageUnitVectors([only])).toBe(only);
  });
});
