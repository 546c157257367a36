// The model shapes the registry uses, generated and loaded through groove's own factory (the inference thread
// included): XLM-R Unigram tokenizers without token_type_ids, CLS and mean pooling checked against raw
// onnxruntime, q8 registry folders, external-data files in each config form, and XLM-R cross-encoders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSizedUnigramVocab } from '../../scripts/test-model/unigram-tokenizer.js';
import {
  EXTERNAL_DATA_FORMS,
  type WriteTestModelOptions,
  writeTestModel,
} from '../../scripts/test-model/write-test-model.js';
import { createEmbedder, createReranker } from '../../src/models/create-embedder.js';
import type { HubSettings } from '../../src/models/hub-settings.js';
import { padTokenBatch } from '../../src/models/token-batches.js';
import { openTransformersEmbedder } from '../../src/models/transformers-embedder.js';
import { loadModelFolder } from '../../src/models/transformers-runtime.js';
import type { Embedder } from '../../src/types.js';
import { pinOfFolder } from '../support/fake-pins.js';

let tmp: string;
const TEXTS = ['How do I reset my password?', 'パスワードを忘れた場合は設定画面から再設定できます', 'a'];

function write(name: string, options: Omit<WriteTestModelOptions, 'outDir'>): string {
  return writeTestModel({ ...options, outDir: path.join(tmp, name) }).dir;
}

function openEmbedder(overrides: {
  modelDir?: string;
  model?: string;
  cacheDir?: string;
  hub?: HubSettings;
}): Promise<Embedder> {
  return createEmbedder({
    provider: 'transformers',
    model: overrides.model ?? null,
    modelDir: overrides.modelDir ?? null,
    cacheDir: overrides.cacheDir ?? path.join(tmp, 'no-cache'),
    offline: true,
    ...(overrides.hub ? { hub: overrides.hub } : {}),
    timeoutSeconds: 60,
    maxRetries: 0,
    batchSize: 2,
    maxInputChars: 8000,
    threads: 1,
  }) as Promise<Embedder>;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}

function expectSameVectors(actual: Float32Array[], expected: Float32Array[]): void {
  expect(actual).toHaveLength(expected.length);
  for (const [i, vector] of actual.entries()) expect(cosine(vector, expected[i]!)).toBeCloseTo(1, 6);
}

