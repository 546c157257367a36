// Inputs longer than the model's token limit, with generated ONNX models: counted, and read whole (windows of
// at most the limit, averaged) instead of losing their tail; the batches the model sees stay within the limit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModel } from '../../scripts/test-model/write-test-model.js';
import { createEmbedder } from '../../src/models/create-embedder.js';
import type { PaddedBatch } from '../../src/models/token-batches.js';
import { TransformersEmbedder } from '../../src/models/transformers-embedder.js';
import { type LoadedModel, loadModelFolder } from '../../src/models/transformers-runtime.js';
import type { Embedder, InputFitTally } from '../../src/types.js';
import { fillerText, TAIL_A, TAIL_B } from '../support/long-text.js';
import { ensureTinyModel } from '../support/test-models.js';

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-long-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('long passages through the inference thread', () => {
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = (await createEmbedder({
      provider: 'transformers',
      model: null,
      modelDir: ensureTinyModel('embed'),
      cacheDir: path.join(tmp, 'cache'),
      offline: true,
      timeoutSeconds: 60,
      maxRetries: 0,
      batchSize: 8,
      maxInputChars: 5000,
      threads: 1,
    })) as Embedder;
  });
  afterAll(() => embedder.close());

  it('counts inputs over the token limit and inputs cut at the character cap', async () => {
    const fit: InputFitTally = { overLimit: 0, truncated: 0 };
    const over = fillerText(600); // ≈ 3,900 characters, 602 tokens
    const capped = fillerText(900); // ≈ 5,800 characters: cut at 5,000
    expect(over.length).toBeLessThan(5000);
    expect(capped.length).toBeGreaterThan(5000);
    await embedder.embedDocuments(['a short note', over, fillerText(400), capped], fit);
    expect(fit).toEqual({ overLimit: 2, truncated: 1 });
    await embedder.embedDocuments([over], fit);
    expect(fit).toEqual({ overLimit: 3, truncated: 1 });
  });

  it('represents the tail of a long passage: a query for the tail finds its own passage', async () => {
    const head = fillerText(600);
    const [a, b] = await embedder.embedDocuments([`${head} ${TAIL_A}`, `${head} ${TAIL_B}`]);
    // Cut at the limit, both would be the same head and get the same vector.
    expect(Array.from(a!)).not.toEqual(Array.from(b!));
    const queryA = await embedder.embedQuery(TAIL_A);
    const queryB = await embedder.embedQuery(TAIL_B);
    expect(cosine(queryA, a!)).toBeGreaterThan(cosine(queryA, b!));
    expect(cosine(queryB, b!)).toBeGreaterThan(cosine(queryB, a!));
  });
});

describe('the windows the model sees', () => {
  let loaded: LoadedModel;
  const batches: PaddedBatch[] = [];
  let embedder: TransformersEmbedder;
  beforeAll(async () => {
    const folder = writeTestModel({ kind: 'embed', shape: 'tiny', outDir: path.join(tmp, 'tiny') }).dir;
    loaded = await loadModelFolder({ folder, task: 'embedding', dtype: 'fp32', threads: 1 });
    const recording: LoadedModel = {
      ...loaded,
      encode: (texts, pairs) => loaded.encode(texts, pairs),
      run: (batch) => {
        batches.push(batch);
        return loaded.run(batch);
      },
    };
    embedder = new TransformersEmbedder(recording, {
      model: folder,
      dimension: 32,
      setup: { pooling: 'mean', queryPrefix: 'query: ', passagePrefix: 'passage: ', source: 'test' },
      maxTokens: 128,
      batchSize: 16,
      maxBatchTokens: 512,
      maxInputChars: 100_000,
    });
  });
  afterAll(() => loaded.dispose());

  it('are at most maxTokens long, each starts with the passage prefix, and batches keep the token budget', async () => {
    batches.length = 0;
    const text = fillerText(1000);
    const fit: InputFitTally = { overLimit: 0, truncated: 0 };
    const [vector] = await embedder.embedDocuments([text, 'a short note'], fit);
    expect(fit).toEqual({ overLimit: 1, truncated: 0 });
    expect(vector).toHaveLength(32);
    const [prefixed] = loaded.encode(['passage: ']);
    const lead = (prefixed?.inputIds.length ?? 0) - 1;
    const [whole] = loaded.encode([`passage: ${text}`]);
    const bodyTokens = (whole?.inputIds.length ?? 0) - lead - 1;
    let rows = 0;
    let readBodyTokens = 0;
    for (const batch of batches) {
      const [count, width] = batch.dims;
      expect(width).toBeLessThanOrEqual(128);
      expect(count * width).toBeLessThanOrEqual(512);
      for (let r = 0; r < count; r++) {
        const row = Array.from(batch.inputIds.slice(r * width, (r + 1) * width), Number);
        const length = Array.from(batch.attentionMask.slice(r * width, (r + 1) * width)).filter(
          (m) => m === 1n,
        ).length;
        expect(row.slice(0, lead)).toEqual(prefixed?.inputIds.slice(0, lead));
        if (length > 20) readBodyTokens += length - lead - 1;
        rows++;
      }
    }
    expect(rows).toBe(Math.ceil(bodyTokens / (128 - lead - 1)) + 1);
    expect(readBodyTokens).toBe(bodyTokens);
  });
});
