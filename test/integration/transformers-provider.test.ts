// The transformers provider end to end with generated ONNX models: local folders, the registry + cache,
// downloads from a loopback "hub" (pinned to the generated files), offline refusal, damaged folders, and the
// reranker.

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModel } from '../../scripts/test-model/write-test-model.js';
import { GrooveError } from '../../src/errors.js';
import {
  type CreateEmbedderOptions,
  createEmbedder,
  createReranker,
} from '../../src/models/create-embedder.js';
import { listModels } from '../../src/models/model-cache.js';
import type { ModelPin } from '../../src/models/model-pins.js';
import type { ModelProgressEvent } from '../../src/models/model-progress.js';
import { pullModel } from '../../src/models/model-pull.js';
import type { Embedder } from '../../src/types.js';
import { FAKE_REVISION, pinOfFolder } from '../support/fake-pins.js';
import { copyModelFolder, ensureTinyModel } from '../support/test-models.js';

let tmp: string;
let hub: { url: string; requests: string[]; close: () => Promise<void> };
let pins: Record<string, ModelPin>;

/** A loopback stand-in for the Hugging Face hub: serves `<repo>/resolve/<FAKE_REVISION>/<file>` from folders. */
async function startHub(repos: Record<string, string>) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const match = new RegExp(`^/(.+?/.+?)/resolve/${FAKE_REVISION}/(.+)$`).exec(req.url ?? '');
    const folder = match ? repos[match[1] as string] : undefined;
    const file = folder && match ? path.join(folder, decodeURIComponent(match[2] as string)) : null;
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    const body = fs.readFileSync(file);
    res.writeHead(200, { 'content-length': body.byteLength, 'content-type': 'application/octet-stream' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function baseOptions(overrides: Partial<CreateEmbedderOptions>): CreateEmbedderOptions {
  return {
    provider: 'transformers',
    model: 'multilingual-e5-small',
    cacheDir: path.join(tmp, 'empty-cache'),
    offline: true,
    hubEndpoint: hub.url,
    hub: { pins, hubCacheDir: null },
    timeoutSeconds: 60,
    maxRetries: 3,
    batchSize: 4,
    maxInputChars: 8000,
    threads: 1,
    ...overrides,
  };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}

async function catchError(work: () => Promise<unknown>): Promise<GrooveError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected a GrooveError');
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-'));
  // An e5-shaped model (hidden 384, q8 file name) the fake hub serves as Xenova/multilingual-e5-small.
  const e5 = path.join(tmp, 'hub-e5');
  writeTestModel({ kind: 'embed', shape: 'tiny', hidden: 384, outDir: e5 });
  fs.copyFileSync(path.join(e5, 'onnx', 'model.onnx'), path.join(e5, 'onnx', 'model_quantized.onnx'));
  // The hub has no bge-m3: its pin names files the hub answers 404 for.
  pins = { 'multilingual-e5-small': pinOfFolder(e5), 'bge-m3': pinOfFolder(e5) };
  hub = await startHub({ 'Xenova/multilingual-e5-small': e5 });
});

