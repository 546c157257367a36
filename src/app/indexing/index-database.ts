// One open index: the connection, its document store, meta facts and counts. Part of the composition root.
import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { NOTE_LINK_RULES } from '../../document/note-links.js';
import { GrooveError, storageFailure } from '../../errors.js';
import { DocumentStore } from '../../store/document-store.js';
import { EmbeddingQueue } from '../../store/embedding-queue.js';
import { countDocuments, countIndexRows, type RowCounts } from '../../store/index-counts.js';
import {
  type MetaKey,
  type OwnerFacts,
  peekOwnerFacts,
  readMeta,
  writeMeta,
} from '../../store/index-meta.js';
import { createLinkReader, type LinkTally } from '../../store/link-edges.js';
import {
  inspectIndexFile,
  notAnIndexError,
  openDatabase,
  removeDatabaseFiles,
  type SqliteDatabase,
  unreadableIndexError,
} from '../../store/open-database.js';
import {
  decodeSkippedFiles,
  encodeSkippedFiles,
  mergeSkippedFiles,
  type SkippedFile,
} from '../../store/skipped-files.js';
import { type IndexIdentity, identityFromMeta, identityToMeta } from '../embedding/index.js';
import { acquireIndexLock, type IndexLock } from './index-lock.js';

/** Where a forced rebuild builds its new file, beside the index. */
export function rebuildPathOf(dbPath: string): string {
  return `${dbPath}.rebuild`;
}

/** Every file groove may keep for one index: the index, SQLite's companions, the lock, a rebuild's files. */
export function indexFilePaths(dbPath: string): string[] {
  const sqliteFiles = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
  return [
    ...sqliteFiles(dbPath),
    ...sqliteFiles(rebuildPathOf(dbPath)),
    `${dbPath}.lock`,
    `${dbPath}.before-rebuild`,
  ];
}

/** Whether `file` is `folder` itself or lies below it (both absolute and already resolved). */
export function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The index path with every symlink resolved (the file itself may not exist yet; its folder must). */
function resolvedIndexPath(dbPath: string, folder: string): string {
  const link = fs.lstatSync(dbPath, { throwIfNoEntry: false });
  if (link?.isSymbolicLink()) {
    try {
      return fs.realpathSync(dbPath);
    } catch {
      throw new GrooveError('INVALID_ARGUMENT', `the index path "${dbPath}" is a symbolic link to nothing`, {
        hint: 'pass --db-path the file itself, or remove the broken link',
      });
    }
  }
  return path.join(fs.realpathSync(folder), path.basename(dbPath));
}

/**
 * Refuse an index path groove must not use, before any work and without creating anything: inside the KB
 * (symlinks resolved; groove never writes among the notes), a folder or other non-file, a missing parent
 * folder, or one that cannot be written.
 */
export function checkIndexLocation(kbPath: string, dbPath: string): void {
  const folder = path.dirname(path.resolve(dbPath));
  const folderStat = fs.statSync(folder, { throwIfNoEntry: false });
  if (!folderStat) {
    throw new GrooveError(
      'INVALID_ARGUMENT',
      `the folder of the index path "${dbPath}" does not exist: "${folder}"`,
      {
        hint: 'create that folder, or pass --db-path in an existing one',
      },
    );
  }
  if (!folderStat.isDirectory()) {
    throw new GrooveError(
      'INVALID_ARGUMENT',
      `the index path "${dbPath}" is below "${folder}", which is not a folder`,
      {
        hint: 'pass --db-path a file in an existing folder',
      },
    );
  }
  if (isInside(fs.realpathSync(kbPath), resolvedIndexPath(dbPath, folder))) {
    throw new GrooveError(
      'INVALID_ARGUMENT',
      `the index path "${dbPath}" is inside the knowledge base "${kbPath}"`,
      {
        hint: "pass a --db-path outside the KB folder, or leave it out: the index then lives in the KB's own folder under groove's data folder",
      },
    );
  }
  const stat = fs.statSync(dbPath, { throwIfNoEntry: false });
  if (stat && !stat.isFile()) {
    const what = stat.isDirectory() ? 'a folder' : 'not a regular file';
    throw new GrooveError('INVALID_ARGUMENT', `the index path "${dbPath}" is ${what}`, {
      hint: `pass --db-path a file name, e.g. "${path.join(dbPath, '..', 'kb.groove.db')}"`,
    });
  }
  try {
    fs.accessSync(folder, fs.constants.W_OK);
  } catch (error) {
    throw storageFailure(error, dbPath) ?? error;
  }
}

function fileIdOf(filePath: string): string | null {
  try {
    const stat = fs.statSync(filePath);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return null;
  }
}

export class IndexDatabase {
  readonly db: SqliteDatabase;
  readonly documents: DocumentStore;
  readonly embeddingQueue: EmbeddingQueue;
  readonly path: string;
  /** Device and inode of the file this connection opened. */
  private readonly fileId: string;

  private constructor(dbPath: string, db: SqliteDatabase) {
    this.path = dbPath;
    this.db = db;
    this.documents = new DocumentStore(db);
    this.embeddingQueue = new EmbeddingQueue(db);
    this.fileId = fileIdOf(dbPath) ?? '';
  }

  /** Whether another file now sits at this path (another process's `--force` rebuild renamed it over). */
  replacedOnDisk(): boolean {
    const current = fileIdOf(this.path);
    return current !== null && current !== this.fileId;
  }

  /** Whether a file exists at the index path (it may not be an index). */
  static exists(dbPath: string): boolean {
    return fs.existsSync(dbPath);
  }

