// The only file that talks to @huggingface/transformers: lazy import, the library's global `env`, and loading a
// tokenizer + ONNX model from a folder, never the network (downloads are groove's own: hub-download.ts).

import { createRequire, Module } from 'node:module';
import { GrooveError } from '../errors.js';
import { modelCorruptError } from './model-folder.js';
import { type ModelDtype, onnxFileFor } from './model-registry.js';
import { modelRuntimeEntry, modelRuntimeMissing } from './model-runtime.js';
import type { PaddedBatch, TokenizedText } from './token-batches.js';

/** The slice of a transformers.js tensor groove reads. */
export interface TensorLike {
  dims: number[];
  data: ArrayLike<number | bigint>;
}

/**
 * A loaded tokenizer + ONNX model behind a small surface: tokenize without padding or truncation
 * (token-batches.ts does both), and run padded int64 feeds.
 */
export interface LoadedModel {
  /** Token ids per text, or per (text, pair) when `pairs` is given. */
  encode(texts: string[], pairs?: string[]): TokenizedText[];
  padTokenId: number;
  run(batch: PaddedBatch): Promise<Record<string, TensorLike>>;
  dispose(): Promise<void>;
}

export type ModelTask = 'embedding' | 'reranker';

type TransformersModule = typeof import('@huggingface/transformers');

let modulePromise: Promise<TransformersModule> | null = null;
// transformers.js keeps its settings in one global `env`; loads are serialised so two concurrent loads
// (an embedder and a reranker) cannot see each other's settings half-applied.
let envLock: Promise<unknown> = Promise.resolve();

/** Import the library on first use only: a command that embeds nothing (`groove --help`) never loads it. */
export function importTransformers(): Promise<TransformersModule> {
  modulePromise ??= Promise.resolve().then(loadTransformersWithoutImages);
  return modulePromise;
}

const requireHere = createRequire(import.meta.url);

/**
 * transformers.js requires sharp, a native image library, when it loads (CPU time on the cold search's critical
 * path), though groove runs text models only. Its CommonJS build is loaded with a placeholder in sharp's
 * require-cache slot, so sharp and libvips are never loaded; the placeholder throws if it is ever called (an image
 * input, which groove never passes).
 */
function loadTransformersWithoutImages(): TransformersModule {
  const entry = modelRuntimeEntry();
  if (entry === null) throw modelRuntimeMissing();
  const sharpPath = resolveFrom(entry, 'sharp');
  if (sharpPath !== null && !requireHere.cache[sharpPath]) {
    const placeholder = new Module(sharpPath);
    placeholder.filename = sharpPath;
    placeholder.exports = () => {
      throw new GrooveError('INTERNAL', 'groove loads no image library: image inputs are not supported');
    };
    placeholder.loaded = true;
    requireHere.cache[sharpPath] = placeholder;
  }
  return requireHere(entry) as TransformersModule;
}

function resolveFrom(file: string, request: string): string | null {
  try {
    return createRequire(file).resolve(request);
  } catch {
    return null; // not installed: the library reports it itself
  }
}

/** Resolves once an import started by importTransformers has settled (at once when none was started). */
export function importSettled(): Promise<void> {
  return (modulePromise ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  );
}

function withEnvLock<T>(work: () => Promise<T>): Promise<T> {
  const run = envLock.then(work, work);
  envLock = run.catch(() => undefined);
  return run;
}

function configureEnv(lib: TransformersModule): void {
  lib.env.logLevel = lib.LogLevel.ERROR;
  lib.env.allowRemoteModels = false;
}

interface RawEncoding {
  input_ids: number[][];
  token_type_ids?: number[][];
}
type TokenizerFn = ((
  texts: string[],
  options: { text_pair?: string[]; padding: false; truncation: false; return_tensor: false },
) => RawEncoding) & { pad_token_id?: number | null };

interface ModelFn {
  (inputs: Record<string, unknown>): Promise<Record<string, TensorLike>>;
  dispose(): Promise<unknown>;
}