afterAll(async () => {
  await hub.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('transformers embedder from a local folder', () => {
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = (await createEmbedder(baseOptions({ modelDir: ensureTinyModel('embed') }))) as Embedder;
  });
  afterAll(() => embedder.close());

  it('reads the dimension from config.json and records the folder as its identity', () => {
    expect(embedder.dimension).toBe(32);
    expect({ id: embedder.id, provider: embedder.provider }).toEqual({
      id: `transformers:${path.resolve(ensureTinyModel('embed'))}`,
      provider: 'transformers',
    });
  });

  it('returns unit vectors in input order whatever the batching', async () => {
    const texts = [
      'How do I reset my password?',
      'パスワードを忘れた場合は設定画面から再設定できます',
      'a',
      'Quarterly revenue report for the search engine team, with the annual summary and the market data',
      '東京の天気',
      'vector database index',
    ];
    const batched = await embedder.embedDocuments(texts);
    expect(batched).toHaveLength(texts.length);
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embedDocuments([text]);
      expect(cosine(batched[i] as Float32Array, alone as Float32Array)).toBeCloseTo(1, 5);
      expect(Math.hypot(...(batched[i] as Float32Array))).toBeCloseTo(1, 5);
    }
    expect(cosine(batched[0] as Float32Array, batched[1] as Float32Array)).toBeLessThan(0.999);
  });

  it('reads inputs past the token limit whole: text beyond the limit still moves the vector', async () => {
    const long = Array.from({ length: 900 }, (_, i) => (i % 2 ? 'search' : 'index')).join(' ');
    const [a, b] = await embedder.embedDocuments([
      long,
      `${long} ${'quarterly revenue report tokyo japan '.repeat(60)}`,
    ]);
    expect(cosine(a as Float32Array, b as Float32Array)).not.toBeCloseTo(1, 5);
    const [short] = await embedder.embedDocuments(['index search quarterly revenue report']);
    expect(cosine(a as Float32Array, short as Float32Array)).toBeLessThan(0.999);
  });

  it('never contacts the hub for a local folder, even when online', async () => {
    const before = hub.requests.length;
    const online = (await createEmbedder(
      baseOptions({ modelDir: ensureTinyModel('embed'), offline: false }),
    ))!;
    await online.embedQuery('hello world');
    await online.close();
    expect(hub.requests.length).toBe(before);
  });
});

describe('local folder settings', () => {
  it('applies sentence-transformers prompts and CLS pooling from the folder', async () => {
    const plainDir = path.join(tmp, 'plain');
    const promptDir = path.join(tmp, 'prompted');
    const clsDir = path.join(tmp, 'cls');
    writeTestModel({ kind: 'embed', shape: 'tiny', outDir: plainDir });
    writeTestModel({
      kind: 'embed',
      shape: 'tiny',
      outDir: promptDir,
      prompts: { query: 'query: ', passage: 'passage: ' },
    });
    writeTestModel({ kind: 'embed', shape: 'tiny', outDir: clsDir, pooling: 'cls' });
    const plain = (await createEmbedder(baseOptions({ modelDir: plainDir })))!;
    const prompted = (await createEmbedder(baseOptions({ modelDir: promptDir })))!;
    const cls = (await createEmbedder(baseOptions({ modelDir: clsDir })))!;
    const text = 'reset my password';
    const [withQueryPrefix] = await plain.embedDocuments([`query: ${text}`]);
    const [withPassagePrefix] = await plain.embedDocuments([`passage: ${text}`]);
    expect(cosine(await prompted.embedQuery(text), withQueryPrefix as Float32Array)).toBeCloseTo(1, 5);
    const [promptedDoc] = await prompted.embedDocuments([text]);
    expect(cosine(promptedDoc as Float32Array, withPassagePrefix as Float32Array)).toBeCloseTo(1, 5);
    expect(cosine(await cls.embedQuery(text), await plain.embedQuery(text))).toBeLessThan(0.999);
    await Promise.all([plain.close(), prompted.close(), cls.close()]);
  });

  it('tokenizes common English words and Japanese characters without [UNK]', async () => {
    const { AutoTokenizer } = await import('@huggingface/transformers');
    const tokenizer = await AutoTokenizer.from_pretrained(ensureTinyModel('embed'), {
      local_files_only: true,
    });
    const unk = tokenizer.convert_tokens_to_ids('[UNK]');
    for (const text of [
      'How do I reset my password in the settings?',
      'パスワードを忘れた場合は設定画面から再設定できます',
    ]) {
      const ids = tokenizer.encode(text);
      expect(ids.length).toBeGreaterThan(3);
      expect(ids).not.toContain(unk);
    }
  });
});

