import { describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import { batchBySimilarLength, prepareInputs, truncateToChars } from '../../src/models/input-text.js';
import { poolHiddenStates } from '../../src/models/pool-hidden-states.js';
import { normalizeInPlace, validateVectors } from '../../src/models/validate-vectors.js';

describe('input text', () => {
  it('truncates without splitting a surrogate pair and adds the prefix', () => {
    expect(truncateToChars('abcdef', 3)).toBe('abc');
    expect(truncateToChars('ab😀cd', 3)).toBe('ab');
    expect(prepareInputs(['hello world'], 'query: ', 5)).toEqual(['query: hello']);
  });

  it('batches every index exactly once, longest texts first', () => {
    const texts = ['a', 'ccc', 'bb', 'dddd', 'e'];
    const batches = batchBySimilarLength(texts, 2);
    expect(batches).toEqual([[3, 1], [2, 0], [4]]);
    expect(batches.flat().sort()).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('pooling', () => {
  // batch 2, tokens 3, hidden 2
  const hidden = [1, 2, 3, 4, 100, 100, 5, 6, 7, 8, 9, 10];
  it('mean-pools only real tokens', () => {
    const mask = [1n, 1n, 0n, 1n, 1n, 1n];
    const [a, b] = poolHiddenStates({ hidden, dims: [2, 3, 2], attentionMask: mask, pooling: 'mean' });
    expect([...(a as Float32Array)]).toEqual([2, 3]);
    expect([...(b as Float32Array)]).toEqual([7, 8]);
  });
  it('takes the first token for cls pooling', () => {
    const [a, b] = poolHiddenStates({
      hidden,
      dims: [2, 3, 2],
      attentionMask: [1, 1, 1, 1, 1, 1],
      pooling: 'cls',
    });
    expect([...(a as Float32Array)]).toEqual([1, 2]);
    expect([...(b as Float32Array)]).toEqual([5, 6]);
  });
});

describe('vector validation', () => {
  const options = { expectedCount: 2, dimension: 2, source: 'test', code: 'ENDPOINT_FAILED' as const };
  it('normalises good vectors to unit length', () => {
    const [a, b] = validateVectors([[3, 4], new Float32Array([0, 2])], options);
    expect([...(a as Float32Array)].map((x) => x.toFixed(3))).toEqual(['0.600', '0.800']);
    expect([...(b as Float32Array)]).toEqual([0, 1]);
  });
  it.each([
    ['count', [[1, 1]], /expected 2 vectors, got 1/],
    [
      'dimension',
      [
        [1, 1],
        [1, 1, 1],
      ],
      /vector 1 has 3 dimensions/,
    ],
    [
      'NaN',
      [
        [1, Number.NaN],
        [1, 1],
      ],
      /non-finite/,
    ],
    [
      'string',
      [
        ['1', 1],
        [1, 1],
      ],
      /non-finite/,
    ],
    [
      'zero',
      [
        [1, 1],
        [0, 0],
      ],
      /vector 1 is all zeros/,
    ],
  ])('refuses a bad %s', (_name, raw, message) => {
    try {
      validateVectors(raw as unknown[][], options);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GrooveError);
      expect((error as GrooveError).code).toBe('ENDPOINT_FAILED');
      expect((error as GrooveError).message).toMatch(message);
    }
  });
  it('reports the original length', () => {
    expect(normalizeInPlace(new Float32Array([3, 4]))).toBeCloseTo(5);
    expect(normalizeInPlace(new Float32Array([0, 0]))).toBe(0);
  });
});
