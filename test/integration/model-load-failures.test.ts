// Model folders that cannot load must fail with MODEL_CORRUPT naming the file and the fix — never kill the
// inference thread with a generic error, never leave the caller waiting: external-data files missing or short,
// declared or not, on the inference thread (embedder) and on the calling thread (reranker).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteTestModelOptions, writeTestModel } from '../../scripts/test-model/write-test-model.js';
import { GrooveError } from '../../src/errors.js';
import { createEmbedder, createReranker } from '../../src/models/create-embedder.js';
import { pinOfFolder } from '../support/fake-pins.js';

// A load that hangs fails here instead of at the 30 s default.
const LOAD_TIMEOUT_MS = 10_000;
let tmp: string;

function write(name: string, options: Omit<WriteTestModelOptions, 'outDir' | 'shape'>): string {
  return writeTestModel({ shape: 'tiny', family: 'xlmr', ...options, outDir: path.join(tmp, name) }).dir;
}

/** Remove the data file, or cut it to a third. */
function damage(folder: string, file: string, how: 'missing' | 'truncated'): void {
  const full = path.join(folder, file);
  if (how === 'missing') fs.rmSync(full);
  else fs.truncateSync(full, Math.floor(fs.statSync(full).size / 3));
}

const embedderOptions = (overrides: { modelDir?: string; model?: string; cacheDir?: string }) => ({
  provider: 'transformers' as const,
  model: overrides.model ?? null,
  modelDir: overrides.modelDir ?? null,
  cacheDir: overrides.cacheDir ?? path.join(tmp, 'no-cache'),
  offline: true,
  timeoutSeconds: 60,
  maxRetries: 0,
  batchSize: 4,
  maxInputChars: 8000,
  threads: 1,
});

async function loadError(load: () => Promise<{ close(): Promise<void> } | null>): Promise<GrooveError> {
  let loaded: { close(): Promise<void> } | null = null;
  try {
    loaded = await load();
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  await loaded?.close();
  throw new Error('expected the model to fail to load');
}

function expectCorrupt(error: GrooveError, folder: string, file: string): void {
  expect(error.code).toBe('MODEL_CORRUPT');
  expect(error.message).toContain(`"${folder}"`);
  expect(error.message).toContain(`"${file}"`);
  expect(error.hint).toContain(`"${folder}"`);
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-model-failures-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('external data missing or truncated', () => {
  for (const how of ['missing', 'truncated'] as const) {
    it(
      `embedder on the inference thread: ${how} data → MODEL_CORRUPT naming the data file`,
      async () => {
        const dir = write(`embed-${how}`, { kind: 'embed', externalData: 'file-key' });
        damage(dir, 'onnx/model.onnx_data', how);
        const error = await loadError(() => createEmbedder(embedderOptions({ modelDir: dir })));
        expectCorrupt(error, dir, 'onnx/model.onnx_data');
      },
      LOAD_TIMEOUT_MS,
    );

    it(
      `reranker on the calling thread: ${how} data → MODEL_CORRUPT, without hanging`,
      async () => {
        const dir = write(`rerank-${how}`, { kind: 'rerank', externalData: 'flag' });
        damage(dir, 'onnx/model.onnx_data', how);
        const error = await loadError(() =>
          createReranker({ model: 'none', modelDir: dir, cacheDir: tmp, offline: true, threads: 1 }),
        );
        expectCorrupt(error, dir, 'onnx/model.onnx_data');
      },
      LOAD_TIMEOUT_MS,
    );
  }

  it(
    'data the config does not declare but the graph needs: the data file is named',
    async () => {
      const dir = write('undeclared', { kind: 'rerank', externalData: 'undeclared' });
      damage(dir, 'onnx/model.onnx_data', 'missing');
      const error = await loadError(() =>
        createReranker({ model: 'none', modelDir: dir, cacheDir: tmp, offline: true, threads: 1 }),
      );
      expectCorrupt(error, dir, 'onnx/model.onnx_data');
    },
    LOAD_TIMEOUT_MS,
  );

  it(
    'a registered model in the cache: the fix is to delete the folder and pull the model again',
    async () => {
      const cacheDir = path.join(tmp, 'cache');
      const folder = path.join(cacheDir, 'Xenova', 'multilingual-e5-small');
      write(path.relative(tmp, folder), {
        kind: 'embed',
        hidden: 384,
        dtype: 'q8',
        externalData: 'base-key',
      });
      damage(folder, 'onnx/model_quantized.onnx_data', 'missing');
      // Pinned to the generated files: they pass verification, and loading finds the missing data file.
      const hub = { pins: { 'multilingual-e5-small': pinOfFolder(folder) }, hubCacheDir: null };
      const error = await loadError(() =>
        createEmbedder({ ...embedderOptions({ model: 'multilingual-e5-small', cacheDir }), hub }),
      );
      expectCorrupt(error, folder, 'onnx/model_quantized.onnx_data');
      expect(error.hint).toBe(
        `delete "${folder}" and run groove models pull multilingual-e5-small to download it again`,
      );
    },
    LOAD_TIMEOUT_MS,
  );

  it('a config that declares an impossible number of data files names config.json', async () => {
    const dir = write('bad-count', { kind: 'rerank', externalData: 'count' });
    const configFile = path.join(dir, 'config.json');
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
    config['transformers.js_config'].use_external_data_format = 1000;
    fs.writeFileSync(configFile, JSON.stringify(config));
    const error = await loadError(() =>
      createReranker({ model: 'none', modelDir: dir, cacheDir: tmp, offline: true, threads: 1 }),
    );
    expectCorrupt(error, dir, 'config.json');
  });
});