function wrapLoaded(lib: TransformersModule, tokenizer: TokenizerFn, model: ModelFn): LoadedModel {
  const tensor = (data: BigInt64Array, dims: number[]) => new lib.Tensor('int64', data, dims);
  return {
    padTokenId: tokenizer.pad_token_id ?? 0,
    encode(texts, pairs) {
      const options = { padding: false, truncation: false, return_tensor: false } as const;
      const raw = tokenizer(texts, pairs ? { ...options, text_pair: pairs } : options);
      return raw.input_ids.map((inputIds, i) => ({
        inputIds,
        tokenTypeIds: raw.token_type_ids?.[i] ?? null,
      }));
    },
    run(batch) {
      const feeds: Record<string, unknown> = {
        input_ids: tensor(batch.inputIds, batch.dims),
        attention_mask: tensor(batch.attentionMask, batch.dims),
      };
      // Models without a token_type_ids input get none; BERT-style models get zeros from the library.
      if (batch.tokenTypeIds) feeds.token_type_ids = tensor(batch.tokenTypeIds, batch.dims);
      return model(feeds);
    },
    async dispose() {
      await model.dispose();
    },
  };
}

function modelClass(lib: TransformersModule, task: ModelTask) {
  return task === 'embedding' ? lib.AutoModel : lib.AutoModelForSequenceClassification;
}

/**
 * Intra-op threads sleep between runs instead of spinning: a spinning pool burns the cores the main thread and
 * concurrent requests need.
 */
function sessionOptions(threads: number) {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
}

export interface LoadModelFolderOptions {
  folder: string;
  task: ModelTask;
  dtype: ModelDtype;
  /** onnxruntime intra-op threads. */
  threads: number;
  /** The external-data files inspectModelFolder found declared (relative to the folder). */
  externalData?: readonly string[];
  /** The registered model the folder holds, for the fix in a MODEL_CORRUPT hint. */
  modelId?: string | null;
}

/** The file an onnxruntime load error is about: an external-data file when it names or implies one. */
function fileOfLoadError(error: unknown, options: LoadModelFolderOptions): string {
  const onnxFile = onnxFileFor(options.dtype);
  const message = summarizeError(error);
  const named = /onnx\/[\w.-]+\.onnx_data(?:_\d+)?/.exec(message);
  if (named) return named[0];
  if (!/external/i.test(message)) return onnxFile;
  const declared = options.externalData ?? [];
  return declared.length > 0 ? declared.join(', ') : `${onnxFile}_data`;
}

/**
 * Load from an absolute folder with remote loading disabled: this path can never touch the network.
 * transformers.js is told the model has no external data: onnxruntime-node opens the model by its path and reads
 * external data itself, relative to the model file, failing the session promise this function awaits when a
 * file is missing or short — whereas the library's own lookup of those files rejects a promise nobody awaits,
 * which killed the inference thread or left the caller waiting forever.
 */
export function loadModelFolder(options: LoadModelFolderOptions): Promise<LoadedModel> {
  return withEnvLock(async () => {
    const lib = await importTransformers();
    configureEnv(lib);
    const { folder, modelId } = options;
    let tokenizer: unknown;
    try {
      tokenizer = await lib.AutoTokenizer.from_pretrained(folder, { local_files_only: true });
    } catch (error) {
      throw modelCorruptError(folder, 'tokenizer.json', `could not be loaded (${summarizeError(error)})`, {
        cause: error,
        modelId,
      });
    }
    try {
      const model = await modelClass(lib, options.task).from_pretrained(folder, {
        local_files_only: true,
        dtype: options.dtype,
        use_external_data_format: false,
        session_options: sessionOptions(options.threads),
      });
      return wrapLoaded(lib, tokenizer as TokenizerFn, model as unknown as ModelFn);
    } catch (error) {
      const file = fileOfLoadError(error, options);
      const what = file === onnxFileFor(options.dtype) ? 'could not be loaded' : 'is missing or truncated';
      throw modelCorruptError(folder, file, `${what} (onnxruntime: ${summarizeError(error)})`, {
        cause: error,
        modelId,
      });
    }
  });
}

export function summarizeError(error: unknown): string {
  if (error instanceof GrooveError) return error.message;
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`.slice(0, 300);
  }
  return String(error).slice(0, 300);
}
