// The models groove knows by name: hub repository, output size, pooling, prefixes, token limit, file variant and
// the shape a folder of the model carries. Anything not listed here is refused with the list of valid ids (a
// local folder can still be used via modelDir).

import { GrooveError } from '../errors.js';
import type { Pooling } from '../types.js';

export type { Pooling };
/** `fp32` reads `onnx/model.onnx`; `q8` reads `onnx/model_quantized.onnx` (transformers.js naming). */
export type ModelDtype = 'fp32' | 'q8';

interface ModelSpecBase {
  /** The id users type (`--model`, `model =`, `groove models pull ID`). */
  id: string;
  /** Other accepted spellings: short ids used by other tools, and the hub repository. */
  aliases: string[];
  /** Hugging Face repository in the transformers.js layout (config.json, tokenizer files, onnx/). */
  hubRepo: string;
  dtype: ModelDtype;
  /** Inputs are truncated to this many tokens (the model's limit, or lower where noted). */
  maxTokens: number;
  /** Human-readable language coverage for `groove models list`. */
  languages: string;
  /** Approximate download size of the files groove fetches, in megabytes. */
  downloadMB: number;
}

/**
 * What a folder of a model says about its network and tokenizer: `config.json` (first architecture, model type,
 * sizes) and the tokenizer class (`tokenizer_config.json`, else `config.json`). Values are the public repository's.
 */
export interface FolderShape {
  architecture: string;
  modelType: string;
  hiddenSize: number;
  layers: number;
  heads: number;
  intermediateSize: number;
  vocabSize: number;
  maxPositions: number;
  tokenizerClass: string;
}

export interface EmbeddingModelSpec extends ModelSpecBase {
  kind: 'embedding';
  /** How a local folder (`--model-dir`) of this model is recognised, together with the name it records. */
  shape: FolderShape;
  dimension: number;
  pooling: Pooling;
  /** Whether the model's vectors are meant to be compared after L2 normalisation (true for all listed). */
  normalize: boolean;
  /** Prepended to search queries. */
  queryPrefix: string;
  /** Prepended to indexed passages. */
  passagePrefix: string;
}

export interface RerankerModelSpec extends ModelSpecBase {
  kind: 'reranker';
}

export type ModelSpec = EmbeddingModelSpec | RerankerModelSpec;

export const EMBEDDING_MODELS: readonly EmbeddingModelSpec[] = [
  {
    kind: 'embedding',
    id: 'multilingual-e5-small',
    aliases: ['Xenova/multilingual-e5-small', 'intfloat/multilingual-e5-small'],
    hubRepo: 'Xenova/multilingual-e5-small',
    dimension: 384,
    pooling: 'mean',
    normalize: true,
    // e5 was trained with these markers; without them retrieval quality drops noticeably.
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    maxTokens: 512,
    dtype: 'q8',
    // A BERT network over the XLM-R vocabulary.
    shape: {
      architecture: 'BertModel',
      modelType: 'bert',
      hiddenSize: 384,
      layers: 12,
      heads: 12,
      intermediateSize: 1536,
      vocabSize: 250_037,
      maxPositions: 512,
      tokenizerClass: 'XLMRobertaTokenizer',
    },
    languages: 'multilingual (~100, incl. English, Japanese)',
    downloadMB: 130,
  },
  {
    kind: 'embedding',
    id: 'bge-small-en-v1.5',
    aliases: ['Xenova/bge-small-en-v1.5', 'BAAI/bge-small-en-v1.5'],
    hubRepo: 'Xenova/bge-small-en-v1.5',
    dimension: 384,
    pooling: 'cls',
    normalize: true,
    // bge v1.5 asks for this instruction on short queries only; passages go in bare.
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
    passagePrefix: '',
    maxTokens: 512,
    dtype: 'q8',
    // all-MiniLM-L12-v2 has this very shape (and mean pooling): the shape alone never identifies the model.
    shape: {
      architecture: 'BertModel',
      modelType: 'bert',
      hiddenSize: 384,
      layers: 12,
      heads: 12,
      intermediateSize: 1536,
      vocabSize: 30_522,
      maxPositions: 512,
      tokenizerClass: 'BertTokenizer',
    },
    languages: 'English',
    downloadMB: 35,
  },
  {
    kind: 'embedding',
    id: 'bge-m3',
    aliases: ['Xenova/bge-m3', 'BAAI/bge-m3'],
    hubRepo: 'Xenova/bge-m3',
    dimension: 1024,
    pooling: 'cls',
    normalize: true,
    queryPrefix: '',
    passagePrefix: '',
    // The model accepts 8192 tokens, but attention memory grows with the square of the length; groove's
    // chunks are far shorter, so 1024 bounds memory without cutting real chunks.
    maxTokens: 1024,
    dtype: 'q8',
    shape: {
      architecture: 'XLMRobertaModel',
      modelType: 'xlm-roberta',
      hiddenSize: 1024,
      layers: 24,
      heads: 16,
      intermediateSize: 4096,
      vocabSize: 250_002,
      maxPositions: 8194,
      tokenizerClass: 'XLMRobertaTokenizer',
    },
    languages: 'multilingual (100+, strong on Japanese)',
    downloadMB: 590,
  },
];

