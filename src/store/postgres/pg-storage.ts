// The PostgreSQL adapter of the shared-storage port (core/index-storage.ts): one knowledge base's rows under its
// kb_id, read in one snapshot and written back one document per transaction, retried once a connection drops.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { toSql } from 'pgvector';
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
import {
  type ChunkChange,
  pruneChanges,
  readChangesSince,
  readCommittedVersion,
  recordCommit,
} from './commit-notices.js';
import { readBundles, readDelta } from './pg-delta.js';
import {
  isConnectionLoss,
  storageQueryFailed,
  unreachableError,
  vectorExtensionMissing,
} from './pg-failure.js';
import { startReplication } from './pg-replication.js';
import { insertRows, readRows } from './pg-rows.js';
import { DOCUMENT_TABLES, PG_MIGRATIONS, PG_SCHEMA_VERSION, PG_VECTOR_MIGRATIONS } from './pg-schema.js';
import type { WriterRole } from './writer-role.js';

/** Returned by a write that recorded its own commit (a rebuild's swap, which also ends the change log). */
const COMMIT_RECORDED = Symbol('commit recorded');

/**
 * One write transaction's work. What it resolves to: the chunks it changed (an array, for the change log),
 * COMMIT_RECORDED, or anything else (a commit without chunk changes).
 */
type WriteWork = (client: pg.ClientBase) => Promise<unknown>;

export interface PostgresStorageOptions {
  /** postgres://… (its password is never shown). */
  url: string;
  /** The knowledge base's name in the database ([storage] kb). */
  kb: string;
  /** Connections in the pool; default 2. */
  poolSize?: number;
}

/** Attempts of one write transaction when the connection drops under it (each on a new connection). */
const WRITE_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 250;
/** Commit versions whose change rows are kept; a replica further behind reads the KB whole again. */
const CHANGE_LOG_VERSIONS_KEPT = 10_000;
/** bigint (OID 20) columns hold sizes well inside a double: read them as numbers, not strings. */
const INT8_OID = 20;

