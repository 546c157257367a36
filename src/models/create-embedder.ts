// The composition entry of the model layer: plain options in (the app maps groove.toml, env and flags to
// them), an Embedder / Reranker out — or null for `none`. Heavy libraries load only when a provider needs them.

import os from 'node:os';
import { GrooveError } from '../errors.js';
import type { Embedder, EmbeddingSetup, Pooling, Reranker } from '../types.js';
import type { HubSettings } from './hub-settings.js';
import type { ModelProgressListener } from './model-progress.js';

export type EmbeddingProvider = 'transformers' | 'openai-compatible' | 'ollama' | 'none';

export interface CreateEmbedderOptions {
  /** `none` (or model `none`) gives null: a lexical-only index. */
  provider: EmbeddingProvider;
  /**
   * transformers: registry id or alias (DEFAULTS.model, `multilingual-e5-small`).
   * openai-compatible / ollama: the model name sent to the endpoint ([embedding] model).
   */
  model: string | null;
  /** transformers only: a local transformers.js model folder, used instead of the registry (`--model-dir`). */
  modelDir?: string | null;
  /** `modelDir` only: the pooling the user gave (`--pooling`, [embedding] pooling); null: the folder decides. */
  pooling?: Pooling | null;
  /**
   * `modelDir` and HTTP providers: the query/passage markers the user gave; null: the folder decides (or, for an
   * endpoint, none). A registered model has its own and refuses them.
   */
  queryPrefix?: string | null;
  passagePrefix?: string | null;
  /**
   * What the index being followed records about pooling and prefixes, used when the folder (or the user) does not
   * say; `unrecorded` for an index built before groove recorded them (see folder-setup.ts).
   */
  recordedSetup?: EmbeddingSetup | 'unrecorded' | null;
  /** Model cache (see resolveModelCacheDir: GROOVE_MODEL_DIR › model_dir › OS cache). */
  cacheDir: string;
  /** Never touch the network: no model downloads, and HTTP providers only on loopback endpoints. */
  offline: boolean;
  /** Hugging Face mirror (`HF_ENDPOINT`); default https://huggingface.co/. */
  hubEndpoint?: string | null;
  /** transformers: token, proxies, the Hugging Face cache and pins for downloads (hub-settings.ts). */
  hub?: HubSettings;
  /** HTTP providers: the full embeddings URL (Ollama defaults to http://127.0.0.1:11434/api/embed). */
  endpoint?: string | null;
  /** HTTP providers: bearer token (GROOVE_EMBEDDING_API_KEY wins over [embedding] api_key in the app). */
  apiKey?: string | null;
  /** HTTP providers: expected vector length; null learns it with one probe request. Ignored by transformers. */
  dimension?: number | null;
  /** HTTP providers: per-request timeout, seconds. DEFAULTS.embedding.timeoutSeconds. */
  timeoutSeconds: number;
  /** HTTP providers: retries on 429/5xx/timeouts. DEFAULTS.embedding.maxRetries. */
  maxRetries: number;
  /** Texts per inference batch or HTTP request. DEFAULTS.embedding.batchSize. */
  batchSize: number;
  /** Longer inputs are cut to this many characters first. DEFAULTS.embedding.maxInputChars. */
  maxInputChars: number;
  /**
   * transformers: padded tokens per inference batch (items × longest). Long chunks get smaller batches so
   * attention memory stays bounded. Default 8192 (16 chunks of 512 tokens).
   */
  maxBatchTokens?: number;
  /** transformers: onnxruntime intra-op threads. Default: available cores, at most 8. */
  threads?: number;
  /** HTTP providers: first backoff step, ms (tests shorten it). Default 1000. */
  retryBaseMs?: number;
  /** Download progress (first use of a registry model); e.g. createProgressRenderer(process.stderr). */
  progress?: ModelProgressListener;
}

export const DEFAULT_MAX_BATCH_TOKENS = 8192;
/**
 * Cross-encoders read query and passage together, up to 1,024 tokens (bge-reranker-v2-m3): at 8,192 tokens per
 * batch a MiniLM-sized cross-encoder still peaked at the memory of sixteen such pairs, at 4,096 at about half.
 */
