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
  /** Whether the index holds any document. */
  hasDocuments: boolean;
  /** Up to `sampleSize` stored document paths spread evenly over the ids (empty when no sample was asked). */
  samplePaths: string[];
}

/**
 * The owner facts of the index at `dbPath`, or null when the file is not a readable groove index. The sample is
 * taken only when `wantSample(meta)` says so: one indexed lookup per sampled document, whatever the index's size.
 */
export function peekOwnerFacts(
  dbPath: string,
  sampleSize: number,
  wantSample: (meta: Partial<Record<MetaKey, string>>) => boolean,
): OwnerFacts | null {
  let db: Database.Database;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
  } catch {
    return null;
  }
  try {
    const meta = readMeta(db);
    const range = db.prepare('SELECT min(id) AS low, max(id) AS high FROM documents').get() as {
      low: number | null;
      high: number | null;
    };
    if (range.low === null || range.high === null) return { meta, hasDocuments: false, samplePaths: [] };
    const samplePaths: string[] = [];
    if (wantSample(meta)) {
      const next = db.prepare('SELECT id, path FROM documents WHERE id >= ? ORDER BY id LIMIT 1');
      const span = range.high - range.low + 1;
      let after = range.low - 1;
      for (let i = 0; i < sampleSize; i++) {
        const target = Math.max(after + 1, range.low + Math.floor((i * span) / sampleSize));
        const row = next.get(target) as { id: number; path: string } | undefined;
        if (!row) break;
        samplePaths.push(row.path);
        after = row.id;
      }
    }
    return { meta, hasDocuments: true, samplePaths };
  } catch {
    return null; // damaged or someone else's file: the regular open explains it
  } finally {
    db.close();
  }
}

/** The text generation (see DocumentStore), or null for an index written before it was counted. */
export function readTextGeneration(db: SqliteDatabase): string | null {
  const value = db.prepare("SELECT value FROM index_meta WHERE key = 'text_generation'").pluck().get();
  return typeof value === 'string' ? value : null;
}

export function writeMeta(db: SqliteDatabase, values: Partial<Record<MetaKey, string>>): void {
  const upsert = db.prepare(
    'INSERT INTO index_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  db.transaction(() => {
    for (const [key, value] of Object.entries(values)) if (value !== undefined) upsert.run(key, value);
  })();
}
