// One open index: the connection, its document store, meta facts and counts. Part of the composition root.
import fs from 'node:fs';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { DocumentStore } from '../store/document-store.js';
import { type MetaKey, readMeta, writeMeta } from '../store/index-meta.js';
import { openDatabase, removeDatabaseFiles, type SqliteDatabase } from '../store/open-database.js';
import { type IndexIdentity, identityFromMeta, identityToMeta } from './model-identity.js';

export interface RowCounts {
  documents: number;
  chunks: number;
  vectors: number;
  frontmatterErrors: number;
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
  readonly path: string;
  /** Device and inode of the file this connection opened. */
  private readonly fileId: string;

  private constructor(dbPath: string, db: SqliteDatabase) {
    this.path = dbPath;
    this.db = db;
    this.documents = new DocumentStore(db);
    this.fileId = fileIdOf(dbPath) ?? '';
  }

  /** Whether another file now sits at this path (another process's `--force` rebuild renamed it over). */
  replacedOnDisk(): boolean {
    const current = fileIdOf(this.path);
    return current !== null && current !== this.fileId;
  }

  static open(dbPath: string, options: { create: boolean }): IndexDatabase {
    return new IndexDatabase(dbPath, openDatabase(dbPath, { create: options.create }));
  }

  static remove(dbPath: string): void {
    removeDatabaseFiles(dbPath);
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
    return this.db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
  }

  counts(): RowCounts {
    const row = this.db
      .prepare(`SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks,
        (SELECT count(*) FROM chunk_vectors) AS vectors,
        (SELECT count(*) FROM documents WHERE frontmatter_error IS NOT NULL) AS frontmatterErrors`)
      .get() as RowCounts;
    return row;
  }

  sizeBytes(): number {
    let total = 0;
    for (const suffix of ['', '-wal'])
      total += fs.statSync(this.path + suffix, { throwIfNoEntry: false })?.size ?? 0;
    return total;
  }

  /** Settings that change how files become chunks; a change re-parses every file on the next run. */
  chunkPolicyFor(config: ResolvedConfig): string {
    const { maxHeadingLevel, maxChunkBytes, minChunkBytes } = config.chunking;
    return JSON.stringify({
      v: 1,
      maxHeadingLevel,
      maxChunkBytes,
      minChunkBytes,
      exclude: config.excludeHeadings,
    });
  }

  storedChunkPolicy(): string | undefined {
    return this.meta().chunk_policy;
  }

  recordChunkPolicy(chunkPolicy: string): void {
    writeMeta(this.db, { chunk_policy: chunkPolicy });
  }

  finishRun(chunkPolicy: string): void {
    writeMeta(this.db, { chunk_policy: chunkPolicy, last_indexed_at: new Date().toISOString() });
  }

  close(): void {
    this.documents.close();
    if (this.db.open) this.db.close();
  }
}
