import { describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import { prepareInputs, truncateToChars } from '../../src/models/input-text.js';
import { poolHiddenStates } from '../../src/models/pool-hidden-states.js';
import {
  type PaddedBatch,
  padTokenBatch,
  planTokenBatches,
  runInTokenBatches,
  truncateTokens,
} from '../../src/models/token-batches.js';
import { normalizeInPlace, validateVectors } from '../../src/models/validate-vectors.js';

describe('input text', () => {
  it('truncates without splitting a surrogate pair and adds the prefix', () => {
    expect(truncateToChars('abcdef', 3)).toBe('abc');
    expect(truncateToChars('ab😀cd', 3)).toBe('ab');
    expect(prepareInputs(['hello world'], 'query: ', 5)).toEqual(['query: hello']);
  });
});

describe('token batches', () => {
  it('truncates token ids but keeps the closing special token', () => {
    expect(truncateTokens({ inputIds: [2, 10, 11, 12, 3], tokenTypeIds: null }, 4).inputIds).toEqual([
      2, 10, 11, 3,
    ]);
    const pair = truncateTokens({ inputIds: [2, 9, 3, 10, 11, 3], tokenTypeIds: [0, 0, 0, 1, 1, 1] }, 5);
    expect(pair).toEqual({ inputIds: [2, 9, 3, 10, 3], tokenTypeIds: [0, 0, 0, 1, 1] });
    expect(truncateTokens({ inputIds: [2, 3], tokenTypeIds: null }, 4).inputIds).toEqual([2, 3]);
  });

  it('plans longest-first batches under an item cap and a padded-token budget', () => {
    const lengths = [5, 100, 20, 100, 7, 60];
    const batches = planTokenBatches(lengths, { maxItems: 3, maxTokens: 200 });
    expect(batches).toEqual([[1, 3], [5, 2, 4], [0]]);
    expect(batches.flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const b of batches) {
      const widest = Math.max(...b.map((i) => lengths[i] as number));
      expect(b.length * widest <= 200 || b.length === 1).toBe(true);
    }
    // A single text longer than the budget still gets a batch of its own.
    expect(planTokenBatches([500, 10], { maxItems: 8, maxTokens: 100 })).toEqual([[0], [1]]);
  });

  it('pads ids with the pad id and masks padding out', () => {
    const batch = padTokenBatch(
      [
        { inputIds: [2, 7, 3], tokenTypeIds: null },
        { inputIds: [2, 3], tokenTypeIds: null },
      ],
      1,
    );
    expect(batch.dims).toEqual([2, 3]);
    expect([...batch.inputIds]).toEqual([2n, 7n, 3n, 2n, 3n, 1n]);
    expect([...batch.attentionMask]).toEqual([1n, 1n, 1n, 1n, 1n, 0n]);
    expect(batch.tokenTypeIds).toBeNull();
  });
  it('runs the planned batches padded and answers each row in the order of the rows', async () => {
    const rows = [5, 100, 20, 100, 7, 60].map((length, i) => ({
      inputIds: Array.from({ length }, () => i + 10),
      tokenTypeIds: null,
    }));
    const seen: PaddedBatch['dims'][] = [];
    const results = await runInTokenBatches(
      rows,
      { maxItems: 3, maxTokens: 200, padId: 0 },
      async (batch) => {
        seen.push(batch.dims);
        const [count, width] = batch.dims;
        return Array.from({ length: count }, (_, r) => Number(batch.inputIds[r * width]));
      },
    );
    expect(seen).toEqual([
      [2, 100],
      [3, 60],
      [1, 5],
    ]);
    expect(results).toEqual([10, 11, 12, 13, 14, 15]);
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
