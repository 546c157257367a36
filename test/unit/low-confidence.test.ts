import { describe, expect, it } from 'vitest';
import { isLowConfidence } from '../../src/rank/low-confidence.js';

describe('isLowConfidence', () => {
  it('is true when the top score does not stand out from the mean', () => {
    expect(isLowConfidence([1.0, 0.9, 0.8], 1.5)).toBe(true);
  });

  it('is false when the top score is at least ratio × mean', () => {
    expect(isLowConfidence([3, 0.5, 0.5], 1.5)).toBe(false);
    // max / mean exactly equal to the ratio is not "below" it.
    expect(isLowConfidence([3, 1], 1.5)).toBe(false);
  });

  it('needs at least two results, a non-zero ratio and a positive mean', () => {
    expect(isLowConfidence([1], 1.5)).toBe(false);
    expect(isLowConfidence([], 1.5)).toBe(false);
    expect(isLowConfidence([1, 1], 0)).toBe(false);
    expect(isLowConfidence([-1, -2, -3], 1.5)).toBe(false);
    expect(isLowConfidence([1, -1], 1.5)).toBe(false);
  });

  it('is false for non-finite input', () => {
    expect(isLowConfidence([1, Number.NaN], 1.5)).toBe(false);
    expect(isLowConfidence([1, 1], Number.POSITIVE_INFINITY)).toBe(false);
  });
});
