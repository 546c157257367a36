// The PostgreSQL adapter of the shared-storage port (core/index-storage.ts): one knowledge base's rows under its
// kb_id, read in one snapshot and written back one document per transaction, retried once a connection drops.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { maskDatabaseUrl } from '../../core/database-url.js';
import type {
  ChangesRead,
  DocumentBundle,
  IndexContents,
  IndexDelta,
  IndexStorage,
  KnownContents,
  ReplicaHooks,
  Replication,
  StoredRow,
  StoreState,
  VectorBatch,
} from '../../core/index-storage.js';
import { GrooveError } from '../../errors.js';
import { pruneChanges, readChangesSince, readCommittedVersion, recordCommit } from './commit-notices.js';
import { readBundles, readDelta } from './pg-delta.js';
import {
  deleteDocumentRows,
  replaceDocumentRows,
  storeVectorRows,
  touchDocumentRows,
} from './pg-document-writes.js';
import {
  isConnectionLoss,
  storageQueryFailed,
  unreachableError,
  vectorExtensionMissing,
} from './pg-failure.js';
import { startReplication } from './pg-replication.js';
import { insertRows, readRows } from './pg-rows.js';
import { PG_VECTOR_MIGRATIONS } from './pg-schema.js';
import {
  COMMIT_RECORDED,
  migrateSchema,
  poolConfig,
  type WriteWork,
  writeTransaction,
} from './pg-transaction.js';
import type { WriterRole } from './writer-role.js';

export interface PostgresStorageOptions {
  /** postgres://… (its password is never shown). */
  url: string;
  /** The knowledge base's name in the database ([storage] kb). */
  kb: string;
  /** Connections in the pool; default 2. */
  poolSize?: number;
}

