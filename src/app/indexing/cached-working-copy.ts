// The machine's cached working copy of a knowledge base in a shared store: kept between runs in the user's cache
// folder and brought up to date by reading only what the store's commits changed since, instead of the whole KB
// every time. Read-only commands (search, status, eval, tune, graph) read it; index and serve copy it into their
// private working copies. One process at a time updates it
// (a gate file beside it); others read it meanwhile (SQLite WAL), and a whole re-read replaces the file atomically.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { grooveFolders } from '../../config/groove-folders.js';
import type { IndexStorage } from '../../core/index-storage.js';
import { sha256Hex } from '../../core/sha256.js';
import { GrooveError } from '../../errors.js';
import { segmentForIndex } from '../../rank/segment-words.js';
import { gatePathFor, withFileGate } from '../../store/file-gate.js';
import {
  applyDelta,
  copyDatabaseInto,
  knownContents,
  readWorkingCopyState,
} from '../../store/working-copy.js';
import { IndexDatabase } from './index-database.js';

/** A whole first read of a large KB can take minutes: others wait for it rather than read it again. */
const GATE_TIMEOUT_MS = 15 * 60_000;

/**
 * Where the cached copy of `kb` at `maskedUrl` lives: groove's cache folder (`$GROOVE_CACHE_DIR`, else
 * `$GROOVE_HOME/cache`, else `$XDG_CACHE_HOME/groove`, else `~/.cache/groove`); a folder only this user can
 * enter, one file per database and KB.
 */
export function cachedWorkingCopyPath(maskedUrl: string, kb: string, env: NodeJS.ProcessEnv): string {
  const base = grooveFolders(env, os.homedir(), process.cwd()).cacheDir;
  try {
    fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new GrooveError('STORAGE_DENIED', `cannot create the working-copy cache folder "${base}"`, {
      hint: 'set GROOVE_CACHE_DIR to a folder you can write',
      cause: error,
    });
  }
  const name = sha256Hex(`${maskedUrl}\0${kb}`).slice(0, 32);
  return path.join(base, `pg-${name}.groove.db`);
}

export type CacheOutcome = 'current' | 'updated' | 'read-whole' | 'absent';

/**
 * Bring the cached copy at `dbPath` up to the store: apply what changed since the version it records (one
 * snapshot, one SQLite transaction), or call `readWhole` when it records none, the change log no longer reaches
 * back, or the file is not a usable index.
 */
export function syncCachedCopy(
  storage: IndexStorage,
  dbPath: string,
  readWhole: () => Promise<boolean>,
): Promise<CacheOutcome> {
  return withFileGate(
    gatePathFor(dbPath),
    async () => {
      const applied = await applyChangesSince(storage, dbPath);
      if (applied !== null) return applied;
      return (await readWhole()) ? 'read-whole' : 'absent';
    },
    { timeoutMs: GATE_TIMEOUT_MS, guards: `the cached working copy "${dbPath}"` },
  );
}

/** The changes applied in place, or null when the copy must be read whole. */
async function applyChangesSince(storage: IndexStorage, dbPath: string): Promise<CacheOutcome | null> {
  if (!IndexDatabase.exists(dbPath)) return null;
  let database: IndexDatabase;
  try {
    database = IndexDatabase.open(dbPath, { create: false });
  } catch {
    return null; // damaged or from another groove version: read it again
  }
  try {
    const state = readWorkingCopyState(database.db);
    if (state === null) return null;
    const { touchedChunkIds: _none, ...known } = knownContents(database.db, []);
    const read = await storage.readSince(state.version, known);
    if (read.kind === 'reload') return null;
    if (read.kind === 'absent') return 'absent';
    const { delta, version } = read;
    const changed = delta.removedIds.length + delta.added.length + delta.touched.length > 0;
    if (!changed && version === state.version && delta.generation === state.generation) return 'current';
    applyDelta(database.db, delta, segmentForIndex, { version, generation: delta.generation });
    return 'updated';
  } finally {
    database.close();
  }
}

/**
 * Copy the cached copy at `cachePath` into a new file at `target` in one read transaction (a consistent state,
 * whatever another process applies meanwhile).
 */
export function copyCachedCopy(cachePath: string, target: string): void {
  const database = IndexDatabase.open(cachePath, { create: false });
  try {
    copyDatabaseInto(database.db, target);
  } finally {
    database.close();
  }
}
