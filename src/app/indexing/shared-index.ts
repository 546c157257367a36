// A knowledge base kept in a shared store ([storage] backend = "postgres"): its SQLite working copy in a private
// temp folder, filled from the store before reads and indexing, and written back after indexing. Composition
// root: the only app file that builds the PostgreSQL adapter (imported lazily, so SQLite users never load `pg`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { maskDatabaseUrl } from '../../core/database-url.js';
import type {
  CommitBatch,
  IndexContents,
  IndexStorage,
  ReplicaState,
  Replication,
  WriteBackSummary,
} from '../../core/index-storage.js';
import { describeError, GrooveError } from '../../errors.js';
import { segmentForIndex } from '../../rank/segment-words.js';
import {
  applyDelta,
  knownContents,
  loadWorkingCopy,
  readLeanContents,
  readWorkingCopy,
  readWorkingCopyChanges,
  readWorkingCopyState,
  writeWorkingCopyState,
} from '../../store/working-copy.js';
import { cachedWorkingCopyPath, copyCachedCopy, syncCachedCopy } from './cached-working-copy.js';
import { IndexDatabase } from './index-database.js';
import type { IndexSummary } from './index-events.js';
import { writeBack } from './write-back.js';

/** What a serving replica tells the server about its role. */
export interface ReplicaEvents {
  /** This process holds the writer role now: start indexing (live sync). */
  becameWriter(): void;
  /** It lost the role (`reason` for the log): stop indexing; its working copy is read again. */
  lostWriter(reason: string): void;
  log(line: string): void;
}

/** The bundles' per-chunk rows dropped: what a write-back needs to know of what the store held. */
function leanOf(contents: IndexContents): IndexContents {
  const documents = contents.documents.map((bundle) => ({
    document: bundle.document,
    queue: bundle.queue,
    chunks: [],
    wordCounts: [],
    vectors: new Map<number, Float32Array>(),
    links: [],
    names: [],
  }));
  return { ...contents, documents };
}

export class SharedIndex {
  /** The working copy every SQLite code path runs on. */
  readonly dbPath: string;
  /** For people: the URL with its password masked, and the KB's name. */
  readonly location: string;
  private storage: Promise<IndexStorage> | null = null;
  /**
   * What the store held at the last whole read or write-back, per-chunk rows left out (null: the KB was never
   * written); undefined when the working copy must be read whole before the next write-back.
   */
  private stored: IndexContents | null | undefined = undefined;
  /** Whether the KB exists in the store, as of the last whole read; undefined before the first. */
  private present: boolean | undefined = undefined;
  /** Set while serving as a replica. */
  private replication: Replication | null = null;
  private writer = false;
  /** Whole reads, applied commits and index runs change the working copy one at a time. */
  private turn: Promise<unknown> = Promise.resolve();

  /**
   * `folder`: a private temp folder holding the working copy (removed at close), or null for the machine's
   * cached copy at `dbPath` (cached-working-copy.ts), which only reads.
   */
  private constructor(
    private readonly url: string,
    private readonly kb: string,
    dbPath: string,
    private readonly folder: string | null,
    /** The machine's cached copy (the same file as dbPath when folder is null). */
    private readonly cachePath: string,
  ) {
    this.dbPath = dbPath;
    this.location = `${maskDatabaseUrl(url)} (kb "${kb}")`;
  }