describe('registry models and the cache', () => {
  it('offline with an empty cache names the model, the cache path and the three fixes, without network', async () => {
    const before = hub.requests.length;
    const error = await catchError(() => createEmbedder(baseOptions({})));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('multilingual-e5-small');
    expect(error.message).toContain(path.join(tmp, 'empty-cache', 'Xenova', 'multilingual-e5-small'));
    expect(error.message).toContain('groove models pull multilingual-e5-small');
    expect(error.message).toContain('--model none');
    expect(error.message).toMatch(/connect to the network once/);
    expect(hub.requests.length).toBe(before);
  });

  it('refuses unknown ids with the list of valid ones', async () => {
    const error = await catchError(() => createEmbedder(baseOptions({ model: 'e5-large' })));
    expect(error.code).toBe('MODEL_UNKNOWN');
    expect(error.message).toContain('multilingual-e5-small, bge-small-en-v1.5, bge-m3');
  });

  it('downloads on first use with progress, then loads offline from the cache', async () => {
    const cacheDir = path.join(tmp, 'cache');
    const events: ModelProgressEvent[] = [];
    const embedder = (await createEmbedder(
      baseOptions({ cacheDir, offline: false, progress: (e) => events.push(e) }),
    ))!;
    expect({ provider: embedder.provider, dimension: embedder.dimension }).toEqual({
      provider: 'transformers',
      dimension: 384,
    });
    expect(embedder.id).toBe('transformers:multilingual-e5-small');
    const onnxEvents = events.filter((e) => e.file === 'onnx/model_quantized.onnx');
    expect(onnxEvents.map((e) => e.kind)).toContain('download-start');
    expect(onnxEvents.at(-1)?.kind).toBe('download-done');
    const lastProgress = onnxEvents.filter((e) => e.kind === 'download-progress').at(-1);
    expect(lastProgress).toMatchObject({ kind: 'download-progress' });
    if (lastProgress?.kind === 'download-progress')
      expect(lastProgress.loadedBytes).toBe(lastProgress.totalBytes);
    expect(
      fs.existsSync(path.join(cacheDir, 'Xenova', 'multilingual-e5-small', 'onnx', 'model_quantized.onnx')),
    ).toBe(true);
    const [vector] = await embedder.embedDocuments(['downloaded model works']);
    expect(vector).toHaveLength(384);
    await embedder.close();

    const listed = listModels(cacheDir);
    expect(listed.find((m) => m.id === 'multilingual-e5-small')?.downloaded).toBe(true);
    expect(listed.find((m) => m.id === 'bge-m3')?.downloaded).toBe(false);

    const before = hub.requests.length;
    const offline = (await createEmbedder(baseOptions({ cacheDir, offline: true })))!;
    expect((await offline.embedQuery('from the cache')).length).toBe(384);
    await offline.close();
    expect(hub.requests.length).toBe(before);

    const again = await pullModel({
      id: 'multilingual-e5-small',
      cacheDir,
      offline: false,
      hubEndpoint: hub.url,
      hub: { pins },
    });
    expect(again.downloaded).toBe(false);
  });

  it('reports a model the hub does not have as unavailable, naming the cache path', async () => {
    const cacheDir = path.join(tmp, 'cache-missing');
    const error = await catchError(() =>
      pullModel({ id: 'bge-m3', cacheDir, offline: false, hubEndpoint: hub.url, hub: { pins } }),
    );
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain(path.join(cacheDir, 'Xenova', 'bge-m3'));
  });

  it('refuses a cached folder whose config does not match the registry dimension', async () => {
    const cacheDir = path.join(tmp, 'cache-wrong');
    const folder = path.join(cacheDir, 'Xenova', 'bge-small-en-v1.5');
    writeTestModel({ kind: 'embed', shape: 'tiny', outDir: folder });
    fs.copyFileSync(
      path.join(folder, 'onnx', 'model.onnx'),
      path.join(folder, 'onnx', 'model_quantized.onnx'),
    );
    // Pinned to exactly these files, so the folder passes verification and reaches the dimension check.
    const hubSettings = { pins: { 'bge-small-en-v1.5': pinOfFolder(folder) }, hubCacheDir: null };
    const error = await catchError(() =>
      createEmbedder(baseOptions({ cacheDir, model: 'bge-small-en-v1.5', hub: hubSettings })),
    );
    expect(error.code).toBe('MODEL_CORRUPT');
    expect(error.message).toContain('hidden_size 32');
  });
});