export const RERANKER_MODELS: readonly RerankerModelSpec[] = [
  {
    kind: 'reranker',
    id: 'bge-reranker-base',
    aliases: ['bge-base', 'Xenova/bge-reranker-base', 'BAAI/bge-reranker-base'],
    hubRepo: 'Xenova/bge-reranker-base',
    maxTokens: 512,
    dtype: 'q8',
    languages: 'English, Chinese',
    downloadMB: 285,
  },
  {
    kind: 'reranker',
    id: 'bge-reranker-v2-m3',
    aliases: ['bge-v2-m3', 'onnx-community/bge-reranker-v2-m3-ONNX', 'BAAI/bge-reranker-v2-m3'],
    hubRepo: 'onnx-community/bge-reranker-v2-m3-ONNX',
    maxTokens: 1024,
    dtype: 'q8',
    languages: 'multilingual (100+, incl. Japanese)',
    downloadMB: 590,
  },
];

function matches(spec: ModelSpec, id: string): boolean {
  return spec.id === id || spec.aliases.includes(id);
}

function refuseUnknown(kind: string, id: string, known: readonly ModelSpec[]): GrooveError {
  const ids = known.map((s) => s.id).join(', ');
  return new GrooveError('MODEL_UNKNOWN', `Unknown ${kind} model "${id}". Valid ids: ${ids}.`, {
    hint: `use one of: ${ids}; or "none"; or point --model-dir at a local transformers.js model folder`,
  });
}

/** Look up an embedding model by id or alias; unknown ids throw MODEL_UNKNOWN listing the valid ones. */
export function findEmbeddingModel(id: string): EmbeddingModelSpec {
  const spec = EMBEDDING_MODELS.find((s) => matches(s, id));
  if (!spec) throw refuseUnknown('embedding', id, EMBEDDING_MODELS);
  return spec;
}

/** Look up a reranker by id or alias; unknown ids throw MODEL_UNKNOWN listing the valid ones. */
export function findRerankerModel(id: string): RerankerModelSpec {
  const spec = RERANKER_MODELS.find((s) => matches(s, id));
  if (!spec) throw refuseUnknown('reranker', id, RERANKER_MODELS);
  return spec;
}

/** Any registered model (embedding or reranker), for `groove models pull ID`. */
export function findModelSpec(id: string): ModelSpec {
  const spec = [...EMBEDDING_MODELS, ...RERANKER_MODELS].find((s) => matches(s, id));
  if (!spec) throw refuseUnknown('embedding or reranker', id, [...EMBEDDING_MODELS, ...RERANKER_MODELS]);
  return spec;
}

/** The ONNX file transformers.js reads for this dtype, relative to the model folder. */
export function onnxFileFor(dtype: ModelDtype): string {
  return dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
}

/** Files a model folder needs before groove will load it (paths relative to the folder). */
export function requiredModelFiles(spec: ModelSpec): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFileFor(spec.dtype)];
}
