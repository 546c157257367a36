// How the PostgreSQL adapter opens and writes a database: the pool's settings, the schema brought up to date, and
// one write transaction that also records the commit replicas hear of, tried again when the connection drops.
import pg from 'pg';
import { GrooveError } from '../../errors.js';
import { type ChunkChange, recordCommit } from './commit-notices.js';
import { isConnectionLoss, storageQueryFailed } from './pg-failure.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from './pg-schema.js';
import type { WriterRole } from './writer-role.js';

/** Returned by a write that recorded its own commit (a rebuild's swap, which also ends the change log). */
export const COMMIT_RECORDED = Symbol('commit recorded');

/**
 * One write transaction's work. What it resolves to: the chunks it changed (an array, for the change log),
 * COMMIT_RECORDED, or anything else (a commit without chunk changes).
 */
export type WriteWork = (client: pg.ClientBase) => Promise<unknown>;

/** Attempts of one write transaction when the connection drops under it (each on a new connection). */
const WRITE_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 250;
/** bigint (OID 20) columns hold sizes well inside a double: read them as numbers, not strings. */
const INT8_OID = 20;

export function poolConfig(url: string, poolSize = 2): pg.PoolConfig {
  return {
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 10_000,
    allowExitOnIdle: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
}

/** Bring the schema up to date; two groove processes migrating one new database take turns. */
export async function migrateSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const present = await client.query("SELECT to_regclass('groove_schema') IS NOT NULL AS present");
    if (present.rows[0]?.present) {
      const stored = await client.query('SELECT max(version) AS version FROM groove_schema');
      if (stored.rows[0]?.version === PG_SCHEMA_VERSION) return;
    }
    await client.query('BEGIN');
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

/** Where a write transaction runs: the pool, or the writer role's session while this process is a replica. */
export interface WriteTarget {
  pool: pg.Pool;
  role: WriterRole | null;
  url: string;
  kb: string;
}

/**
 * Run `work` in one transaction that also records the commit replicas hear of (the chunks `work` returns, or
 * none; COMMIT_RECORDED when `work` recorded it itself). As a replica, only through the writer role's session
 * (WRITER_ROLE_LOST otherwise); else on the pool, where a dropped connection rolls it back on the server and it
 * is tried again on a new connection (at most WRITE_ATTEMPTS times), then reported as STORAGE_UNREACHABLE.
 * Either way no part of it stays written.
 */
export async function writeTransaction(target: WriteTarget, during: string, work: WriteWork): Promise<void> {
  const committed = async (client: pg.ClientBase) => {
    const changes = await work(client);
    if (changes === COMMIT_RECORDED) return;
    await recordCommit(client, target.kb, Array.isArray(changes) ? (changes as ChunkChange[]) : []);
  };
  if (target.role) {
    try {
      await target.role.withWriterTransaction(committed);
      return;
    } catch (error) {
      if (error instanceof GrooveError) throw error;
      throw storageQueryFailed(error, target.url, during);
    }
  }
  for (let attempt = 1; ; attempt++) {
    let client: pg.PoolClient | null = null;
    try {
      client = await target.pool.connect();
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
      if (!lost || attempt >= WRITE_ATTEMPTS) throw storageQueryFailed(error, target.url, during);
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * attempt));
    }
  }
}