describe('damaged model folders', () => {
  it('names the folder and the file for a truncated model.onnx', async () => {
    const dir = copyModelFolder(ensureTinyModel('embed'), path.join(tmp, 'truncated'));
    const onnx = path.join(dir, 'onnx', 'model.onnx');
    fs.truncateSync(onnx, Math.floor(fs.statSync(onnx).size / 3));
    const error = await catchError(() => createEmbedder(baseOptions({ modelDir: dir })));
    expect(error.code).toBe('MODEL_CORRUPT');
    expect(error.message).toContain(dir);
    expect(error.message).toContain('onnx/model.onnx');
  });

  it('names tokenizer.json when it is missing', async () => {
    const dir = copyModelFolder(ensureTinyModel('embed'), path.join(tmp, 'no-tokenizer'));
    fs.rmSync(path.join(dir, 'tokenizer.json'));
    const error = await catchError(() => createEmbedder(baseOptions({ modelDir: dir })));
    expect(error.code).toBe('MODEL_CORRUPT');
    expect(error.message).toContain('tokenizer.json');
    expect(error.message).toContain(dir);
  });

  it('names config.json when it is not JSON', async () => {
    const dir = copyModelFolder(ensureTinyModel('embed'), path.join(tmp, 'bad-config'));
    fs.writeFileSync(path.join(dir, 'config.json'), '{"model_type": "be');
    const error = await catchError(() => createEmbedder(baseOptions({ modelDir: dir })));
    expect(error.code).toBe('MODEL_CORRUPT');
    expect(error.message).toContain('config.json');
  });

  it('reports a missing folder as unavailable', async () => {
    const error = await catchError(() => createEmbedder(baseOptions({ modelDir: path.join(tmp, 'nope') })));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
  });
});

describe('transformers reranker', () => {
  it('scores every passage in 0–1, deterministically, across batches', async () => {
    const reranker = (await createReranker({
      model: 'none',
      modelDir: ensureTinyModel('rerank'),
      cacheDir: tmp,
      offline: true,
      batchSize: 2,
      threads: 1,
    }))!;
    const passages = [
      'Password recovery steps',
      'Quarterly revenue report',
      '東京の天気',
      'reset',
      'login help',
    ];
    const scores = await reranker.score('How do I reset my password?', passages);
    expect(scores).toHaveLength(passages.length);
    for (const s of scores) expect(s > 0 && s < 1).toBe(true);
    expect(new Set(scores.map((s) => s.toFixed(6))).size).toBeGreaterThan(1);
    const single = await reranker.score('How do I reset my password?', [passages[2] as string]);
    expect(single[0]).toBeCloseTo(scores[2] as number, 6);
    await reranker.close();
  });

  it('returns null for none and refuses unknown reranker ids', async () => {
    expect(await createReranker({ model: 'none', cacheDir: tmp, offline: true })).toBeNull();
    const error = await catchError(() => createReranker({ model: 'colbert', cacheDir: tmp, offline: true }));
    expect(error.code).toBe('MODEL_UNKNOWN');
    expect(error.message).toContain('bge-reranker-base, bge-reranker-v2-m3');
  });

  it('offline reranker download is refused with the reranker fix', async () => {
    const error = await catchError(() =>
      createReranker({ model: 'bge-reranker-base', cacheDir: path.join(tmp, 'rr'), offline: true }),
    );
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('--reranker none');
  });
});
