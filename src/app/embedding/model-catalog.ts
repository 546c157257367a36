// `groove models`: the registered models with their download state, and explicit downloads (composition root).
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { listModels, type ModelListEntry } from '../../models/model-cache.js';
import { createProgressRenderer } from '../../models/model-progress.js';
import { type PullModelResult, pullModel } from '../../models/model-pull.js';
import { findEmbeddingModel } from '../../models/model-registry.js';
import { modelCacheDirOf } from './embedder-factory.js';

export type { ModelListEntry, PullModelResult };

export function listRegisteredModels(config: ResolvedConfig): { cacheDir: string; models: ModelListEntry[] } {
  const cacheDir = modelCacheDirOf(config);
  return { cacheDir, models: listModels(cacheDir, config.hub.hubCacheDir) };
}

/** Download a registered model into the cache (the one command that always may use the network). */
export function pullRegisteredModel(config: ResolvedConfig, id: string): Promise<PullModelResult> {
  return pullModel({
    id,
    cacheDir: modelCacheDirOf(config),
    offline: config.offline,
    hubEndpoint: config.hubEndpoint,
    hub: config.hub,
    progress: createProgressRenderer(process.stderr),
  });
}

/** Refuse (MODEL_UNKNOWN, listing the valid ids) an embedding model id that is neither registered nor `none`. */
export function checkEmbeddingModelId(id: string): void {
  if (id !== 'none') findEmbeddingModel(id);
}
