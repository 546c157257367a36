// The cross-encoder's inference batches with a generated ONNX reranker: long pairs go in smaller batches so no
// batch holds more padded tokens than maxBatchTokens, and every score stays with its passage.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModel } from '../../scripts/test-model/write-test-model.js';
import { createReranker } from '../../src/models/create-embedder.js';
import { TransformersReranker } from '../../src/models/transformers-reranker.js';
import { type LoadedModel, loadModelFolder } from '../../src/models/transformers-runtime.js';
import { fillerText } from '../support/long-text.js';

let tmp: string;
let folder: string;
let loaded: LoadedModel;
const shapes: [number, number][] = [];

function reranker(maxBatchTokens: number): TransformersReranker {
  const recording: LoadedModel = {
    ...loaded,
    encode: (texts, pairs) => loaded.encode(texts, pairs),
    run: (batch) => {
      shapes.push(batch.dims);
      return loaded.run(batch);
    },
  };
  return new TransformersReranker(recording, {
    model: folder,
    maxTokens: 512,
    batchSize: 16,
    maxBatchTokens,
    maxInputChars: 100_000,
  });
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-rerank-'));
  // The XLM-R-shaped graph masks padding in attention and pooling (the tiny BERT one averages over padding too).
  folder = writeTestModel({
    kind: 'rerank',
    shape: 'tiny',
    family: 'xlmr',
    outDir: path.join(tmp, 'rerank'),
  }).dir;
  loaded = await loadModelFolder({ folder, task: 'reranker', dtype: 'fp32', threads: 1 });
});
afterAll(async () => {
  await loaded.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const QUERY = 'quarterly revenue report';
/** Twelve passages of 40 to 480 words, shuffled so that long and short ones alternate. */
const PASSAGES = [3, 9, 1, 11, 5, 0, 7, 10, 2, 6, 8, 4].map((n) => fillerText(40 + n * 40));

describe('reranker batches', () => {
  it('hold at most maxBatchTokens padded tokens, unless a single pair is longer', async () => {
    shapes.length = 0;
    await reranker(1024).score(QUERY, PASSAGES);
    expect(shapes.length).toBeGreaterThan(1);
    for (const [pairs, width] of shapes) {
      expect(width).toBeLessThanOrEqual(512);
      if (pairs > 1) expect(pairs * width).toBeLessThanOrEqual(1024);
    }
    expect(shapes.reduce((sum, [pairs]) => sum + pairs, 0)).toBe(PASSAGES.length);
  });

  it('give every passage the score it gets alone', async () => {
    const batched = await reranker(1024).score(QUERY, PASSAGES);
    const alone = reranker(1024);
    for (const [i, passage] of PASSAGES.entries()) {
      const [score] = await alone.score(QUERY, [passage]);
      expect(batched[i]).toBeCloseTo(score as number, 5);
    }
  });

  it('take the budget from the factory (maxBatchTokens)', async () => {
    const opened = await createReranker({
      model: 'none',
      modelDir: folder,
      cacheDir: path.join(tmp, 'cache'),
      offline: true,
      maxBatchTokens: 600,
      threads: 1,
    });
    expect(opened).toBeInstanceOf(TransformersReranker);
    const settings = (opened as unknown as { settings: { maxBatchTokens: number } }).settings;
    expect(settings.maxBatchTokens).toBe(600);
    await opened?.close();
  });
});
