// Generated test models for integration tests: each kind is written once per process into os.tmpdir.
// Generation takes ~100 ms, so tests never ship or download model files.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type WriteTestModelOptions, writeTestModel } from '../../scripts/test-model/write-test-model.js';
import { createEmbedder } from '../../src/models/create-embedder.js';
import type { EmbeddingModelSpec } from '../../src/models/model-registry.js';
import type { Embedder } from '../../src/types.js';

export type TinyModelKind = 'embed' | 'rerank';

const generated = new Map<TinyModelKind, string>();
let rootDir: string | null = null;

function ensureRootDir(): string {
  if (rootDir === null) {
    rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-models-'));
    const dir = rootDir;
    // Best effort: the folder is small and in tmp, but do not leave one per test run behind.
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return rootDir;
}

/** The folder of the tiny generated model of this kind (hidden 32, English + Japanese vocab, mean pooling). */
export function ensureTinyModel(kind: TinyModelKind): string {
  const existing = generated.get(kind);
  if (existing !== undefined) return existing;
  const dir = path.join(ensureRootDir(), `tiny-${kind}`);
  writeTestModel({ kind, shape: 'tiny', outDir: dir });
  generated.set(kind, dir);
  return dir;
}

/** The tiny generated embedding model, loaded in this process from its folder, never from a hub. */
export async function openTinyEmbedder(): Promise<Embedder> {
  const embedder = await createEmbedder({
    provider: 'transformers',
    model: null,
    modelDir: ensureTinyModel('embed'),
    cacheDir: '/nonexistent',
    offline: true,
    timeoutSeconds: 60,
    maxRetries: 0,
    batchSize: 8,
    maxInputChars: 8000,
    threads: 1,
  });
  return embedder!;
}

/**
 * `model` as a facade's embedder that leaves it open when the facade closes (tests share one loaded model across
 * facades); `onQuery` sees every query it embeds.
 */
export function keptOpen(model: Embedder, onQuery: (text: string) => void = () => {}): Embedder {
  return {
    id: model.id,
    provider: model.provider,
    dimension: model.dimension,
    embedDocuments: (texts, fit) => model.embedDocuments(texts, fit),
    passagesOverLimit: (texts) => model.passagesOverLimit!(texts),
    countTokens: (texts) => model.countTokens!(texts),
    embedQuery: (text) => {
      onQuery(text);
      return model.embedQuery(text);
    },
    close: async () => {},
  };
}

/** Copy a generated model folder so a test can damage or rename it without affecting others. */
export function copyModelFolder(source: string, target: string): string {
  fs.cpSync(source, target, { recursive: true });
  return target;
}

/** Where a registered-model folder records the model's name: config.json, a conversion card, or nowhere. */
export type RecordedNameAt = 'config' | 'readme' | 'nowhere';

function rewriteJson(file: string, change: (value: Record<string, unknown>) => void): void {
  const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  change(value);
  fs.writeFileSync(file, JSON.stringify(value));
}

/**
 * A folder laid out like the hub's transformers.js repository of a registered model: no sentence-transformers
 * files, config.json and tokenizer_config.json with the model's shape, and its name where `nameAt` says. The
 * network is a small generated one of the model's hidden size (`generate` picks family and seed); config.json
 * describes the real model, as a downloaded folder's does.
 */
export function writeRegisteredModelFolder(
  dir: string,
  spec: EmbeddingModelSpec,
  nameAt: RecordedNameAt,
  generate: Partial<WriteTestModelOptions> = {},
): string {
  const { shape } = spec;
  writeTestModel({ kind: 'embed', shape: 'tiny', ...generate, hidden: shape.hiddenSize, outDir: dir });
  fs.rmSync(path.join(dir, '1_Pooling'), { recursive: true, force: true });
  fs.rmSync(path.join(dir, 'config_sentence_transformers.json'), { force: true });
  const source = spec.aliases.find((alias) => alias.includes('/') && alias !== spec.hubRepo) ?? spec.hubRepo;
  rewriteJson(path.join(dir, 'config.json'), (config) => {
    Object.assign(config, {
      architectures: [shape.architecture],
      model_type: shape.modelType,
      hidden_size: shape.hiddenSize,
      num_hidden_layers: shape.layers,
      num_attention_heads: shape.heads,
      intermediate_size: shape.intermediateSize,
      vocab_size: shape.vocabSize,
      max_position_embeddings: shape.maxPositions,
    });
    if (nameAt === 'config') config._name_or_path = source;
  });
  rewriteJson(path.join(dir, 'tokenizer_config.json'), (config) => {
    config.tokenizer_class = shape.tokenizerClass;
  });
  if (nameAt === 'readme') {
    const card = `---\nbase_model: ${source}\nlibrary_name: transformers.js\n---\n\n${source} with ONNX weights.\n`;
    fs.writeFileSync(path.join(dir, 'README.md'), card);
  }
  return dir;
}
