import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { GrooveError } from '../../src/errors.js';
import { listModels, modelFolderIn, resolveModelCacheDir } from '../../src/models/model-cache.js';
import {
  EMBEDDING_MODELS,
  findEmbeddingModel,
  findModelSpec,
  findRerankerModel,
  RERANKER_MODELS,
  requiredModelFiles,
} from '../../src/models/model-registry.js';

function thrown(work: () => unknown): GrooveError {
  try {
    work();
  } catch (error) {
    if (error instanceof GrooveError) return error;
  }
  throw new Error('expected a GrooveError');
}

describe('model registry', () => {
  it('knows the default model and the required embedding models with their shapes', () => {
    expect(findEmbeddingModel(DEFAULTS.model)).toMatchObject({ dimension: 384, pooling: 'mean' });
    expect(findEmbeddingModel('bge-small-en-v1.5')).toMatchObject({ dimension: 384, pooling: 'cls' });
    expect(findEmbeddingModel('bge-m3')).toMatchObject({ dimension: 1024, pooling: 'cls' });
  });

  it('describes the folder shape of each embedding model, with its dimension as hidden size', () => {
    for (const spec of EMBEDDING_MODELS) expect(spec.shape.hiddenSize).toBe(spec.dimension);
    expect(findEmbeddingModel('multilingual-e5-small').shape).toMatchObject({
      modelType: 'bert',
      vocabSize: 250_037,
      tokenizerClass: 'XLMRobertaTokenizer',
    });
  });

  it('carries the prefixes each model was trained with', () => {
    const e5 = findEmbeddingModel('multilingual-e5-small');
    expect([e5.queryPrefix, e5.passagePrefix]).toEqual(['query: ', 'passage: ']);
    const bge = findEmbeddingModel('bge-small-en-v1.5');
    expect(bge.queryPrefix).toMatch(/^Represent this sentence for searching relevant passages: $/);
    expect(bge.passagePrefix).toBe('');
  });

  it('accepts aliases: hub repos and the anchor reranker ids', () => {
    expect(findEmbeddingModel('Xenova/multilingual-e5-small').id).toBe('multilingual-e5-small');
    expect(findRerankerModel('bge-base').id).toBe('bge-reranker-base');
    expect(findRerankerModel('bge-v2-m3').id).toBe('bge-reranker-v2-m3');
    expect(findModelSpec('bge-reranker-base').kind).toBe('reranker');
  });

  it('refuses unknown ids with MODEL_UNKNOWN and the full list', () => {
    const error = thrown(() => findEmbeddingModel('text-embedding-3-small'));
    expect(error.code).toBe('MODEL_UNKNOWN');
    expect(error.message).toContain('"text-embedding-3-small"');
    for (const spec of EMBEDDING_MODELS) expect(error.message).toContain(spec.id);
    const reranker = thrown(() => findRerankerModel('multilingual-e5-small'));
    for (const spec of RERANKER_MODELS) expect(reranker.message).toContain(spec.id);
  });

  it('has unique ids and aliases, sane limits and the file for its dtype', () => {
    const names = [...EMBEDDING_MODELS, ...RERANKER_MODELS].flatMap((s) => [s.id, ...s.aliases]);
    expect(new Set(names).size).toBe(names.length);
    for (const spec of [...EMBEDDING_MODELS, ...RERANKER_MODELS]) {
      expect(spec.maxTokens).toBeGreaterThanOrEqual(256);
      expect(spec.maxTokens).toBeLessThanOrEqual(8192);
      expect(requiredModelFiles(spec)).toContain(
        spec.dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx',
      );
    }
  });
});

describe('model cache directory', () => {
  const home = path.resolve('/home/user');
  it('prefers an absolute GROOVE_MODEL_DIR, then model_dir, then the OS cache', () => {
    const dir = path.resolve('/models');
    expect(
      resolveModelCacheDir({
        env: { GROOVE_MODEL_DIR: dir },
        configured: 'x',
        homeDir: home,
        platform: 'linux',
      }),
    ).toBe(dir);
    expect(
      resolveModelCacheDir({
        env: { GROOVE_MODEL_DIR: '' },
        configured: dir,
        homeDir: home,
        platform: 'linux',
      }),
    ).toBe(dir);
    expect(resolveModelCacheDir({ env: {}, homeDir: home, platform: 'linux' })).toBe(
      path.join(home, '.cache', 'groove', 'models'),
    );
    expect(
      resolveModelCacheDir({
        env: { XDG_CACHE_HOME: path.resolve('/xdg') },
        homeDir: home,
        platform: 'linux',
      }),
    ).toBe(path.join(path.resolve('/xdg'), 'groove', 'models'));
    expect(resolveModelCacheDir({ env: {}, homeDir: home, platform: 'darwin' })).toBe(
      path.join(home, 'Library', 'Caches', 'groove', 'models'),
    );
  });

  it('refuses a relative GROOVE_MODEL_DIR', () => {
    const error = thrown(() =>
      resolveModelCacheDir({ env: { GROOVE_MODEL_DIR: 'models' }, homeDir: home, platform: 'linux' }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
  });

  it('places a model at <cache>/<owner>/<repo> and lists every model as not downloaded in an empty cache', () => {
    const cache = path.resolve('/nonexistent-groove-cache');
    expect(modelFolderIn(cache, findEmbeddingModel('bge-m3'))).toBe(path.join(cache, 'Xenova', 'bge-m3'));
    const listed = listModels(cache);
    expect(listed.map((m) => m.id)).toEqual([...EMBEDDING_MODELS, ...RERANKER_MODELS].map((s) => s.id));
    expect(listed.every((m) => !m.downloaded)).toBe(true);
    expect(listed.find((m) => m.id === 'bge-m3')).toMatchObject({ dimension: 1024, kind: 'embedding' });
    expect(listed.find((m) => m.id === 'bge-reranker-base')).toMatchObject({
      dimension: null,
      kind: 'reranker',
    });
  });
});
