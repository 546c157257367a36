// Maps the resolved config to the model layer's options (composition root); models load lazily inside it.
import os from 'node:os';
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import {
  type CreateEmbedderOptions,
  createEmbedder,
  createReranker,
  embedderKind,
} from '../../models/create-embedder.js';
import { resolveModelCacheDir } from '../../models/model-cache.js';
import { createProgressRenderer } from '../../models/model-progress.js';
import { findEmbeddingModel } from '../../models/model-registry.js';
import { discardPrestartedThread, prestartInferenceThread } from '../../models/worker-embedder.js';
import { peekMeta } from '../../store/index-meta.js';
import type { Embedder, Reranker } from '../../types.js';
import { adoptIndexModel, identityFromMeta } from './model-identity.js';

export function modelCacheDirOf(config: ResolvedConfig): string {
  return resolveModelCacheDir({
    configured: config.modelCacheDir,
    env: { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, LOCALAPPDATA: process.env.LOCALAPPDATA },
    homeDir: os.homedir(),
    platform: process.platform,
  });
}

/** The model layer's options for this config's embedder, or null for lexical-only (`--model none`, provider `none`). */
function embedderOptionsOf(config: ResolvedConfig): CreateEmbedderOptions | null {
  const e = config.embedding;
  if (e.provider === 'none' || (config.model === 'none' && !config.localModelDir)) return null;
  const isHttp = e.provider === 'openai-compatible' || e.provider === 'ollama';
  return {
    provider: e.provider,
    model: isHttp ? e.model : config.model,
    modelDir: config.localModelDir,
    cacheDir: modelCacheDirOf(config),
    offline: config.offline,
    hubEndpoint: config.hubEndpoint,
    hub: config.hub,
    endpoint: e.endpoint,
    apiKey: e.apiKey,
    dimension: e.dimension,
    timeoutSeconds: e.timeoutSeconds,
    maxRetries: e.maxRetries,
    batchSize: e.batchSize,
    maxInputChars: e.maxInputChars,
    pooling: e.pooling,
    queryPrefix: e.queryPrefix,
    passagePrefix: e.passagePrefix,
    recordedSetup: config.recordedSetup,
  };
}

/** What createEmbedderFor would build for this config, decided without loading anything. */
export function embedderKindOf(config: ResolvedConfig): ReturnType<typeof embedderKind> {
  const options = embedderOptionsOf(config);
  return options ? embedderKind(options) : 'none';
}

/**
 * The id the embedder for this config reports (the identity an index records), told without loading it:
 * `none`, `<provider>:<model>` for an endpoint, `transformers:<absolute folder>` or `transformers:<registry id>`;
 * null for a model id the registry does not know.
 */
export function embedderIdOf(config: ResolvedConfig): string | null {
  const options = embedderOptionsOf(config);
  if (!options || embedderKind(options) === 'none') return 'none';
  if (options.provider !== 'transformers') return `${options.provider}:${options.model ?? ''}`;
  if (options.modelDir) return `transformers:${path.resolve(options.modelDir)}`;
  try {
    return `transformers:${findEmbeddingModel(options.model ?? '').id}`;
  } catch {
    return null;
  }
}

/** `null` means lexical-only (`--model none` or provider `none`). Download progress goes to stderr. */
export async function createEmbedderFor(config: ResolvedConfig): Promise<Embedder | null> {
  const options = embedderOptionsOf(config);
  if (!options) return null;
  return createEmbedder({ ...options, progress: createProgressRenderer(process.stderr) });
}

/** The configured cross-encoder, or null when `reranker = "none"`. */
export async function createRerankerFor(config: ResolvedConfig): Promise<Reranker | null> {
  if (config.reranker === 'none') return null;
  return createReranker({
    model: config.reranker,
    cacheDir: modelCacheDirOf(config),
    offline: config.offline,
    hubEndpoint: config.hubEndpoint,
    hub: config.hub,
    maxInputChars: config.embedding.maxInputChars,
    maxBatchTokens: config.rerankerMaxBatchTokens,
    progress: createProgressRenderer(process.stderr),
  });
}

/**
 * Whether a search with this config opens a local model on the inference thread, deciding as the search session
 * does: the config, then the model the index records (one read-only index_meta query).
 */
export function searchOpensLocalModel(config: ResolvedConfig): boolean {
  if (!config.dbPath) return false;
  const stored = identityFromMeta(peekMeta(config.dbPath));
  return embedderKindOf(stored ? adoptIndexModel(config, stored) : config) === 'inference-thread';
}

/** Start the inference thread ahead of a search that will need it (its model-library import overlaps startup). */
export function prestartInference(): void {
  prestartInferenceThread();
}

/** Stop a prestarted inference thread nothing took over; resolves once it has exited. */
export async function stopUnusedInference(): Promise<void> {
  await discardPrestartedThread();
}
