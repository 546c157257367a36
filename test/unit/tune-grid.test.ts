// The tune grid: 384 conditions, index round trips, the default, the centre distance, and depth normalisation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BM25_WEIGHT_VALUES,
  CONDITION_COUNT,
  CONTENT_HEAVY_WEIGHT_SET,
  centreDistance,
  conditionIndexOf,
  conditionValues,
  DEFAULT_CONDITION,
  HEADING_HEAVY_WEIGHT_SET,
  normalizeTuneDepth,
  positionOf,
  RRF_K_VALUES,
  WEIGHT_SET_COUNT,
  weightSetValues,
} from '../../src/measure/tune-grid.js';

describe('tune grid', () => {
  it('has 6 k values x 4^3 weight sets = 384 distinct conditions', () => {
    expect(RRF_K_VALUES).toEqual([5, 10, 20, 30, 60, 100]);
    expect(BM25_WEIGHT_VALUES).toEqual([0.5, 1, 2, 4]);
    expect(WEIGHT_SET_COUNT).toBe(64);
    expect(CONDITION_COUNT).toBe(384);
    const seen = new Set(
      Array.from({ length: CONDITION_COUNT }, (_, c) => JSON.stringify(conditionValues(c))),
    );
    expect(seen.size).toBe(384);
  });

  it('maps every index to a position and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: CONDITION_COUNT - 1 }), (c) => {
        expect(conditionIndexOf(positionOf(c))).toBe(c);
      }),
    );
  });

  it('puts the built-in default at heading 2.0, context 1.0, content 1.0, rrf_k 60', () => {
    expect(conditionValues(DEFAULT_CONDITION)).toEqual({
      rrfK: 60,
      bm25HeadingWeight: 2,
      bm25ContextWeight: 1,
      bm25ContentWeight: 1,
    });
  });

  it('measures L1 distance to the centre in index space (1.5 per weight axis, 2.5 on k)', () => {
    // Default: k index 4 (1.5 away), heading 2 (0.5), context 1 (0.5), content 1 (0.5).
    expect(centreDistance(DEFAULT_CONDITION)).toBe(3);
    expect(centreDistance(conditionIndexOf({ k: 0, heading: 0, context: 0, content: 0 }))).toBe(7);
    expect(centreDistance(conditionIndexOf({ k: 2, heading: 1, context: 2, content: 1 }))).toBe(2);
  });

  it('names the heading-heavy and content-heavy extremes bm25_sensitive compares', () => {
    expect(weightSetValues(HEADING_HEAVY_WEIGHT_SET)).toEqual({ heading: 4, context: 1, content: 0.5 });
    expect(weightSetValues(CONTENT_HEAVY_WEIGHT_SET)).toEqual({ heading: 0.5, context: 1, content: 4 });
  });
});

describe('normalizeTuneDepth', () => {
  it('always adds k = 5, sorts, deduplicates, and raises the limit to the largest k', () => {
    expect(normalizeTuneDepth({ kValues: [10, 1, 10] })).toEqual({
      kValues: [1, 5, 10],
      limit: 10,
      candidatePool: 50,
    });
    expect(normalizeTuneDepth({ kValues: [3], limit: 2 })).toEqual({
      kValues: [3, 5],
      limit: 5,
      candidatePool: 50,
    });
    // The pool is a floor (50), not a cap.
    expect(normalizeTuneDepth({ kValues: [1], limit: 40 }).candidatePool).toBe(200);
  });

  it('rejects a k or limit of 0 or above 10000 as an invalid argument', () => {
    expect(() => normalizeTuneDepth({ kValues: [0] })).toThrow(/positive integers, got "0"/);
    expect(() => normalizeTuneDepth({ kValues: [5], limit: 20_000 })).toThrow(/"20000" is above 10000/);
    expect(() => normalizeTuneDepth({ kValues: [10_001] })).toThrow(/above 10000/);
    expect(normalizeTuneDepth({ kValues: [10_000] }).limit).toBe(10_000);
  });
});
