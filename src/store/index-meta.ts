// Key/value facts about the index: schema version, model identity, context mode, chunk policy, how long inputs
// were embedded, timestamps.
import Database from 'better-sqlite3';
import type { SqliteDatabase } from './open-database.js';

export type MetaKey =
  | 'schema_version'
  | 'embedding_model'
  | 'embedding_provider'
  | 'embedding_dim'
  | 'embedding_model_dir'
  | 'embedding_pooling'
  | 'embedding_query_prefix'
  | 'embedding_passage_prefix'
  | 'embedding_setup_source'
  | 'context_mode'
  | 'chunk_policy'
  | 'long_inputs'
  | 'fts_query_version'
  | 'last_indexed_at'
  | 'text_generation'
  | 'skipped_files'
  /** The knowledge base the index belongs to: its root's real path, and its registered name where it has one. */
  | 'kb_root'
  | 'kb_name'
  /** The settings that decided which files the index holds (parsers, exclusions), as JSON. */
  | 'shaping_settings'
  /** A shared store's working copy: the store's commit version and generation it holds (absent: unknown). */
  | 'working_copy_version'
  | 'working_copy_generation';

export function readMeta(db: SqliteDatabase): Partial<Record<MetaKey, string>> {
  const rows = db.prepare('SELECT key, value FROM index_meta').all() as { key: MetaKey; value: string }[];
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

/** The index_meta of the index at `dbPath`, on a short read-only connection: no migration, no write, no lock. */
export function peekMeta(dbPath: string): Partial<Record<MetaKey, string>> {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return readMeta(db);
  } finally {
    db.close();
  }
}

/** What tells which knowledge base an index belongs to, read on a short read-only connection. */
export interface OwnerFacts {
  meta: Partial<Record<MetaKey, string>>;
  documents: number;
  /** Up to `sampleSize` stored document paths, spread over the whole table. */
  samplePaths: string[];
}

/** The owner facts of the index at `dbPath`, or null when the file is not a readable groove index. */
export function peekOwnerFacts(dbPath: string, sampleSize: number): OwnerFacts | null {
  let db: Database.Database;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
  } catch {
    return null;
  }
  try {
    const meta = readMeta(db);
    const documents = db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
    const step = Math.max(1, Math.floor(documents / sampleSize));
    const samplePaths = db
      .prepare(
        'SELECT path FROM (SELECT path, row_number() OVER (ORDER BY id) AS n FROM documents) WHERE n % ? = 0 LIMIT ?',
      )
      .pluck()
      .all(step, sampleSize) as string[];
    return { meta, documents, samplePaths };
  } catch {
    return null; // damaged or someone else's file: the regular open explains it
  } finally {
    db.close();
  }
}

export function writeMeta(db: SqliteDatabase, values: Partial<Record<MetaKey, string>>): void {
  const upsert = db.prepare(
    'INSERT INTO index_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  db.transaction(() => {
    for (const [key, value] of Object.entries(values)) if (value !== undefined) upsert.run(key, value);
  })();
}
