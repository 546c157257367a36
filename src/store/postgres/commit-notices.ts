// How readers learn what the writer committed: a version row per KB bumped in the same transaction as each
// commit, a change log of the chunks each version touched, and a NOTIFY that PostgreSQL delivers only if that
// transaction commits. The tables and their one DDL function live here; the listener is commit-listener.ts.
import type pg from 'pg';
import { GROOVE_LOCK_NAMESPACE } from './writer-role.js';

/** The one NOTIFY channel; the payload names the KB (`{"kbId":…,"version":…}`), so any KB id fits. */
export const COMMIT_CHANNEL = 'groove_kb_commits';

/** Anything that runs a query: a pool, a client, or a client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export type ChunkOp = 'upsert' | 'delete';

export interface ChunkChange {
  chunkId: number;
  op: ChunkOp;
}

export type ChangesSince =
  /** The chunks changed after the asked-for version, each once with its last op, up to `toVersion`. */
  | { kind: 'changes'; toVersion: number; changes: ChunkChange[] }
  /** The change log no longer reaches back that far (pruned): reload the whole snapshot at `toVersion`. */
  | { kind: 'reload'; toVersion: number };

/**
 * The coordination tables, PostgreSQL 15 SQL. kb_versions: one row per KB, `version` counts commits from 1,
 * `pruned_through` is the newest version whose change rows may be gone. kb_changes: the chunks each version
 * upserted or deleted. Both are keyed by kb_id first, the distribution column when sharded (docs/scale-out.md).
 */
export const COORDINATION_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS kb_versions (
  kb_id text PRIMARY KEY,
  version bigint NOT NULL CHECK (version >= 0),
  pruned_through bigint NOT NULL DEFAULT 0,
  committed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS kb_changes (
  kb_id text NOT NULL,
  version bigint NOT NULL,
  chunk_id bigint NOT NULL,
  op text NOT NULL CHECK (op IN ('upsert', 'delete')),
  PRIMARY KEY (kb_id, version, chunk_id)
);`;

/**
 * Create the coordination tables if they are missing. Safe to run from many processes at once: a transaction
 * lock serialises them (concurrent CREATE TABLE IF NOT EXISTS can otherwise fail on the catalog's unique index).
 */
export async function ensureCoordinationSchema(db: pg.Pool | pg.ClientBase): Promise<void> {
  const client = isPool(db) ? await db.connect() : db;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, 0)', [GROOVE_LOCK_NAMESPACE]);
    await client.query(COORDINATION_SCHEMA_SQL);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    if (client !== db) (client as pg.PoolClient).release();
  }
}

function isPool(db: pg.Pool | pg.ClientBase): db is pg.Pool {
  return 'totalCount' in db;
}

/**
 * Record a commit inside the writer's open transaction: bump the KB's version, log the changed chunks under it
 * and queue the NOTIFY (sent by PostgreSQL at COMMIT, dropped on ROLLBACK). Returns the new version.
 */
export async function recordCommit(
  tx: Queryable,
  kbId: string,
  changes: readonly ChunkChange[],
): Promise<number> {
  const bumped = await tx.query<{ version: string }>(
    `INSERT INTO kb_versions (kb_id, version) VALUES ($1, 1)
     ON CONFLICT (kb_id) DO UPDATE SET version = kb_versions.version + 1, committed_at = now()
     RETURNING version`,
    [kbId],
  );
  const version = Number(bumped.rows[0]!.version);
  if (changes.length > 0) {
    await tx.query(
      `INSERT INTO kb_changes (kb_id, version, chunk_id, op)
       SELECT $1, $2, change.chunk_id, change.op FROM unnest($3::bigint[], $4::text[]) AS change(chunk_id, op)`,
      [kbId, version, changes.map((change) => change.chunkId), changes.map((change) => change.op)],
    );
  }
  await tx.query('SELECT pg_notify($1, $2)', [COMMIT_CHANNEL, JSON.stringify({ kbId, version })]);
  return version;
}

/** The KB's committed version; 0 before its first commit. */
export async function readCommittedVersion(db: Queryable, kbId: string): Promise<number> {
  const { rows } = await db.query<{ version: string }>('SELECT version FROM kb_versions WHERE kb_id = $1', [
    kbId,
  ]);
  return rows[0] ? Number(rows[0].version) : 0;
}

/**
 * What changed after `sinceVersion`, read in one statement (one snapshot): each changed chunk once with its
 * newest op, and the version that brings the reader to. A reader applies the changes, then marks `toVersion`.
 */
export async function readChangesSince(
  db: Queryable,
  kbId: string,
  sinceVersion: number,
): Promise<ChangesSince> {
  const { rows } = await db.query<{
    to_version: string;
    pruned: string;
    chunk_id: string | null;
    op: ChunkOp | null;
  }>(
    `WITH head AS (SELECT version, pruned_through FROM kb_versions WHERE kb_id = $1),
          latest AS (
            SELECT DISTINCT ON (c.chunk_id) c.chunk_id, c.op FROM kb_changes c, head
            WHERE c.kb_id = $1 AND c.version > $2 AND c.version <= head.version
            ORDER BY c.chunk_id, c.version DESC)
     SELECT head.version AS to_version, head.pruned_through AS pruned, latest.chunk_id, latest.op
     FROM head LEFT JOIN latest ON true ORDER BY latest.chunk_id`,
    [kbId, sinceVersion],
  );
  const head = rows[0];
  if (!head) return { kind: 'changes', toVersion: 0, changes: [] };
  const toVersion = Number(head.to_version);
  if (sinceVersion < Number(head.pruned)) return { kind: 'reload', toVersion };
  const changes = rows
    .filter((row) => row.chunk_id !== null)
    .map((row) => ({ chunkId: Number(row.chunk_id), op: row.op as ChunkOp }));
  return { kind: 'changes', toVersion, changes };
}

/**
 * Delete the change rows up to `throughVersion` (every reader has applied them, or must reload), and remember
 * it so a reader further behind is told to reload. Run on the writer's transaction. Returns rows deleted.
 */
export async function pruneChanges(tx: Queryable, kbId: string, throughVersion: number): Promise<number> {
  await tx.query('UPDATE kb_versions SET pruned_through = greatest(pruned_through, $2) WHERE kb_id = $1', [
    kbId,
    throughVersion,
  ]);
  const deleted = await tx.query('DELETE FROM kb_changes WHERE kb_id = $1 AND version <= $2', [
    kbId,
    throughVersion,
  ]);
  return deleted.rowCount ?? 0;
}
