// Getting a registered model onto disk: `groove models pull ID`, and the implicit pull on first use.
// Offline mode never downloads; it answers with the error that lists the three fixes.

import { findMissingModelFiles, modelFolderIn, modelUnavailableError } from './model-cache.js';
import type { ModelProgressListener } from './model-progress.js';
import { findModelSpec, type ModelSpec } from './model-registry.js';
import { downloadHubModel, summarizeError } from './transformers-runtime.js';

export interface EnsureModelFolderOptions {
  spec: ModelSpec;
  cacheDir: string;
  /** Never touch the network: a model not in the cache is an error. */
  offline: boolean;
  /** `HF_ENDPOINT` mirror; default https://huggingface.co/. */
  hubEndpoint?: string | null;
  progress?: ModelProgressListener;
}

export interface EnsureModelFolderResult {
  folder: string;
  /** True when files were fetched by this call. */
  downloaded: boolean;
}

/** The cache folder of `spec`, downloading it first when it is missing and the network is allowed. */
export async function ensureModelFolder(options: EnsureModelFolderOptions): Promise<EnsureModelFolderResult> {
  const { spec, cacheDir } = options;
  const folder = modelFolderIn(cacheDir, spec);
  const missing = findMissingModelFiles(folder, spec);
  if (missing.length === 0) return { folder, downloaded: false };
  if (options.offline) {
    throw modelUnavailableError({
      spec,
      cacheDir,
      reason: `offline mode (--offline / GROOVE_OFFLINE=1) forbids downloads, and ${missing.join(', ')} ${
        missing.length === 1 ? 'is' : 'are'
      } missing`,
    });
  }
  try {
    await downloadHubModel({
      spec,
      cacheDir,
      hubEndpoint: options.hubEndpoint ?? null,
      ...(options.progress ? { progress: options.progress } : {}),
    });
  } catch (error) {
    throw modelUnavailableError({ spec, cacheDir, reason: summarizeError(error), cause: error });
  }
  const stillMissing = findMissingModelFiles(folder, spec);
  if (stillMissing.length > 0) {
    throw modelUnavailableError({
      spec,
      cacheDir,
      reason: `the download finished without ${stillMissing.join(', ')}`,
    });
  }
  return { folder, downloaded: true };
}

export interface PullModelOptions extends Omit<EnsureModelFolderOptions, 'spec'> {
  /** Registry id or alias of an embedding model or reranker. */
  id: string;
}

export interface PullModelResult extends EnsureModelFolderResult {
  id: string;
  hubRepo: string;
}

/** `groove models pull ID`: download a registered model (no-op when it is already complete). */
export async function pullModel(options: PullModelOptions): Promise<PullModelResult> {
  const spec = findModelSpec(options.id);
  const result = await ensureModelFolder({ ...options, spec });
  return { ...result, id: spec.id, hubRepo: spec.hubRepo };
}
