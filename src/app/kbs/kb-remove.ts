// `groove kb remove NAME [--delete-index]`: unregister a KB; its folder is never touched, and its index is kept
// unless --delete-index asks for it. An index another registered KB also uses, or one a writer holds, is
// refused before the registry changes. A `groove serve` serving the KB stops serving it and closes its index
// when it sees the registry change; --delete-index deletes only once no server has the index open
// (`indexReleased`), else the KB stays unregistered with its index kept (INDEX_BUSY).
import fs from 'node:fs';
import type { KbEntry, KbRegistry } from '../../config/kb-registry.js';
import { GrooveError } from '../../errors.js';
import { inspectIndexLock } from '../indexing/index.js';
import { kbSettings } from './kb-overview.js';
import { type KbCommandContext, unregisterKb } from './registry-edits.js';

export interface KbRemoval {
  entry: KbEntry;
  /** The files deleted with --delete-index (empty without it, or when there was no index). */
  deletedFiles: string[];
}

const INDEX_FILE_SUFFIXES = ['', '-wal', '-shm', '.lock'];

export interface RemoveKbOptions {
  deleteIndex: boolean;
  /** Resolves true once no running server has the index at `dbPath` open (it waits a while), else false. */
  indexReleased?: (dbPath: string) => Promise<boolean>;
}

export async function removeKb(
  name: string,
  options: RemoveKbOptions,
  context: KbCommandContext,
): Promise<KbRemoval> {
  const { entry, prepared } = await unregisterKb(name, context, (found, registry) =>
    options.deleteIndex ? indexFilesOf(found, registry, context) : [],
  );
  const dbPath = prepared[0];
  if (dbPath !== undefined && options.indexReleased && !(await options.indexReleased(dbPath))) {
    throw new GrooveError(
      'INDEX_BUSY',
      `KB "${entry.name}" is unregistered, but a running groove serve still has its index "${dbPath}" open, so the index is kept`,
      { hint: `stop that server, then delete ${dbPath} and its -wal and -shm files yourself` },
    );
  }
  const deletedFiles: string[] = [];
  for (const file of prepared) {
    if (!fs.existsSync(file)) continue;
    fs.rmSync(file, { force: true });
    deletedFiles.push(file);
  }
  return { entry, deletedFiles };
}

/** The files of the KB's SQLite index, after checking that no other KB uses it and no writer holds it. */
function indexFilesOf(entry: KbEntry, registry: KbRegistry, context: KbCommandContext): string[] {
  const config = kbSettings(entry.name, context);
  if (config.storage.backend === 'postgres' || config.dbPath === null) {
    throw new GrooveError(
      'STORAGE_UNSUPPORTED',
      `the index of KB "${entry.name}" is not a file groove can delete`,
      {
        hint: 'remove it without --delete-index, and drop its rows in the database yourself',
      },
    );
  }
  const dbPath = config.dbPath;
  for (const other of registry.entries) {
    if (other.name === entry.name || !sharesIndex(other.name, dbPath, context)) continue;
    throw new GrooveError('KB_CONFLICT', `KB "${other.name}" uses the same index "${dbPath}"`, {
      hint: 'remove it without --delete-index (the index stays for the other KB)',
    });
  }
  const lock = inspectIndexLock(dbPath);
  if (lock.kind === 'held' || lock.kind === 'other-host') {
    throw new GrooveError('INDEX_BUSY', `index "${dbPath}" is being written by process ${lock.owner.pid}`, {
      hint: 'wait for that run to finish, or stop it, then remove the KB again',
    });
  }
  return INDEX_FILE_SUFFIXES.map((suffix) => `${dbPath}${suffix}`);
}

/** Whether the KB `name` resolves to the index `dbPath` (a KB whose settings do not resolve is not counted). */
function sharesIndex(name: string, dbPath: string, context: KbCommandContext): boolean {
  try {
    return kbSettings(name, context).dbPath === dbPath;
  } catch {
    return false;
  }
}