  /** `kbPath`: the folder the index is for, named in the hint when there is no index yet. */
  static open(dbPath: string, options: { create: boolean; kbPath?: string }): IndexDatabase {
    return new IndexDatabase(dbPath, openDatabase(dbPath, options));
  }

  /** Which KB the index at `dbPath` belongs to, read-only; null when it is not a readable groove index. */
  static peekOwner(
    dbPath: string,
    sampleSize: number,
    wantSample: (meta: Partial<Record<MetaKey, string>>) => boolean,
  ): OwnerFacts | null {
    return peekOwnerFacts(dbPath, sampleSize, wantSample);
  }

  static remove(dbPath: string): void {
    removeDatabaseFiles(dbPath);
  }

  /**
   * Take the writer lock, then remove what a killed `--force` left (its rebuild file and WAL/SHM): a rebuild
   * only runs under this lock, so while we hold it no rebuild is alive.
   */
  static lockForWriting(dbPath: string): IndexLock {
    const lock = acquireIndexLock(dbPath);
    try {
      removeDatabaseFiles(rebuildPathOf(dbPath));
    } catch (error) {
      lock.release();
      throw error;
    }
    return lock;
  }

  /** Refuse a `--force` over a file that is not groove's: only an index (healthy or damaged) is ever replaced. */
  static assertReplaceable(dbPath: string): void {
    const kind = inspectIndexFile(dbPath);
    if (kind === 'foreign') throw notAnIndexError(dbPath);
  }

  /** A writer's failure in groove's terms: no room or no permission, or a damaged index; others unchanged. */
  static explainFailure(error: unknown, dbPath: string): unknown {
    const storage = storageFailure(error, dbPath);
    if (storage) return storage;
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB|IOERR)/.test(code))
      return unreadableIndexError(dbPath, error);
    // Any other file-system error (say, the path was changed under the run): named, never raw.
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      const call = (error as NodeJS.ErrnoException).syscall ?? 'a file operation';
      return new GrooveError('FILE_WRITE_FAILED', `writing the index "${dbPath}" failed: ${call} (${code})`, {
        cause: error,
        hint: 'check that the index path is a file in a folder you can write, then run again',
      });
    }
    return error;
  }

  /** Move a finished rebuild over the live index (the old WAL/SHM go first so they cannot replay onto it). */
  static replace(fromPath: string, toPath: string): void {
    for (const suffix of ['-wal', '-shm']) fs.rmSync(toPath + suffix, { force: true });
    fs.renameSync(fromPath, toPath);
  }

  meta(): Partial<Record<MetaKey, string>> {
    return readMeta(this.db);
  }

  identity(): IndexIdentity | null {
    return identityFromMeta(this.meta());
  }

  writeIdentity(identity: IndexIdentity): void {
    writeMeta(this.db, identityToMeta(identity));
  }

  documentCount(): number {
    return countDocuments(this.db);
  }

  counts(): RowCounts {
    return countIndexRows(this.db);
  }

  /** Every stored note link resolved now: how many, and how many name a note that is not indexed. */
  linkTally(noteExtensions: readonly string[], sampleLimit = 0): LinkTally {
    return createLinkReader(this.db).tallyLinks(noteExtensions, sampleLimit);
  }

  sizeBytes(): number {
    let total = 0;
    for (const suffix of ['', '-wal'])
      total += fs.statSync(this.path + suffix, { throwIfNoEntry: false })?.size ?? 0;
    return total;
  }

  /**
   * Settings and rules that change what a file becomes in the index (chunks, note links); a change re-parses every
   * file on the next run. The link rules' version is in it, so an index from before links (schema 4 or older), or from an
   * older version of the rules, gets every note's links on its next run.
   */
  chunkPolicyFor(config: ResolvedConfig): string {
    const { maxHeadingLevel, maxChunkBytes, minChunkBytes } = config.chunking;
    return JSON.stringify({
      v: 1,
      maxHeadingLevel,
      maxChunkBytes,
      minChunkBytes,
      exclude: config.excludeHeadings,
      links: NOTE_LINK_RULES,
    });
  }

  storedChunkPolicy(): string | undefined {
    return this.meta().chunk_policy;
  }

  recordChunkPolicy(chunkPolicy: string): void {
    writeMeta(this.db, { chunk_policy: chunkPolicy });
  }

  /** Replace the record of refused files with this run's (`groove doctor` reports them). */
  /** The run's refusals: the whole record, or (`onlyPaths`) those paths' entries of it. */
  recordSkippedFiles(files: readonly SkippedFile[], onlyPaths?: readonly string[]): void {
    if (onlyPaths === undefined) {
      writeMeta(this.db, { skipped_files: encodeSkippedFiles(files) });
      return;
    }
    const previous = decodeSkippedFiles(this.meta().skipped_files);
    const merged = mergeSkippedFiles(previous, new Set(onlyPaths), files);
    writeMeta(this.db, { skipped_files: encodeSkippedFiles(merged.files, merged.total) });
  }

  /** `windows` once every vector of an input over the model's limit was made from all of its windows. */
  longInputs(): string | undefined {
    return this.meta().long_inputs;
  }

  recordLongInputsInWindows(): void {
    writeMeta(this.db, { long_inputs: 'windows' });
  }

  /** Record the KB the index belongs to and the settings that decide which files it holds. */
  recordShaping(owner: Partial<Record<MetaKey, string>>, shapingSettings: string): void {
    writeMeta(this.db, { ...owner, shaping_settings: shapingSettings });
  }

  finishRun(chunkPolicy: string): void {
    writeMeta(this.db, { chunk_policy: chunkPolicy, last_indexed_at: new Date().toISOString() });
  }

  close(): void {
    this.documents.close();
    if (this.db.open) this.db.close();
  }
}