function poolConfig(options: PostgresStorageOptions): pg.PoolConfig {
  return {
    connectionString: options.url,
    max: options.poolSize ?? 2,
    connectionTimeoutMillis: 10_000,
    allowExitOnIdle: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
}

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
    const pool = new pg.Pool(poolConfig(options));
    // An idle connection that dies is reported by the next query that needs it, not as an unhandled event.
    pool.on('error', () => undefined);
    // So does one that dies while checked out: the query in flight rejects, and the socket's error event (which
    // the pool does not listen to for a busy client) must not become an uncaught exception.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const storage = new PostgresStorage(pool, options);
    try {
      await storage.migrate();
      return storage;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw storageQueryFailed(error, options.url, 'while opening the database');
    }
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      const present = await client.query("SELECT to_regclass('groove_schema') IS NOT NULL AS present");
      if (present.rows[0]?.present) {
        const stored = await client.query('SELECT max(version) AS version FROM groove_schema');
        if (stored.rows[0]?.version === PG_SCHEMA_VERSION) return;
      }
      await client.query('BEGIN');
      // Two groove processes migrating one new database take turns.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('groove_schema'))");
      for (const statement of PG_MIGRATIONS) await client.query(statement);
      await client.query('DELETE FROM groove_schema');
      await client.query('INSERT INTO groove_schema(version) VALUES ($1)', [PG_SCHEMA_VERSION]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
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
    const path = bundle.document.path as string;
    await this.transaction(`while writing "${path}"`, async (client) => {
      const kbId = this.requireKb();
      const replaced = await client.query<{ id: number }>(
        'SELECT id FROM groove_documents WHERE kb_id = $1 AND (id = ANY($2) OR path = $3)',
        [kbId, [...replacedIds], path],
      );
      const gone = await this.deleteDocumentRows(
        client,
        replaced.rows.map((row) => row.id),
      );
      await insertRows(client, 'groove_documents', kbId, [bundle.document]);
      await insertRows(client, DOCUMENT_TABLES.chunks, kbId, bundle.chunks);
      await insertRows(client, DOCUMENT_TABLES.wordCounts, kbId, bundle.wordCounts);
      await insertRows(client, DOCUMENT_TABLES.queue, kbId, bundle.queue);
      await this.insertVectors(client, bundle.vectors);
      await insertRows(client, DOCUMENT_TABLES.links, kbId, bundle.links);
      await insertRows(client, DOCUMENT_TABLES.names, kbId, bundle.names);
      const added = bundle.chunks.map(
        (chunk): ChunkChange => ({ chunkId: chunk.id as number, op: 'upsert' }),
      );
      return [...gone, ...added];
    });
  }

  /** Delete documents with everything under them; the chunks they held, as change-log deletes. */
  private async deleteDocumentRows(client: pg.ClientBase, ids: readonly number[]): Promise<ChunkChange[]> {
    if (ids.length === 0) return [];
    const kbId = this.requireKb();
    const chunks = await client.query<{ id: number }>(
      `SELECT id FROM ${DOCUMENT_TABLES.chunks} WHERE kb_id = $1 AND document_id = ANY($2)`,
      [kbId, [...ids]],
    );
    await client.query('DELETE FROM groove_documents WHERE kb_id = $1 AND id = ANY($2)', [kbId, [...ids]]);
    return chunks.rows.map((row) => ({ chunkId: row.id, op: 'delete' }));
  }

  private async insertVectors(client: pg.ClientBase, vectors: ReadonlyMap<number, Float32Array>) {
    const rows = [...vectors].map(
      ([chunkId, vector]): StoredRow => ({ chunk_id: chunkId, embedding: toSql(Array.from(vector)) }),
    );
    await insertRows(client, 'groove_chunk_vectors', this.requireKb(), rows, { embedding: 'vector' });
  }

  async deleteDocuments(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.transaction('while removing documents', (client) => this.deleteDocumentRows(client, ids));
  }

  async touchDocuments(rows: readonly { id: number; sizeBytes: number; mtimeMs: number }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.transaction('while updating file dates', (client) =>
      client.query(
        `UPDATE groove_documents d SET size_bytes = v.size_bytes, mtime_ms = v.mtime_ms
         FROM unnest($2::integer[], $3::bigint[], $4::double precision[]) AS v(id, size_bytes, mtime_ms)
         WHERE d.kb_id = $1 AND d.id = v.id`,
        [this.requireKb(), rows.map((r) => r.id), rows.map((r) => r.sizeBytes), rows.map((r) => r.mtimeMs)],
      ),
    );
  }

  async storeVectors(batch: VectorBatch): Promise<void> {
    if (batch.vectors.size === 0 && batch.dequeued.length === 0) return;
    await this.transaction('while storing vectors', async (client) => {
      const kbId = this.requireKb();
      await client.query('DELETE FROM groove_chunk_vectors WHERE kb_id = $1 AND chunk_id = ANY($2)', [
        kbId,
        [...batch.vectors.keys()],
      ]);
      await this.insertVectors(client, batch.vectors);
      await client.query('DELETE FROM groove_embedding_queue WHERE kb_id = $1 AND chunk_id = ANY($2)', [
        kbId,
        batch.dequeued,
      ]);
      const touched = new Set([...batch.vectors.keys(), ...batch.dequeued]);
      return [...touched].map((chunkId): ChunkChange => ({ chunkId, op: 'upsert' }));
    });
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

  /**
   * Run `work` in one transaction that also records the commit replicas hear of (the chunks `work` returns, or
   * none; COMMIT_RECORDED when `work` recorded it itself). As a replica, only through the writer role's session
   * (WRITER_ROLE_LOST otherwise); else on the pool, where a dropped connection rolls it back on the server and it
   * is tried again on a new connection (at most WRITE_ATTEMPTS times), then reported as STORAGE_UNREACHABLE.
   * Either way no part of it stays written.
   */
  private async transaction(during: string, work: WriteWork): Promise<void> {
    const committed = async (client: pg.ClientBase) => {
      const changes = await work(client);
      if (changes === COMMIT_RECORDED) return;
      await recordCommit(client, this.options.kb, Array.isArray(changes) ? (changes as ChunkChange[]) : []);
    };
    if (this.role) {
      try {
        await this.role.withWriterTransaction(committed);
        return;
      } catch (error) {
        if (error instanceof GrooveError) throw error;
        throw storageQueryFailed(error, this.options.url, during);
      }
    }
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient | null = null;
      try {
        client = await this.pool.connect();
        await client.query('BEGIN');
        await committed(client);
        await client.query('COMMIT');
        client.release();
        return;
      } catch (error) {
        const lost = isConnectionLoss(error);
        if (client) {
          if (!lost) await client.query('ROLLBACK').catch(() => undefined);
          client.release(lost ? (error as Error) : undefined);
        }
        if (!lost || attempt >= WRITE_ATTEMPTS) throw storageQueryFailed(error, this.options.url, during);
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * attempt));
      }
    }
  }
}