export const DEFAULT_RERANKER_MAX_BATCH_TOKENS = 4096;

export function defaultThreadCount(): number {
  return Math.max(1, Math.min(8, os.availableParallelism()));
}

function isLoopbackUrl(endpoint: string): boolean {
  try {
    const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

function refuseOfflineEndpoint(provider: string, endpoint: string): GrooveError {
  return new GrooveError(
    'MODEL_UNAVAILABLE',
    `Offline mode forbids the ${provider} endpoint "${new URL(endpoint).host}": only loopback endpoints are allowed offline.`,
    { hint: 'drop --offline / GROOVE_OFFLINE, run the embedding server on localhost, or use --model none' },
  );
}

/** Refuse a setup the chosen model cannot take: pooling for an endpoint, anything for a registered model. */
function refuseMisplacedSetup(options: CreateEmbedderOptions): void {
  const given = [
    options.pooling != null ? 'pooling' : null,
    options.queryPrefix != null ? 'query prefix' : null,
    options.passagePrefix != null ? 'passage prefix' : null,
  ].filter((field) => field !== null);
  const isFolder = options.provider === 'transformers' && Boolean(options.modelDir);
  const isHttp = options.provider === 'openai-compatible' || options.provider === 'ollama';
  if (isFolder || given.length === 0 || (isHttp && options.pooling == null)) return;
  const what = isHttp
    ? `an embedding endpoint pools by itself, so pooling cannot be set for ${options.provider}`
    : `registered model "${options.model}" comes with its own pooling and prefixes (given: ${given.join(', ')})`;
  throw new GrooveError('INVALID_ARGUMENT', `${what}.`, {
    hint:
      'drop --pooling / --query-prefix / --passage-prefix (or [embedding] pooling, query_prefix, passage_prefix); ' +
      'they set up a local model folder (--model-dir)',
  });
}

/** The endpoint's prefix: the one given, else the one the followed index records, else none. */
function httpPrefix(given: string | null | undefined, recorded: string | undefined): string {
  return given ?? recorded ?? '';
}

/** What createEmbedder builds for these options: nothing (lexical-only), a model on the inference thread, or HTTP. */
export function embedderKind(
  options: Pick<CreateEmbedderOptions, 'provider' | 'model'>,
): 'none' | 'inference-thread' | 'http' {
  if (options.provider === 'none' || options.model === 'none') return 'none';
  return options.provider === 'transformers' ? 'inference-thread' : 'http';
}

/** Make sure the registry model `options.model` is in a cache, downloading it when allowed. */
async function ensureRegistryEmbedder(options: CreateEmbedderOptions): Promise<void> {
  const { findEmbeddingModel } = await import('./model-registry.js');
  const { ensureModelFolder } = await import('./model-pull.js');
  await ensureModelFolder({
    spec: findEmbeddingModel(options.model ?? ''),
    cacheDir: options.cacheDir,
    offline: options.offline,
    hubEndpoint: options.hubEndpoint ?? null,
    ...(options.hub ? { hub: options.hub } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  });
}

/**
 * Build the embedder the options describe, or null for a lexical-only index.
 * Throws MODEL_UNKNOWN (unregistered id), MODEL_UNAVAILABLE (not cached and cannot download), MODEL_CORRUPT
 * (damaged folder), CONFIG_INVALID (missing endpoint/model) or ENDPOINT_FAILED (dimension probe failed).
 */
export async function createEmbedder(options: CreateEmbedderOptions): Promise<Embedder | null> {
  // embedderKind is the rule; the provider test repeats it only to narrow the type.
  if (embedderKind(options) === 'none' || options.provider === 'none') return null;
  refuseMisplacedSetup(options);
  if (options.provider === 'transformers') {
    if (!options.model && !options.modelDir) {
      throw new GrooveError(
        'CONFIG_INVALID',
        'The transformers provider needs a model id or a model folder.',
        {
          hint: 'set model = "multilingual-e5-small", pass --model-dir DIR, or use --model none',
        },
      );
    }
    // Before any download: a model without its runtime is of no use.
    const { assertModelRuntime } = await import('./model-runtime.js');
    assertModelRuntime();
    // A registry model is fetched here, on the main thread, where Ctrl-C can remove an unfinished download;
    // the inference thread then finds it in place.
    if (!options.modelDir) await ensureRegistryEmbedder(options);
    // Inference runs on its own thread: onnxruntime-node blocks the calling thread for a whole run.
    const { openWorkerEmbedder } = await import('./worker-embedder.js');
    return openWorkerEmbedder({
      model: options.model ?? '',
      modelDir: options.modelDir ?? null,
      setup: {
        given: {
          pooling: options.pooling ?? null,
          queryPrefix: options.queryPrefix ?? null,
          passagePrefix: options.passagePrefix ?? null,
        },
        recorded: options.recordedSetup ?? null,
      },
      cacheDir: options.cacheDir,
      offline: options.offline,
      hubEndpoint: options.hubEndpoint ?? null,
      ...(options.hub ? { hub: options.hub } : {}),
      batchSize: options.batchSize,
      maxBatchTokens: options.maxBatchTokens ?? DEFAULT_MAX_BATCH_TOKENS,
      maxInputChars: options.maxInputChars,
      threads: options.threads ?? defaultThreadCount(),
      ...(options.progress ? { progress: options.progress } : {}),
    });
  }
  const recorded = typeof options.recordedSetup === 'object' ? options.recordedSetup : null;
  const { openHttpEmbedder } = await import('./http-embedder.js');
  const { WIRE_FORMATS } = await import('./embedding-wire-formats.js');
  const endpoint = options.endpoint || WIRE_FORMATS[options.provider].defaultEndpoint;
  if (options.offline && endpoint && URL.canParse(endpoint) && !isLoopbackUrl(endpoint)) {
    throw refuseOfflineEndpoint(options.provider, endpoint);
  }
  return openHttpEmbedder({
    provider: options.provider,
    endpoint: options.endpoint ?? null,
    model: options.model ?? '',
    dimension: options.dimension ?? null,
    apiKey: options.apiKey ?? null,
    timeoutSeconds: options.timeoutSeconds,
    maxRetries: options.maxRetries,
    batchSize: options.batchSize,
    maxInputChars: options.maxInputChars,
    queryPrefix: httpPrefix(options.queryPrefix, recorded?.queryPrefix),
    passagePrefix: httpPrefix(options.passagePrefix, recorded?.passagePrefix),
    ...(options.retryBaseMs === undefined ? {} : { retryBaseMs: options.retryBaseMs }),
  });
}

export interface CreateRerankerOptions {
  /** Registry id or alias (`bge-reranker-base`, `bge-reranker-v2-m3`), or `none` → null. */
  model: string;
  /** A local cross-encoder folder (transformers.js layout), used instead of the registry. */
  modelDir?: string | null;
  cacheDir: string;
  offline: boolean;
  hubEndpoint?: string | null;
  hub?: HubSettings;
  /** Pairs per inference batch. Default 16. */
  batchSize?: number;
  /** Padded tokens per inference batch (pairs × longest pair). Default 4096: four pairs of 1,024 tokens. */
  maxBatchTokens?: number;
  /** Query and passages are cut to this many characters first. Default 8000. */
  maxInputChars?: number;
  threads?: number;
  progress?: ModelProgressListener;
}

/** Build the cross-encoder reranker, or null for `none`. Errors as for createEmbedder. */
export async function createReranker(options: CreateRerankerOptions): Promise<Reranker | null> {
  if ((options.model === 'none' || options.model === '') && !options.modelDir) return null;
  const { assertModelRuntime } = await import('./model-runtime.js');
  assertModelRuntime();
  const { openTransformersReranker } = await import('./transformers-reranker.js');
  return openTransformersReranker({
    model: options.model,
    modelDir: options.modelDir ?? null,
    cacheDir: options.cacheDir,
    offline: options.offline,
    hubEndpoint: options.hubEndpoint ?? null,
    ...(options.hub ? { hub: options.hub } : {}),
    batchSize: options.batchSize ?? 16,
    maxBatchTokens: options.maxBatchTokens ?? DEFAULT_RERANKER_MAX_BATCH_TOKENS,
    maxInputChars: options.maxInputChars ?? 8000,
    threads: options.threads ?? defaultThreadCount(),
    ...(options.progress ? { progress: options.progress } : {}),
  });
}
