// Getting a registered model onto disk: `groove models pull ID`, and the implicit pull on first use.
// Order: groove's model cache, when it holds every pinned file; else a Hugging Face hub cache snapshot that does
// (read in place); else, unless offline, a download of the missing files from the pinned revision. Every file
// is checked against its pin (verified-files.ts); a mismatch is MODEL_CHECKSUM and nothing is replaced.
// Offline mode never downloads; it answers with the error that lists the three fixes.

import path from 'node:path';
import { GrooveError } from '../errors.js';
import { sweepDeadTempFiles } from './download-temp-files.js';
import { hubSnapshotsFor } from './hub-cache.js';
import { type HubSettings, resolveHubSettings } from './hub-settings.js';
import { checksumError, modelFolderIn, modelUnavailableError } from './model-cache.js';
import { type ModelPin, pinFor } from './model-pins.js';
import type { ModelProgressListener } from './model-progress.js';
import { EMBEDDING_MODELS, findModelSpec, type ModelSpec, RERANKER_MODELS } from './model-registry.js';
import { summarizeError } from './transformers-runtime.js';
import { checkPinnedFiles, type FileState } from './verified-files.js';

export interface EnsureModelFolderOptions {
  spec: ModelSpec;
  cacheDir: string;
  /** Never touch the network: a model in neither cache is an error. */
  offline: boolean;
  /** `HF_ENDPOINT` mirror; default https://huggingface.co. */
  hubEndpoint?: string | null;
  /** Token, proxies, the Hugging Face cache, pins and network limits. */
  hub?: HubSettings;
  progress?: ModelProgressListener;
}

export interface EnsureModelFolderResult {
  folder: string;
  /** True when files were fetched by this call. */
  downloaded: boolean;
  /** Where the files are: groove's model cache, or a Hugging Face hub cache snapshot. */
  source: 'cache' | 'hub-cache';
}

/** The file that remembers which cached files were verified (verified-files.ts). */
export function verificationRecordPath(cacheDir: string, spec: ModelSpec): string {
  return path.join(cacheDir, '.verified', `${spec.id}.json`);
}

function firstMismatch(states: FileState[]) {
  return states.find((s): s is Extract<FileState, { status: 'mismatch' }> => s.status === 'mismatch');
}

function describeMismatch(state: Extract<FileState, { status: 'mismatch' }>, pin: ModelPin): string {
  const pinned = pin.files[state.file];
  if (state.sha256 === null) return `it has ${state.size} bytes, the pin says ${pinned?.size}`;
  return `its SHA-256 is ${state.sha256}, the pin says ${pinned?.sha256}`;
}

/** Remove leftovers of downloads that died without cleaning up, in every registered model's cache folder. */
function sweepLeftovers(cacheDir: string): void {
  for (const spec of [...EMBEDDING_MODELS, ...RERANKER_MODELS])
    sweepDeadTempFiles(modelFolderIn(cacheDir, spec));
}

/** A Hugging Face cache snapshot holding every pinned file, or null; a damaged pinned snapshot is an error. */
async function findInHubCache(options: EnsureModelFolderOptions, pin: ModelPin): Promise<string | null> {
  const { spec } = options;
  const recordPath = verificationRecordPath(options.cacheDir, spec);
  for (const snapshot of hubSnapshotsFor(options.hub?.hubCacheDir ?? null, spec, pin)) {
    const states = await checkPinnedFiles(snapshot.folder, pin.files, recordPath);
    if (states.some((s) => s.status === 'missing')) continue;
    const mismatch = firstMismatch(states);
    if (!mismatch) return snapshot.folder;
    if (!snapshot.pinned) continue;
    const hint = `delete "${snapshot.folder}" (a damaged Hugging Face cache entry) or point HF_HUB_CACHE elsewhere, then run groove models pull ${spec.id}`;
    throw checksumError(
      spec,
      mismatch.file,
      `in "${snapshot.folder}"`,
      describeMismatch(mismatch, pin),
      hint,
    );
  }
  return null;
}

async function download(options: EnsureModelFolderOptions, pin: ModelPin, files: string[]): Promise<void> {
  const { spec, cacheDir } = options;
  const { downloadPinnedModel } = await import('./hub-download.js');
  try {
    await downloadPinnedModel({
      spec,
      pin,
      folder: modelFolderIn(cacheDir, spec),
      files,
      settings: resolveHubSettings(options.hubEndpoint, options.hub),
      recordPath: verificationRecordPath(cacheDir, spec),
      ...(options.progress ? { progress: options.progress } : {}),
    });
  } catch (error) {
    if (error instanceof GrooveError && error.code === 'MODEL_CHECKSUM') throw error;
    throw modelUnavailableError({ spec, cacheDir, reason: summarizeError(error), cause: error });
  }
}

/** The folder holding `spec`'s pinned files, downloading what is missing when the network is allowed. */
export async function ensureModelFolder(options: EnsureModelFolderOptions): Promise<EnsureModelFolderResult> {
  const { spec, cacheDir } = options;
  const pin = pinFor(spec, options.hub?.pins);
  sweepLeftovers(cacheDir);
  const folder = modelFolderIn(cacheDir, spec);
  const states = await checkPinnedFiles(folder, pin.files, verificationRecordPath(cacheDir, spec));
  const mismatch = firstMismatch(states);
  if (mismatch) {
    const hint = `delete "${folder}" and run groove models pull ${spec.id}`;
    throw checksumError(spec, mismatch.file, `in "${folder}"`, describeMismatch(mismatch, pin), hint);
  }
  const missing = states.filter((s) => s.status === 'missing').map((s) => s.file);
  if (missing.length === 0) return { folder, downloaded: false, source: 'cache' };
  const inHubCache = await findInHubCache(options, pin);
  if (inHubCache) return { folder: inHubCache, downloaded: false, source: 'hub-cache' };
  if (options.offline) {
    throw modelUnavailableError({
      spec,
      cacheDir,
      reason: `offline mode (--offline, GROOVE_OFFLINE, HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE) forbids downloads, and ${missing.join(', ')} ${
        missing.length === 1 ? 'is' : 'are'
      } missing`,
    });
  }
  await download(options, pin, missing);
  return { folder, downloaded: true, source: 'cache' };
}

export interface PullModelOptions extends Omit<EnsureModelFolderOptions, 'spec'> {
  /** Registry id or alias of an embedding model or reranker. */
  id: string;
}

export interface PullModelResult extends EnsureModelFolderResult {
  id: string;
  hubRepo: string;
  /** The commit the files are pinned to. */
  revision: string;
}

/** `groove models pull ID`: download a registered model (no-op when it is already complete). */
export async function pullModel(options: PullModelOptions): Promise<PullModelResult> {
  const spec = findModelSpec(options.id);
  const result = await ensureModelFolder({ ...options, spec });
  return {
    ...result,
    id: spec.id,
    hubRepo: spec.hubRepo,
    revision: pinFor(spec, options.hub?.pins).revision,
  };
}
