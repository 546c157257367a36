// `--model-dir` folders through createEmbedder and the inference thread, with generated ONNX models: a hub-layout
// folder of a registered model gets that model's pooling and prefixes, a sentence-transformers folder its own
// config, a bare folder is refused unless a pooling is given (or recorded by the index followed). Each setup is
// checked by its vectors: the same network with the setup spelled out in sentence-transformers files (and no
// registered name) must give the same vectors.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteTestModelOptions, writeTestModel } from '../../scripts/test-model/write-test-model.js';
import { GrooveError } from '../../src/errors.js';
import { type CreateEmbedderOptions, createEmbedder } from '../../src/models/create-embedder.js';
import { findEmbeddingModel } from '../../src/models/model-registry.js';
import type { Embedder } from '../../src/types.js';
import { copyModelFolder, ensureTinyModel, writeRegisteredModelFolder } from '../support/test-models.js';

let tmp: string;
const opened: Embedder[] = [];

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-folder-setup-'));
});
afterAll(async () => {
  await Promise.all(opened.map((embedder) => embedder.close()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function open(modelDir: string, more: Partial<CreateEmbedderOptions> = {}): Promise<Embedder> {
  const embedder = await createEmbedder({
    provider: 'transformers',
    model: null,
    modelDir,
    cacheDir: path.join(tmp, 'cache'),
    offline: true,
    timeoutSeconds: 60,
    maxRetries: 0,
    batchSize: 8,
    maxInputChars: 8000,
    threads: 1,
    ...more,
  });
  opened.push(embedder!);
  return embedder!;
}

/** The same generated network with its setup in sentence-transformers files, and no registered name. */
function spelledOut(name: string, options: Partial<WriteTestModelOptions>): string {
  return writeTestModel({ kind: 'embed', shape: 'tiny', outDir: path.join(tmp, name), ...options }).dir;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}

async function expectSameVectors(actual: Embedder, reference: Embedder): Promise<void> {
  const text = 'how do I reset my password';
  expect(cosine(await actual.embedQuery(text), await reference.embedQuery(text))).toBeCloseTo(1, 5);
  const [doc] = await actual.embedDocuments([text]);
  const [refDoc] = await reference.embedDocuments([text]);
  expect(cosine(doc!, refDoc!)).toBeCloseTo(1, 5);
}

async function refusal(work: () => Promise<unknown>): Promise<GrooveError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected a GrooveError');
}

describe('a hub-layout folder of a registered model', () => {
  it('bge-small-en-v1.5 named in config.json: CLS pooling and the query instruction', async () => {
    const spec = findEmbeddingModel('bge-small-en-v1.5');
    const folder = writeRegisteredModelFolder(path.join(tmp, 'bge-hub'), spec, 'config');
    const embedder = await open(folder);
    const reference = await open(
      spelledOut('bge-st', {
        hidden: 384,
        pooling: 'cls',
        prompts: { query: spec.queryPrefix, passage: '' },
      }),
    );
    await expectSameVectors(embedder, reference);
    expect(embedder.setup).toMatchObject({
      pooling: 'cls',
      queryPrefix: spec.queryPrefix,
      passagePrefix: '',
    });
    expect(embedder.setup?.source).toBe(
      'registered model bge-small-en-v1.5 (config.json _name_or_path "BAAI/bge-small-en-v1.5")',
    );
  });

  it('multilingual-e5-small named by its conversion card: mean pooling and query:/passage:', async () => {
    const spec = findEmbeddingModel('multilingual-e5-small');
    const folder = writeRegisteredModelFolder(path.join(tmp, 'e5-hub'), spec, 'readme', { family: 'xlmr' });
    const embedder = await open(folder);
    const reference = await open(
      spelledOut('e5-st', {
        family: 'xlmr',
        hidden: 384,
        pooling: 'mean',
        prompts: { query: 'query: ', passage: 'passage: ' },
      }),
    );
    await expectSameVectors(embedder, reference);
    expect(embedder.setup?.source).toMatch(/^registered model multilingual-e5-small \(README\.md base_model/);
  });

  it('keeps the rule an index built before groove recorded pooling was made with: mean, no prefixes', async () => {
    const spec = findEmbeddingModel('bge-small-en-v1.5');
    const folder = writeRegisteredModelFolder(path.join(tmp, 'bge-old-index'), spec, 'config');
    const embedder = await open(folder, { recordedSetup: 'unrecorded' });
    await expectSameVectors(embedder, await open(spelledOut('bge-mean', { hidden: 384, pooling: 'mean' })));
  });
});

describe('a sentence-transformers folder', () => {
  it('uses its pooling and prompts', async () => {
    const folder = spelledOut('st-cls', { pooling: 'cls', prompts: { query: 'q: ', passage: 'p: ' } });
    const embedder = await open(folder);
    expect(embedder.setup).toEqual({
      pooling: 'cls',
      queryPrefix: 'q: ',
      passagePrefix: 'p: ',
      source: 'sentence-transformers config of the folder',
    });
  });
});

describe('a folder that does not say how to pool', () => {
  let bare: string;
  beforeAll(() => {
    bare = copyModelFolder(ensureTinyModel('embed'), path.join(tmp, 'bare'));
    fs.rmSync(path.join(bare, '1_Pooling'), { recursive: true });
  });

  it('is refused with MODEL_POOLING_UNKNOWN, naming the folder and the flags', async () => {
    const error = await refusal(() => open(bare));
    expect(error.code).toBe('MODEL_POOLING_UNKNOWN');
    expect(error.message).toContain(bare);
    expect(error.message).toContain('1_Pooling/config.json');
    expect(error.hint).toContain('--pooling mean');
  });

  it('is accepted with a pooling and prefixes given, and embeds with them', async () => {
    const embedder = await open(bare, { pooling: 'cls', queryPrefix: 'search: ' });
    const reference = await open(spelledOut('tiny-cls', { pooling: 'cls' }));
    const text = 'reset my password';
    const [withPrefix] = await reference.embedDocuments([`search: ${text}`]);
    expect(cosine(await embedder.embedQuery(text), withPrefix!)).toBeCloseTo(1, 5);
    expect(embedder.setup).toMatchObject({ pooling: 'cls', queryPrefix: 'search: ', passagePrefix: '' });
    expect(embedder.setup?.source).toBe('given: pooling, query prefix');
  });

  it('is accepted with the setup the followed index records', async () => {
    const recorded = {
      pooling: 'cls',
      queryPrefix: '',
      passagePrefix: 'x ',
      source: 'given: pooling',
    } as const;
    const embedder = await open(bare, { recordedSetup: recorded });
    expect(embedder.setup).toEqual(recorded);
  });
});

describe('a setup where it cannot apply', () => {
  it('is refused for a registered model and for an endpoint’s pooling', async () => {
    const registered = await refusal(() => open('', { model: 'multilingual-e5-small', pooling: 'cls' }));
    expect(registered.code).toBe('INVALID_ARGUMENT');
    expect(registered.message).toContain('multilingual-e5-small');
    const endpoint = await refusal(() =>
      open('', { provider: 'ollama', model: 'nomic-embed-text', pooling: 'mean' }),
    );
    expect(endpoint.code).toBe('INVALID_ARGUMENT');
  });
});
