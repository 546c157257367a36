// Writes a complete test model folder in the transformers.js layout: config.json, tokenizer files, the ONNX
// file (onnx/model.onnx, or onnx/model_quantized.onnx for q8) with its external-data file when asked, and (for
// embedders) the sentence-transformers pooling config.

import fs from 'node:fs';
import path from 'node:path';
import { buildMiniLmGraph, buildTinyGraph } from './bert-graph.js';
import {
  buildEncoderGraph,
  type EncoderShape,
  encoderEncodeOptions,
  type ModelFamily,
  type TestModelKind,
} from './encoder-graph.js';
import { buildMiniLmVocab, buildTinyVocab } from './test-vocab.js';
import { buildTokenizerFiles, type TokenizerFiles } from './tokenizer-files.js';
import {
  buildSizedUnigramVocab,
  buildTinyUnigramVocab,
  buildUnigramTokenizerFiles,
} from './unigram-tokenizer.js';

/** `e5-small`: multilingual-e5-small's real dimensions (XLM-R, 12 layers, hidden 384, vocab 250,037). */
export type TestModelShape = 'tiny' | 'minilm-l6' | 'e5-small';
export type TestModelDtype = 'fp32' | 'q8';

/**
 * How config.json declares the external-data file, in the forms transformers.js 4 reads from
 * `transformers.js_config.use_external_data_format`: `true`, a chunk count, or a map keyed by the ONNX file name
 * (`model.onnx`) or its base name (`model`). `undeclared` writes the file and declares nothing (onnxruntime
 * still finds it through the graph's own reference).
 */
export const EXTERNAL_DATA_FORMS = ['flag', 'count', 'file-key', 'base-key', 'undeclared'] as const;
export type ExternalDataForm = (typeof EXTERNAL_DATA_FORMS)[number];

export interface WriteTestModelOptions {
  kind: TestModelKind;
  shape: TestModelShape;
  /** The model folder to create (its parents too). Existing files are overwritten. */
  outDir: string;
  /** `bert` (WordPiece, three inputs; default) or `xlmr` (Unigram, no token_type_ids). e5-small is always xlmr. */
  family?: ModelFamily;
  /** Override the hidden size (tiny only; default 32). */
  hidden?: number;
  /** Pooling written to `1_Pooling/config.json` for embedders. Default `mean`. */
  pooling?: 'mean' | 'cls';
  /** Query/passage prompts written to `config_sentence_transformers.json` when given. */
  prompts?: { query: string; passage: string };
  /** `q8` writes int8 weights to onnx/model_quantized.onnx (not for the tiny BERT graph). Default fp32. */
  dtype?: TestModelDtype;
  /** Put the weights in `<onnx file>_data` and declare it in config.json this way. Default: one file. */
  externalData?: ExternalDataForm;
  /** Default 42. */
  seed?: number;
}

export interface WriteTestModelResult {
  dir: string;
  dimension: number;
  vocabSize: number;
  /** Bytes of the ONNX file plus its external-data file. */
  modelBytes: number;
  /** Relative to `dir`: the ONNX file, and the external-data file or null. */
  onnxFile: string;
  dataFile: string | null;
}

const E5_SMALL_GRAPH_VOCAB = 250_037;
const E5_SMALL_TOKENIZER_VOCAB = 250_002;

function familyOf(options: WriteTestModelOptions): ModelFamily {
  return options.shape === 'e5-small' ? 'xlmr' : (options.family ?? 'bert');
}

function shapeFor(options: WriteTestModelOptions, vocabSize: number): EncoderShape {
  const maxPositions = familyOf(options) === 'xlmr' ? 514 : 512;
  if (options.shape === 'tiny') {
    const hidden = options.hidden ?? 32;
    return { vocabSize, hidden, layers: 1, heads: 2, intermediate: hidden * 2, maxPositions };
  }
  const layers = options.shape === 'e5-small' ? 12 : 6;
  return { vocabSize, hidden: 384, layers, heads: 12, intermediate: 1536, maxPositions };
}

