// Writes a complete test model folder in the transformers.js layout: config.json, tokenizer files,
// onnx/model.onnx and (for embedders) the sentence-transformers pooling config.

import fs from 'node:fs';
import path from 'node:path';
import { type BertShape, buildMiniLmGraph, buildTinyGraph, type TestModelKind } from './bert-graph.js';
import { buildMiniLmVocab, buildTinyVocab } from './test-vocab.js';
import { buildTokenizerFiles } from './tokenizer-files.js';

export type TestModelShape = 'tiny' | 'minilm-l6';

export interface WriteTestModelOptions {
  kind: TestModelKind;
  shape: TestModelShape;
  /** The model folder to create (its parents too). Existing files are overwritten. */
  outDir: string;
  /** Override the hidden size (tiny only; default 32). */
  hidden?: number;
  /** Pooling written to `1_Pooling/config.json` for embedders. Default `mean`. */
  pooling?: 'mean' | 'cls';
  /** Query/passage prompts written to `config_sentence_transformers.json` when given. */
  prompts?: { query: string; passage: string };
  /** Default 42. */
  seed?: number;
}

export interface WriteTestModelResult {
  dir: string;
  dimension: number;
  vocabSize: number;
  modelBytes: number;
}

function shapeFor(options: WriteTestModelOptions, vocabSize: number): BertShape {
  if (options.shape === 'tiny') {
    const hidden = options.hidden ?? 32;
    return { vocabSize, hidden, layers: 1, heads: 2, intermediate: hidden * 2, maxPositions: 512 };
  }
  return { vocabSize, hidden: 384, layers: 6, heads: 12, intermediate: 1536, maxPositions: 512 };
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
}

function buildConfig(kind: TestModelKind, shape: BertShape): Record<string, unknown> {
  const base = {
    model_type: 'bert',
    hidden_size: shape.hidden,
    vocab_size: shape.vocabSize,
    num_attention_heads: shape.heads,
    num_hidden_layers: shape.layers,
    intermediate_size: shape.intermediate,
    max_position_embeddings: shape.maxPositions,
    type_vocab_size: 2,
  };
  if (kind === 'embed') return { ...base, architectures: ['BertModel'] };
  return {
    ...base,
    architectures: ['BertForSequenceClassification'],
    num_labels: 1,
    id2label: { 0: 'LABEL_0' },
    label2id: { LABEL_0: 0 },
  };
}

export function writeTestModel(options: WriteTestModelOptions): WriteTestModelResult {
  const vocab = options.shape === 'tiny' ? buildTinyVocab() : buildMiniLmVocab();
  const shape = shapeFor(options, vocab.length);
  const seed = options.seed ?? 42;
  const bytes =
    options.shape === 'tiny'
      ? buildTinyGraph(options.kind, shape, seed)
      : buildMiniLmGraph(options.kind, shape, seed);
  const dir = path.resolve(options.outDir);
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), bytes);
  const tokenizer = buildTokenizerFiles(vocab, shape.maxPositions);
  writeJson(path.join(dir, 'config.json'), buildConfig(options.kind, shape));
  writeJson(path.join(dir, 'tokenizer.json'), tokenizer.tokenizerJson);
  writeJson(path.join(dir, 'tokenizer_config.json'), tokenizer.tokenizerConfig);
  if (options.kind === 'embed') {
    const pooling = options.pooling ?? 'mean';
    writeJson(path.join(dir, '1_Pooling', 'config.json'), {
      word_embedding_dimension: shape.hidden,
      pooling_mode_cls_token: pooling === 'cls',
      pooling_mode_mean_tokens: pooling === 'mean',
    });
  }
  if (options.prompts) {
    writeJson(path.join(dir, 'config_sentence_transformers.json'), { prompts: options.prompts });
  }
  return { dir, dimension: shape.hidden, vocabSize: vocab.length, modelBytes: bytes.byteLength };
}