  /**
   * null for the SQLite backend. `readOnly`: the command only reads, so it uses the machine's cached working
   * copy, brought up to date from the commits since; else a private copy read whole (index, serve).
   */
  static of(config: ResolvedConfig, options: { readOnly?: boolean } = {}): SharedIndex | null {
    const { backend, url, kb } = config.storage;
    if (backend !== 'postgres' || url === null) return null;
    const cachePath = cachedWorkingCopyPath(maskDatabaseUrl(url), kb, process.env);
    if (options.readOnly) return new SharedIndex(url, kb, cachePath, null, cachePath);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-working-copy-'));
    return new SharedIndex(url, kb, path.join(folder, 'working-copy.groove.db'), folder, cachePath);
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
   * `groove index` on the shared store. Stages: read it into the working copy → `run` (the SQLite indexer on the
   * working copy; it calls requireVectors before any model work) → write back what changed, one document per
   * transaction. The run's time includes reading and writing back.
   */
  async update(run: () => Promise<IndexSummary>): Promise<IndexSummary> {
    return this.inTurn(async () => {
      this.requireWritable();
      this.requireWriter();
      const startedAt = performance.now();
      // A serving writer's working copy is the store's as of its last write-back: no read needed.
      if (this.stored === undefined || this.replication === null) await this.refresh();
      try {
        const summary = await run();
        await this.writeBack();
        return { ...summary, durationMs: Math.round(performance.now() - startedAt) };
      } catch (error) {
        this.stored = undefined; // the next run reads the store whole again
        throw error;
      }
    });
  }

  /** `groove index --force`: `run` on a fresh working copy, written into a new KB swapped in atomically. */
  async rebuild(run: () => Promise<IndexSummary>): Promise<IndexSummary> {
    return this.inTurn(async () => {
      this.requireWritable();
      this.requireWriter();
      const startedAt = performance.now();
      await this.startRebuild();
      try {
        const summary = await run();
        await this.finishRebuild();
        return { ...summary, durationMs: Math.round(performance.now() - startedAt) };
      } finally {
        this.stored = undefined;
      }
    });
  }

  /** Read the store into the working copy once (reads); INDEX_NOT_FOUND when this KB was never indexed. */
  async ensureRead(): Promise<void> {
    await this.readOnce();
    if (!this.present) {
      throw new GrooveError(
        'INDEX_NOT_FOUND',
        `no index for knowledge base "${this.kb}" in ${maskDatabaseUrl(this.url)}`,
        {
          hint: 'run `groove index` with the same [storage] settings first',
        },
      );
    }
  }

  /** Read the store into the working copy unless it was read already (the KB may not exist yet). */
  async readOnce(): Promise<void> {
    if (this.present !== undefined) return;
    await this.inTurn(() => (this.present === undefined ? this.refresh() : Promise.resolve()));
  }

  /**
   * Bring the working copy to the store's current state. The machine's cached copy is brought up to date in place
   * (only what the commits since changed; read whole when it has no usable state); a private copy is then copied
   * from it and moved over the old one, so a session open on the old file notices (replacedOnDisk) and reopens.
   * Callers hold the turn.
   */
  private async refresh(): Promise<void> {
    const storage = await this.connect();
    const cachePath = this.cachePath;
    const outcome = await syncCachedCopy(
      storage,
      cachePath,
      async () => (await this.readWholeInto(cachePath)) !== null,
    );
    this.present = outcome !== 'absent';
    if (this.folder === null) return;
    const building = `${this.dbPath}.pull`;
    IndexDatabase.remove(building);
    if (outcome === 'absent') IndexDatabase.open(building, { create: true }).close();
    else copyCachedCopy(cachePath, building);
    const database = IndexDatabase.open(building, { create: false });
    try {
      const state = outcome === 'absent' ? null : readWorkingCopyState(database.db);
      this.stored = state && readLeanContents(database.db, state);
      this.present = state !== null;
      this.replication?.markApplied(state?.version ?? 0);
    } finally {
      database.close();
    }
    IndexDatabase.replace(building, this.dbPath);
  }

  /** Read the store whole into a new file moved over `target`; what was read (null: the store has no such KB). */
  private async readWholeInto(target: string): Promise<IndexContents | null> {
    const storage = await this.connect();
    const contents = await storage.readContents();
    const building = `${target}.pull`;
    IndexDatabase.remove(building);
    const database = IndexDatabase.open(building, { create: true });
    try {
      if (contents) {
        loadWorkingCopy(database.db, contents, segmentForIndex);
        writeWorkingCopyState(database.db, { version: contents.version, generation: contents.generation });
      }
    } finally {
      database.close();
    }
    IndexDatabase.replace(building, target);
    return contents;
  }

  /**
   * Serve as a replica: contend for the writer role and follow the KB's commits. The writer indexes (the server
   * starts live sync on `becameWriter`); a reader applies each batch of commits to its working copy, which its
   * search session picks up incrementally. A role change reads the store whole.
   */
  async startReplica(events: ReplicaEvents): Promise<void> {
    this.requireWritable();
    await this.readOnce();
    const storage = await this.connect();
    const version = this.stored?.version ?? 0;
    this.replication = storage.replicate(version, {
      onBecameWriter: () => {
        this.writer = true;
        this.stored = undefined; // the first run as writer reads the store whole
        events.becameWriter();
      },
      onLostWriter: (reason) => {
        this.writer = false;
        events.lostWriter(reason);
        void this.inTurn(() => this.refresh()).catch((error: unknown) =>
          events.log(`could not read the store again after losing the writer role: ${describeError(error)}`),
        );
      },
      apply: (batch) => this.inTurn(() => this.applyCommits(batch)),
      onApplyError: (error) =>
        events.log(`could not apply the latest commits (retrying): ${describeError(error)}`),
    });
  }

  /** Whether the working copy holds the store's index (read whole at least once, and the KB exists). */
  hasWorkingCopy(): boolean {
    return this.present === true;
  }

  /** The replica's role and lag, or null when not serving as one. */
  replicaState(): ReplicaState | null {
    return this.replication?.state() ?? null;
  }

  /** A reader's working copy takes the commits in; the writer's is already what it wrote. */
  private async applyCommits(batch: CommitBatch): Promise<void> {
    if (this.writer) return;
    if (batch.kind === 'reload') return this.refresh();
    const storage = await this.connect();
    const database = IndexDatabase.open(this.dbPath, { create: false });
    try {
      const delta = await storage.readDelta(knownContents(database.db, batch.touchedChunkIds));
      if (delta) applyDelta(database.db, delta, segmentForIndex);
    } finally {
      database.close();
    }
  }

  /** The cached copy only reads: a command that writes opens its facade without `readOnly`. */
  private requireWritable(): void {
    if (this.folder !== null) return;
    throw new GrooveError('INTERNAL', 'a read-only knowledge base (cached working copy) was asked to write');
  }

  /** Refuse to index on a serving replica that is not the writer (the writer does it). */
  private requireWriter(): void {
    if (this.replication === null || this.writer) return;
    throw new GrooveError(
      'WRITER_ROLE_LOST',
      `this replica is not the writer of knowledge base "${this.kb}"`,
      {
        hint: 'the replica holding the writer role indexes; its /healthz says "writer"',
      },
    );
  }

  /** Run `work` after every earlier change of the working copy has finished. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work);
    this.turn = run.catch(() => undefined);
    return run;
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
        version: 0,
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
  async requireVectors(): Promise<void> {
    await (await this.connect()).requireVectors();
  }

  /** Write the working copy's changes since the last read back to the store; what it wrote is now `stored`. */
  private async writeBack(): Promise<WriteBackSummary> {
    const storage = await this.connect();
    const before = this.stored ?? null;
    const database = IndexDatabase.open(this.dbPath, { create: false });
    let after: IndexContents;
    try {
      after = readWorkingCopyChanges(database.db, before);
    } finally {
      database.close();
    }
    const summary = await writeBack(storage, before, after);
    this.stored = leanOf({ ...after, generation: summary.generation, version: 0 });
    this.present = true;
    return summary;
  }

  async close(): Promise<void> {
    await this.replication?.stop();
    this.replication = null;
    const storage = await this.storage?.catch(() => null);
    await storage?.close();
    if (this.folder !== null) fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