/** Commit versions whose change rows are kept; a replica further behind reads the KB whole again. */
const CHANGE_LOG_VERSIONS_KEPT = 10_000;
export class PostgresStorage implements IndexStorage {
  readonly backend = 'postgres' as const;
  readonly location: string;
  private kbId: number | null = null;
  /** Set while this process takes part as a replica: then it writes only as the writer, through the role. */
  private role: WriterRole | null = null;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly options: PostgresStorageOptions,
  ) {
    this.location = `${maskDatabaseUrl(options.url)} (kb "${options.kb}")`;
  }

  /** Connect and bring the schema up to date; an unreachable server is STORAGE_UNREACHABLE naming host:port. */
  static async open(options: PostgresStorageOptions): Promise<PostgresStorage> {
    const pool = new pg.Pool(poolConfig(options.url, options.poolSize));
    // An idle connection that dies is reported by the next query that needs it, not as an unhandled event.
    pool.on('error', () => undefined);
    // So does one that dies while checked out: the query in flight rejects, and the socket's error event (which
    // the pool does not listen to for a busy client) must not become an uncaught exception.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const storage = new PostgresStorage(pool, options);
    try {
      await migrateSchema(pool);
      return storage;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw storageQueryFailed(error, options.url, 'while opening the database');
    }
  }

  /** Create the vector table (and the extension) for a KB with a model; STORAGE_EXTENSION_MISSING without pgvector. */
  async requireVectors(): Promise<void> {
    const client = await this.connect('while checking for pgvector');
    try {
      for (const statement of PG_VECTOR_MIGRATIONS) await client.query(statement);
    } catch (error) {
      throw (
        unreachableError(error, this.options.url, 'while checking for pgvector') ??
        vectorExtensionMissing(this.options.url, error)
      );
    } finally {
      client.release();
    }
  }

  async readContents(): Promise<IndexContents | null> {
    return this.inReadSnapshot('while reading the index', async (client) => {
      const row = await this.kbRow(client);
      if (row) this.kbId = row.id;
      const version = await readCommittedVersion(client, this.options.kb);
      return row ? this.readKb(client, row.id, row.generation, version) : null;
    });
  }

  /**
   * Run `read` in one read-only snapshot: a writer committing meanwhile is seen whole or not at all. It ends in a
   * rollback either way; a failure is reported as a storage error naming `during`.
   */
  private async inReadSnapshot<T>(during: string, read: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.connect(during);
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const result = await read(client);
      await client.query('ROLLBACK');
      client.release();
      return result;
    } catch (error) {
      client.release(isConnectionLoss(error) ? (error as Error) : undefined);
      throw storageQueryFailed(error, this.options.url, during);
    }
  }

  /** The KB's row (its id and generation), or undefined when the store does not hold it. */
  private async kbRow(client: pg.ClientBase): Promise<{ id: number; generation: number } | undefined> {
    const kb = await client.query('SELECT id, generation FROM groove_kbs WHERE name = $1', [this.options.kb]);
    return kb.rows[0] as { id: number; generation: number } | undefined;
  }

  private async readKb(
    client: pg.PoolClient,
    kbId: number,
    generation: number,
    version: number,
  ): Promise<IndexContents> {
    const rows = (table: string, order: string) => readRows(client, table, kbId, order);
    const meta = await rows('groove_meta', 'key');
    const terms = await rows('groove_word_terms', 'id');
    return {
      meta: new Map(meta.map((m) => [m.key as string, m.value as string])),
      terms: new Map(terms.map((t) => [t.term as string, t.id as number])),
      documents: await readBundles(client, kbId, null),
      feedbackServes: await rows('groove_feedback_serves', 'id'),
      feedbackItems: await rows('groove_feedback_items', 'serve_id, position'),
      generation,
      version,
    };
  }

  async readDelta(known: KnownContents): Promise<IndexDelta | null> {
    return this.inReadSnapshot('while reading what changed', async (client) => {
      const row = await this.kbRow(client);
      return row ? { ...(await readDelta(client, row.id, known)), generation: row.generation } : null;
    });
  }

  async readSince(version: number, known: Omit<KnownContents, 'touchedChunkIds'>): Promise<ChangesRead> {
    return this.inReadSnapshot('while reading what changed', async (client): Promise<ChangesRead> => {
      const row = await this.kbRow(client);
      if (!row) return { kind: 'absent' };
      const changes = await readChangesSince(client, this.options.kb, version);
      if (changes.kind === 'reload' || changes.toVersion < version) return { kind: 'reload' };
      this.kbId = row.id;
      const touchedChunkIds = changes.changes.filter((c) => c.op === 'upsert').map((c) => c.chunkId);
      const delta = await readDelta(client, row.id, { ...known, touchedChunkIds });
      return { kind: 'delta', delta: { ...delta, generation: row.generation }, version: changes.toVersion };
    });
  }

  replicate(appliedVersion: number, hooks: ReplicaHooks): Replication {
    if (this.role) throw new GrooveError('INTERNAL', 'this store already takes part as a replica');
    const replication = startReplication({
      url: this.options.url,
      kb: this.options.kb,
      reads: this.pool,
      appliedVersion,
      hooks,
    });
    this.role = replication.role;
    return {
      state: () => replication.state(),
      markApplied: (version) => replication.markApplied(version),
      stop: async () => {
        await replication.stop();
        this.role = null;
      },
    };
  }

  async beginWriteBack(generation: number): Promise<void> {
    await this.transaction('while starting to write', async (client) => {
      if (this.kbId === null) {
        const created = await client.query(
          'INSERT INTO groove_kbs(name) VALUES ($1) ON CONFLICT (name) DO NOTHING RETURNING id',
          [this.options.kb],
        );
        this.kbId = (created.rows[0]?.id as number | undefined) ?? null;
        if (this.kbId === null) throw this.writtenMeanwhile();
        return;
      }
      const claimed = await client.query(
        'UPDATE groove_kbs SET generation = generation + 1 WHERE id = $1 AND generation = $2 RETURNING id',
        [this.kbId, generation],
      );
      if (claimed.rowCount === 0) throw this.writtenMeanwhile();
    });
  }

  async endWriteBack(): Promise<StoreState> {
    const state = { generation: 0, version: 0 };
    await this.transaction('while finishing the write', async (client) => {
      const bumped = await client.query(
        'UPDATE groove_kbs SET generation = generation + 1 WHERE id = $1 RETURNING generation',
        [this.requireKb()],
      );
      state.generation = Number(bumped.rows[0]?.generation ?? 0);
      state.version = await recordCommit(client, this.options.kb, []);
      if (state.version > CHANGE_LOG_VERSIONS_KEPT) {
        await pruneChanges(client, this.options.kb, state.version - CHANGE_LOG_VERSIONS_KEPT);
      }
      return COMMIT_RECORDED;
    });
    return state;
  }

  async beginRebuild(): Promise<void> {
    const prefix = `${this.options.kb}#rebuild-`; // '#' never appears in a [storage] kb name
    await this.transaction('while starting a rebuild', async (client) => {
      await client.query('DELETE FROM groove_kbs WHERE starts_with(name, $1)', [prefix]);
      const created = await client.query('INSERT INTO groove_kbs(name) VALUES ($1) RETURNING id', [
        `${prefix}${randomUUID().slice(0, 8)}`,
      ]);
      this.kbId = created.rows[0].id as number;
    });
  }

  async finishRebuild(): Promise<StoreState> {
    const state = { generation: 0, version: 0 };
    await this.transaction('while swapping the rebuilt index in', async (client) => {
      const kbId = this.requireKb();
      await client.query('DELETE FROM groove_kbs WHERE name = $1 AND id <> $2', [this.options.kb, kbId]);
      const swapped = await client.query(
        'UPDATE groove_kbs SET name = $1, generation = generation + 1 WHERE id = $2 RETURNING generation',
        [this.options.kb, kbId],
      );
      state.generation = Number(swapped.rows[0]?.generation ?? 0);
      // Every replica reads the rebuilt KB whole: the change log of the old one ends here.
      state.version = await recordCommit(client, this.options.kb, []);
      await pruneChanges(client, this.options.kb, state.version);
      return COMMIT_RECORDED;
    });
    return state;
  }

  private writtenMeanwhile(): GrooveError {
    return new GrooveError(
      'INDEX_BUSY',
      `another groove process wrote knowledge base "${this.options.kb}" at ${maskDatabaseUrl(this.options.url)} while this one indexed`,
      { hint: 'run `groove index` again: it starts from what the other process wrote' },
    );
  }

  async addTerms(terms: ReadonlyMap<string, number>): Promise<void> {
    if (terms.size === 0) return;
    const rows = [...terms].map(([term, id]): StoredRow => ({ term, id }));
    await this.transaction('while storing the word dictionary', (client) =>
      insertRows(client, 'groove_word_terms', this.requireKb(), rows),
    );
  }

  async replaceDocument(bundle: DocumentBundle, replacedIds: readonly number[]): Promise<void> {
    await this.transaction(`while writing "${bundle.document.path as string}"`, (client) =>
      replaceDocumentRows(client, this.requireKb(), bundle, replacedIds),
    );
  }

  async deleteDocuments(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.transaction('while removing documents', (client) =>
      deleteDocumentRows(client, this.requireKb(), ids),
    );
  }

  async touchDocuments(rows: readonly { id: number; sizeBytes: number; mtimeMs: number }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.transaction('while updating file dates', (client) =>
      touchDocumentRows(client, this.requireKb(), rows),
    );
  }

  async storeVectors(batch: VectorBatch): Promise<void> {
    if (batch.vectors.size === 0 && batch.dequeued.length === 0) return;
    await this.transaction('while storing vectors', (client) =>
      storeVectorRows(client, this.requireKb(), batch),
    );
  }

  async writeMeta(meta: ReadonlyMap<string, string>): Promise<void> {
    const rows = [...meta].map(([key, value]): StoredRow => ({ key, value }));
    await this.transaction('while writing the index facts', async (client) => {
      await client.query('DELETE FROM groove_meta WHERE kb_id = $1', [this.requireKb()]);
      await insertRows(client, 'groove_meta', this.requireKb(), rows);
    });
  }

  async replaceFeedback(serves: readonly StoredRow[], items: readonly StoredRow[]): Promise<void> {
    await this.transaction('while writing judgments', async (client) => {
      await client.query('DELETE FROM groove_feedback_serves WHERE kb_id = $1', [this.requireKb()]);
      await insertRows(client, 'groove_feedback_serves', this.requireKb(), serves);
      await insertRows(client, 'groove_feedback_items', this.requireKb(), items);
    });
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  private requireKb(): number {
    if (this.kbId === null)
      throw new GrooveError('INTERNAL', 'the shared store was written before beginWriteBack');
    return this.kbId;
  }

  private async connect(during: string): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw storageQueryFailed(error, this.options.url, during);
    }
  }

  /** One write transaction (writeTransaction): through the writer role while a replica, else on the pool. */
  private transaction(during: string, work: WriteWork): Promise<void> {
    const target = { pool: this.pool, role: this.role, url: this.options.url, kb: this.options.kb };
    return writeTransaction(target, during, work);
  }
}
