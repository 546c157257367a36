// The model cache directory: where it is, where each registered model lives inside it, whether a model is
// fully downloaded, and the error that explains how to get a model that is not there.

import fs from 'node:fs';
import path from 'node:path';
import { GrooveError } from '../errors.js';
import { hubSnapshotsFor } from './hub-cache.js';
import { pinFor } from './model-pins.js';
import { EMBEDDING_MODELS, type ModelSpec, RERANKER_MODELS, requiredModelFiles } from './model-registry.js';

export interface ResolveModelCacheDirOptions {
  /** `model_dir` from groove.toml, already resolved against the config file's directory. */
  configured?: string | null;
  /** Process environment; `GROOVE_MODEL_DIR` wins over the config. Empty values count as unset. */
  env: Record<string, string | undefined>;
  homeDir: string;
  platform: NodeJS.Platform;
}

/** `GROOVE_MODEL_DIR` (must be absolute) › `model_dir` › the OS cache dir + `groove/models`. */
export function resolveModelCacheDir(options: ResolveModelCacheDirOptions): string {
  const fromEnv = options.env.GROOVE_MODEL_DIR;
  if (fromEnv) {
    if (!path.isAbsolute(fromEnv)) {
      throw new GrooveError(
        'CONFIG_INVALID',
        `GROOVE_MODEL_DIR must be an absolute path, got "${fromEnv}".`,
        {
          hint: 'set GROOVE_MODEL_DIR to an absolute directory, or unset it',
        },
      );
    }
    return fromEnv;
  }
  if (options.configured) return path.resolve(options.configured);
  const { env, homeDir } = options;
  if (options.platform === 'win32') {
    return path.join(env.LOCALAPPDATA || path.join(homeDir, 'AppData', 'Local'), 'groove', 'models');
  }
  if (options.platform === 'darwin') return path.join(homeDir, 'Library', 'Caches', 'groove', 'models');
  const xdg = env.XDG_CACHE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir, '.cache'), 'groove', 'models');
}

/** Where a registered model's files live in the cache: `<cacheDir>/<owner>/<repo>` (the transformers.js layout). */
export function modelFolderIn(cacheDir: string, spec: ModelSpec): string {
  return path.join(cacheDir, ...spec.hubRepo.split('/'));
}

/** Required files missing (or empty) in a model folder, relative to it. */
export function findMissingModelFiles(folder: string, spec: ModelSpec): string[] {
  return requiredModelFiles(spec).filter((file) => {
    try {
      return fs.statSync(path.join(folder, file)).size === 0;
    } catch {
      return true;
    }
  });
}

export function isModelDownloaded(cacheDir: string, spec: ModelSpec): boolean {
  return findMissingModelFiles(modelFolderIn(cacheDir, spec), spec).length === 0;
}

export interface ModelListEntry {
  id: string;
  kind: ModelSpec['kind'];
  hubRepo: string;
  /** Null for rerankers. */
  dimension: number | null;
  languages: string;
  downloadMB: number;
  downloaded: boolean;
  folder: string;
}

/** Where `spec`'s files are: groove's cache folder when complete, else a complete hub-cache snapshot, else null. */
function presentFolder(cacheDir: string, hubCacheDir: string | null, spec: ModelSpec): string | null {
  if (isModelDownloaded(cacheDir, spec)) return modelFolderIn(cacheDir, spec);
  const snapshot = hubSnapshotsFor(hubCacheDir, spec, pinFor(spec)).find(
    (s) => findMissingModelFiles(s.folder, spec).length === 0,
  );
  return snapshot?.folder ?? null;
}

/**
 * Every registered model with its download state, for `groove models list`: present in groove's cache or in the
 * Hugging Face hub cache (by its files being there; they are verified when the model is opened). Never touches
 * the network.
 */
export function listModels(cacheDir: string, hubCacheDir: string | null = null): ModelListEntry[] {
  return [...EMBEDDING_MODELS, ...RERANKER_MODELS].map((spec) => {
    const present = presentFolder(cacheDir, hubCacheDir, spec);
    return {
      id: spec.id,
      kind: spec.kind,
      hubRepo: spec.hubRepo,
      dimension: spec.kind === 'embedding' ? spec.dimension : null,
      languages: spec.languages,
      downloadMB: spec.downloadMB,
      downloaded: present !== null,
      folder: present ?? modelFolderIn(cacheDir, spec),
    };
  });
}

export interface ModelUnavailableDetails {
  spec: ModelSpec;
  cacheDir: string;
  /** Why it could not be obtained, e.g. `offline mode` or a network error. */
  reason: string;
  cause?: unknown;
}

/** The one error for "this model is not here and cannot be fetched", with the three ways out. */
export function modelUnavailableError(details: ModelUnavailableDetails): GrooveError {
  const { spec, cacheDir, reason } = details;
  const folder = modelFolderIn(cacheDir, spec);
  const noneFix = spec.kind === 'embedding' ? '--model none (lexical-only index)' : '--reranker none';
  const message =
    `Model "${spec.id}" (${spec.hubRepo}) is not in the model cache at "${folder}" and could not be ` +
    `downloaded: ${reason}. Fix it in one of three ways: (1) connect to the network once and rerun, ` +
    `(2) run \`groove models pull ${spec.id}\` on a connected machine and copy its "${spec.hubRepo}" folder ` +
    `to "${folder}", or (3) use ${noneFix}.`;
  return new GrooveError('MODEL_UNAVAILABLE', message, {
    hint: `groove models pull ${spec.id}`,
    cause: details.cause,
  });
}

/** A file that is not the pinned one: `source` says where it came from, `hint` how to get the right one. */
export function checksumError(
  spec: ModelSpec,
  file: string,
  source: string,
  detail: string,
  hint: string,
): GrooveError {
  return new GrooveError(
    'MODEL_CHECKSUM',
    `Model "${spec.id}" file ${file} ${source} does not match the size and SHA-256 groove pins for it: ${detail}.`,
    { hint },
  );
}
