// A knowledge base kept in a shared store ([storage] backend = "postgres"): its SQLite working copy in a private
// temp folder, filled from the store before reads and indexing, and written back after indexing. Composition
// root: the only app file that builds the PostgreSQL adapter (imported lazily, so SQLite users never load `pg`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { maskDatabaseUrl } from '../../core/database-url.js';
import type { IndexContents, IndexStorage, WriteBackSummary } from '../../core/index-storage.js';
import { segmentForIndex } from '../../core/segment-words.js';
import { GrooveError } from '../../errors.js';
import { loadWorkingCopy, readWorkingCopy } from '../../store/working-copy.js';
import { adoptIndexModel, embedderIdOf } from '../models/index.js';
import { IndexDatabase } from './index-database.js';
import type { IndexSummary } from './index-events.js';
import { writeBack } from './write-back.js';

/** The commands a shared store does not serve yet: each refuses before doing anything. */
export function unsupportedOnSharedStore(what: string): GrooveError {
  return new GrooveError(
    'STORAGE_UNSUPPORTED',
    `${what} is not supported yet with [storage] backend = "postgres"`,
    {
      hint: 'use [storage] backend = "sqlite" for it; index, search, status, eval, tune and the browse commands work on postgres',
    },
  );
}

export class SharedIndex {
  /** The working copy every SQLite code path runs on. */
  readonly dbPath: string;
  /** For people: the URL with its password masked, and the KB's name. */
  readonly location: string;
  private storage: Promise<IndexStorage> | null = null;
  /** What the store held at the last read (null: the KB was never written); undefined before the first read. */
  private stored: IndexContents | null | undefined = undefined;

  private constructor(
    private readonly url: string,
    private readonly kb: string,
    private readonly folder: string,
  ) {
    this.dbPath = path.join(folder, 'working-copy.groove.db');
    this.location = `${maskDatabaseUrl(url)} (kb "${kb}")`;
  }

  /** null for the SQLite backend. */
  static of(config: ResolvedConfig): SharedIndex | null {
    const { backend, url, kb } = config.storage;
    if (backend !== 'postgres' || url === null) return null;
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-working-copy-'));
    return new SharedIndex(url, kb, folder);
  }

  private connect(): Promise<IndexStorage> {
    this.storage ??= import('../../store/postgres/pg-storage.js').then(({ PostgresStorage }) =>
      PostgresStorage.open({ url: this.url, kb: this.kb }),
    );
    const opening = this.storage;
    opening.catch(() => {
      if (this.storage === opening) this.storage = null; // the next call tries again
    });
    return opening;
  }

  /**
   * `groove index` on the shared store. Stages: read it into the working copy → check it can hold vectors when
   * the KB has a model (before any model work) → `run` (the SQLite indexer on the working copy) → write back what
   * changed, one document per transaction. The run's time includes reading and writing back.
   */
  async update(settings: ResolvedConfig, run: () => Promise<IndexSummary>): Promise<IndexSummary> {
    const startedAt = performance.now();
    await this.refresh();
    const database = IndexDatabase.open(this.dbPath, { create: false });
    let followed: ResolvedConfig;
    try {
      const stored = database.identity();
      followed = stored ? adoptIndexModel(settings, stored) : settings;
    } finally {
      database.close();
    }
    if (embedderIdOf(followed) !== 'none') await this.requireVectors();
    const summary = await run();
    await this.writeBack();
    return { ...summary, durationMs: Math.round(performance.now() - startedAt) };
  }

  /** `groove index --force`: `run` on a fresh working copy, written into a new KB swapped in atomically. */
  async rebuild(settings: ResolvedConfig, run: () => Promise<IndexSummary>): Promise<IndexSummary> {
    const startedAt = performance.now();
    if (embedderIdOf(settings) !== 'none') await this.requireVectors();
    await this.startRebuild();
    const summary = await run();
    await this.finishRebuild();
    return { ...summary, durationMs: Math.round(performance.now() - startedAt) };
  }

  /** Read the store into the working copy once (reads); INDEX_NOT_FOUND when this KB was never indexed. */
  async ensureRead(): Promise<void> {
    if (this.stored === undefined) await this.refresh();
    if (this.stored === null) {
      throw new GrooveError(
        'INDEX_NOT_FOUND',
        `no index for knowledge base "${this.kb}" in ${maskDatabaseUrl(this.url)}`,
        {
          hint: 'run `groove index` with the same [storage] settings first',
        },
      );
    }
  }

  /**
   * Read the store into a new working copy and move it over the old one, so a session open on the old file
   * notices (replacedOnDisk) and reopens. A long-lived reader calls this when told the store changed.
   */
  async refresh(): Promise<void> {
    const storage = await this.connect();
    const contents = await storage.readContents();
    const building = `${this.dbPath}.pull`;
    IndexDatabase.remove(building);
    const database = IndexDatabase.open(building, { create: true });
    try {
      if (contents) loadWorkingCopy(database.db, contents, segmentForIndex);
    } finally {
      database.close();
    }
    IndexDatabase.replace(building, this.dbPath);
    this.stored = contents;
  }

  /**
   * Start a `--force` rebuild: an empty working copy holding only the judgments the store has (they are not
   * derived from the files, so a rebuild keeps them).
   */
  private async startRebuild(): Promise<void> {
    const storage = await this.connect();
    const current = await storage.readContents();
    IndexDatabase.remove(this.dbPath);
    const database = IndexDatabase.open(this.dbPath, { create: true });
    try {
      const judgments = {
        meta: new Map<string, string>(),
        terms: new Map<string, number>(),
        documents: [],
        feedbackServes: current?.feedbackServes ?? [],
        feedbackItems: current?.feedbackItems ?? [],
        generation: 0,
      };
      loadWorkingCopy(database.db, judgments, segmentForIndex);
    } finally {
      database.close();
    }
    this.stored = null;
  }

  /**
   * Write the rebuilt working copy into a new, hidden KB and swap it in under the KB's name in one transaction:
   * readers see the old index until the swap, the new one after; a rebuild cut off before the swap changes
   * nothing (its hidden KB is dropped by the next rebuild).
   */
  private async finishRebuild(): Promise<WriteBackSummary> {
    const storage = await this.connect();
    await storage.beginRebuild();
    const summary = await writeBack(storage, null, this.readBack());
    await storage.finishRebuild();
    this.stored = undefined;
    return summary;
  }

  private readBack(): IndexContents {
    const database = IndexDatabase.open(this.dbPath, { create: false });
    try {
      return readWorkingCopy(database.db);
    } finally {
      database.close();
    }
  }

  /** Make room for vectors before a run with a model embeds anything (STORAGE_EXTENSION_MISSING without pgvector). */
  private async requireVectors(): Promise<void> {
    await (await this.connect()).requireVectors();
  }

  /** Write the working copy's changes since the last read back to the store; the next read reads it again. */
  private async writeBack(): Promise<WriteBackSummary> {
    const storage = await this.connect();
    const summary = await writeBack(storage, this.stored ?? null, this.readBack());
    this.stored = undefined;
    return summary;
  }

  async close(): Promise<void> {
    const storage = await this.storage?.catch(() => null);
    await storage?.close();
    fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
