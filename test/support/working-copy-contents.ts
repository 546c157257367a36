// What a shared store's SQLite working copy holds, for comparing two copies: everything readWorkingCopy reads,
// without the text generation each copy counts for itself. Test-only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readWorkingCopy } from '../../src/store/working-copy.js';

export function workingCopyContents(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  try {
    const contents = readWorkingCopy(db);
    const meta = [...contents.meta].filter(([key]) => key !== 'text_generation').sort();
    return { ...contents, meta };
  } finally {
    db.close();
  }
}

/**
 * Open something (a facade) whose working copy must come from a whole read of the store: it gets a cache folder
 * of its own, empty, so no other facade's cached copy can stand in for the store. Test-only.
 */
export function withOwnCache<T>(open: () => T): T {
  const saved = process.env.GROOVE_CACHE_DIR;
  process.env.GROOVE_CACHE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-own-cache-'));
  try {
    return open();
  } finally {
    if (saved === undefined) delete process.env.GROOVE_CACHE_DIR;
    else process.env.GROOVE_CACHE_DIR = saved;
  }
}