/** What the model should give for `text`, computed without groove: the library's tokenizer, raw onnxruntime. */
async function referenceVector(folder: string, onnxFile: string, text: string, pooling: 'mean' | 'cls') {
  const { AutoTokenizer } = await import('@huggingface/transformers');
  const ort = await import('onnxruntime-node');
  const tokenizer = await AutoTokenizer.from_pretrained(folder, { local_files_only: true });
  const ids = tokenizer.encode(text);
  const tensor = (values: number[]) =>
    new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), [1, values.length]);
  const session = await ort.InferenceSession.create(path.join(folder, onnxFile));
  const output = await session.run({ input_ids: tensor(ids), attention_mask: tensor(ids.map(() => 1)) });
  await session.release();
  const hidden = output.last_hidden_state as { data: Float32Array; dims: readonly number[] };
  const width = hidden.dims[2] as number;
  const vector = new Float32Array(width);
  const rows = pooling === 'cls' ? 1 : ids.length;
  for (let t = 0; t < rows; t++) {
    for (let d = 0; d < width; d++)
      vector[d] = (vector[d] as number) + (hidden.data[t * width + d] as number);
  }
  return { vector, ids };
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-model-shapes-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('XLM-R embedders from a local folder', () => {
  let meanDir: string;
  let clsDir: string;
  let mean: Embedder;
  let cls: Embedder;
  beforeAll(async () => {
    // Same seed, so the two folders differ only in their pooling config.
    meanDir = write('xlmr-mean', { kind: 'embed', shape: 'tiny', family: 'xlmr', pooling: 'mean' });
    clsDir = write('xlmr-cls', { kind: 'embed', shape: 'tiny', family: 'xlmr', pooling: 'cls' });
    [mean, cls] = await Promise.all([
      openEmbedder({ modelDir: meanDir }),
      openEmbedder({ modelDir: clsDir }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([mean?.close(), cls?.close()]);
  });

  it('tokenizes with <s> … </s>, pad id 1 and no token_type_ids, for single texts and pairs', async () => {
    const loaded = await loadModelFolder({ folder: meanDir, task: 'embedding', dtype: 'fp32', threads: 1 });
    try {
      expect(loaded.padTokenId).toBe(1);
      const [single] = loaded.encode(['reset password']);
      expect(single?.inputIds[0]).toBe(0);
      expect(single?.inputIds.at(-1)).toBe(2);
      expect(single?.inputIds).not.toContain(3);
      const [pair] = loaded.encode(['reset password'], ['password reset steps']);
      const ids = pair?.inputIds ?? [];
      const firstEnd = ids.indexOf(2);
      expect(ids.slice(firstEnd, firstEnd + 2)).toEqual([2, 2]);
      expect(ids.filter((id) => id === 2)).toHaveLength(3);
      expect(ids.at(-1)).toBe(2);
      // What the runtime feeds is the padded batch: without type ids, the graph gets none.
      expect(padTokenBatch([single!, pair!], loaded.padTokenId).tokenTypeIds).toBeNull();
      expect(pair?.tokenTypeIds).toBeNull();
    } finally {
      await loaded.dispose();
    }
  });

  it('gives unit vectors of the config dimension on the inference thread', async () => {
    expect(mean.dimension).toBe(32);
    for (const vector of await mean.embedDocuments(TEXTS)) {
      expect(vector).toHaveLength(32);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
  });

  it('pools by the mean of real tokens or by <s>, as the folder says, matching raw onnxruntime', async () => {
    for (const text of TEXTS) {
      const [fromMean] = await mean.embedDocuments([text, 'padding makes this batch wider than the text']);
      const [fromCls] = await cls.embedDocuments([text, 'padding makes this batch wider than the text']);
      const meanRef = await referenceVector(meanDir, 'onnx/model.onnx', text, 'mean');
      const clsRef = await referenceVector(clsDir, 'onnx/model.onnx', text, 'cls');
      expect(meanRef.ids).not.toContain(3);
      expect(cosine(fromMean!, meanRef.vector)).toBeCloseTo(1, 5);
      expect(cosine(fromCls!, clsRef.vector)).toBeCloseTo(1, 5);
      expect(cosine(fromMean!, fromCls!)).toBeLessThan(0.999);
    }
  });
});

describe('registry models in the cache, q8', () => {
  it('multilingual-e5-small: an XLM-R folder, mean pooling and the query:/passage: prefixes', async () => {
    const cacheDir = path.join(tmp, 'cache');
    const folder = path.join(cacheDir, 'Xenova', 'multilingual-e5-small');
    write(path.relative(tmp, folder), {
      kind: 'embed',
      shape: 'tiny',
      family: 'xlmr',
      hidden: 384,
      dtype: 'q8',
    });
    const hub = { pins: { 'multilingual-e5-small': pinOfFolder(folder) }, hubCacheDir: null };
    const embedder = await openEmbedder({ model: 'multilingual-e5-small', cacheDir, hub });
    try {
      expect(embedder.dimension).toBe(384);
      const query = await embedder.embedQuery('reset my password');
      expect(Math.hypot(...query)).toBeCloseTo(1, 5);
      const ref = await referenceVector(
        folder,
        'onnx/model_quantized.onnx',
        'query: reset my password',
        'mean',
      );
      expect(cosine(query, ref.vector)).toBeCloseTo(1, 4);
      const [passage] = await embedder.embedDocuments(['reset my password']);
      const passageRef = await referenceVector(
        folder,
        'onnx/model_quantized.onnx',
        'passage: reset my password',
        'mean',
      );
      expect(cosine(passage!, passageRef.vector)).toBeCloseTo(1, 4);
    } finally {
      await embedder.close();
    }
  });

  it('bge-reranker-v2-m3: an XLM-R cross-encoder ranks the passage that shares the query words first', async () => {
    const cacheDir = path.join(tmp, 'cache');
    const folder = path.join(cacheDir, 'onnx-community', 'bge-reranker-v2-m3-ONNX');
    write(path.relative(tmp, folder), { kind: 'rerank', shape: 'tiny', family: 'xlmr', dtype: 'q8' });
    const reranker = (await createReranker({
      model: 'bge-reranker-v2-m3',
      cacheDir,
      offline: true,
      hub: { pins: { 'bge-reranker-v2-m3': pinOfFolder(folder) }, hubCacheDir: null },
      threads: 1,
    }))!;
    try {
      const passages = [
        'Quarterly revenue report',
        'Password recovery: reset the password in settings',
        '東京',
      ];
      const scores = await reranker.score('How do I reset my password?', passages);
      expect(scores).toHaveLength(3);
      for (const s of scores) expect(s > 0 && s < 1).toBe(true);
      expect(scores[1]).toBeGreaterThan(Math.max(scores[0]!, scores[2]!));
    } finally {
      await reranker.close();
    }
  });
});

describe('fp32 weights in an external-data file', () => {
  const inProcess = (modelDir: string) =>
    openTransformersEmbedder({
      model: '',
      modelDir,
      cacheDir: tmp,
      offline: true,
      batchSize: 2,
      maxBatchTokens: 8192,
      maxInputChars: 8000,
      threads: 1,
    });
  let whole: Embedder;
  let expected: Float32Array[];
  beforeAll(async () => {
    whole = await inProcess(write('ext-whole', { kind: 'embed', shape: 'tiny', family: 'xlmr' }));
    expected = await whole.embedDocuments(TEXTS);
  });
  afterAll(() => whole?.close());

  it.each(EXTERNAL_DATA_FORMS)(
    'loads with the data file declared as "%s", embedding as the one-file model',
    async (form) => {
      const split = write(`ext-${form}`, {
        kind: 'embed',
        shape: 'tiny',
        family: 'xlmr',
        externalData: form,
      });
      expect(fs.statSync(path.join(split, 'onnx', 'model.onnx')).size).toBeLessThan(64 * 1024);
      expect(fs.statSync(path.join(split, 'onnx', 'model.onnx_data')).size).toBeGreaterThan(1024 * 1024);
      const embedder = await inProcess(split);
      try {
        expectSameVectors(await embedder.embedDocuments(TEXTS), expected);
      } finally {
        await embedder.close();
      }
    },
  );

  it('loads on the inference thread too', async () => {
    const split = write('ext-thread', {
      kind: 'embed',
      shape: 'tiny',
      family: 'xlmr',
      externalData: 'file-key',
    });
    const embedder = await openEmbedder({ modelDir: split });
    try {
      expectSameVectors(await embedder.embedDocuments(TEXTS), expected);
    } finally {
      await embedder.close();
    }
  });

  it('a cross-encoder with external data scores the easy case in order', async () => {
    const dir = write('ext-rerank', {
      kind: 'rerank',
      shape: 'tiny',
      family: 'xlmr',
      externalData: 'file-key',
    });
    const reranker = (await createReranker({ model: 'none', modelDir: dir, cacheDir: tmp, offline: true }))!;
    try {
      const [shared, none] = await reranker.score('reset password', [
        'password reset steps',
        'revenue report',
      ]);
      expect(shared).toBeGreaterThan(none!);
    } finally {
      await reranker.close();
    }
  });
});

describe('the e5-small timing shape (generated only on demand)', () => {
  it("has a tokenizer vocabulary of multilingual-e5-small's size, distinct pieces, XLM-R special ids", () => {
    const vocab = buildSizedUnigramVocab(250_002);
    expect(vocab).toHaveLength(250_002);
    expect(new Set(vocab.map(([piece]) => piece)).size).toBe(250_002);
    expect(vocab.slice(0, 4).map(([piece]) => piece)).toEqual(['<s>', '<pad>', '</s>', '<unk>']);
    expect(vocab.at(-1)?.[0]).toBe('<mask>');
  });
});