function tokenizerFor(options: WriteTestModelOptions): { files: TokenizerFiles; graphVocab: number } {
  const maxTokens = 512;
  if (options.shape === 'e5-small') {
    const vocab = buildSizedUnigramVocab(E5_SMALL_TOKENIZER_VOCAB);
    return { files: buildUnigramTokenizerFiles(vocab, maxTokens), graphVocab: E5_SMALL_GRAPH_VOCAB };
  }
  if (familyOf(options) === 'xlmr') {
    const vocab = buildTinyUnigramVocab();
    return { files: buildUnigramTokenizerFiles(vocab, maxTokens), graphVocab: vocab.length };
  }
  const vocab = options.shape === 'tiny' ? buildTinyVocab() : buildMiniLmVocab();
  return { files: buildTokenizerFiles(vocab, maxTokens), graphVocab: vocab.length };
}

function buildConfig(options: WriteTestModelOptions, shape: EncoderShape): Record<string, unknown> {
  const xlmr = familyOf(options) === 'xlmr';
  const base = {
    model_type: xlmr ? 'xlm-roberta' : 'bert',
    hidden_size: shape.hidden,
    vocab_size: shape.vocabSize,
    num_attention_heads: shape.heads,
    num_hidden_layers: shape.layers,
    intermediate_size: shape.intermediate,
    max_position_embeddings: shape.maxPositions,
    type_vocab_size: xlmr ? 1 : 2,
    ...(xlmr ? { pad_token_id: 1, bos_token_id: 0, eos_token_id: 2, layer_norm_eps: 1e-5 } : {}),
  };
  const prefix = xlmr ? 'XLMRoberta' : 'Bert';
  if (options.kind === 'embed') return { ...base, architectures: [`${prefix}Model`] };
  return {
    ...base,
    architectures: [`${prefix}ForSequenceClassification`],
    num_labels: 1,
    id2label: { 0: 'LABEL_0' },
    label2id: { LABEL_0: 0 },
  };
}

/** The `use_external_data_format` value of each form, for the ONNX file `fileName` (e.g. `model.onnx`). */
export function externalDataDeclaration(form: ExternalDataForm, fileName: string): unknown {
  if (form === 'flag') return true;
  if (form === 'count') return 1;
  if (form === 'file-key') return { [fileName]: true };
  if (form === 'base-key') return { [fileName.replace(/(_quantized)?\.onnx$/, '')]: 1 };
  return undefined;
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
}

function encodeGraph(
  options: WriteTestModelOptions,
  shape: EncoderShape,
  dataName: string | null,
): { model: Uint8Array; data: Uint8Array | null } {
  const seed = options.seed ?? 42;
  const family = familyOf(options);
  const quantized = options.dtype === 'q8';
  if (family === 'bert' && !quantized && dataName === null) {
    const build = options.shape === 'tiny' ? buildTinyGraph : buildMiniLmGraph;
    return { model: build(options.kind, shape, seed), data: null };
  }
  if (family === 'bert' && options.shape === 'tiny') {
    throw new Error('the tiny BERT graph is fp32 in one file; use --family xlmr or --shape minilm-l6');
  }
  const graphOptions = { family, kind: options.kind, shape, seed, quantized };
  const graph = buildEncoderGraph(graphOptions);
  const encode = encoderEncodeOptions(graphOptions);
  if (dataName === null) return { model: graph.encode(encode), data: null };
  return graph.encodeWithExternalData(encode, dataName);
}

export function writeTestModel(options: WriteTestModelOptions): WriteTestModelResult {
  const tokenizer = tokenizerFor(options);
  const shape = shapeFor(options, tokenizer.graphVocab);
  const fileName = options.dtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx';
  const dataName = options.externalData ? `${fileName}_data` : null;
  const { model, data } = encodeGraph(options, shape, dataName);
  const dir = path.resolve(options.outDir);
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'onnx', fileName), model);
  if (dataName && data) fs.writeFileSync(path.join(dir, 'onnx', dataName), data);
  const config = buildConfig(options, shape);
  const declared = options.externalData && externalDataDeclaration(options.externalData, fileName);
  if (declared !== undefined) config['transformers.js_config'] = { use_external_data_format: declared };
  writeJson(path.join(dir, 'config.json'), config);
  writeJson(path.join(dir, 'tokenizer.json'), tokenizer.files.tokenizerJson);
  writeJson(path.join(dir, 'tokenizer_config.json'), tokenizer.files.tokenizerConfig);
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
  return {
    dir,
    dimension: shape.hidden,
    vocabSize: shape.vocabSize,
    modelBytes: model.byteLength + (data?.byteLength ?? 0),
    onnxFile: `onnx/${fileName}`,
    dataFile: dataName ? `onnx/${dataName}` : null,
  };
}
