// Opens the SQLite index with groove's pragmas and runs the schema migrations: the only DDL in groove.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { GrooveError } from '../errors.js';

export type SqliteDatabase = Database.Database;

/** Bump when the schema changes; every migration below is idempotent. */
export const SCHEMA_VERSION = 3;

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS documents (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     path TEXT NOT NULL UNIQUE,
     title TEXT NOT NULL,
     topic TEXT,
     category TEXT,
     date TEXT,
     tags TEXT NOT NULL DEFAULT '[]',
     metadata TEXT NOT NULL DEFAULT '{}',
     frontmatter_error TEXT,
     content_hash TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     mtime_ms REAL NOT NULL,
     last_indexed TEXT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS documents_hash ON documents(content_hash)`,
  `CREATE TABLE IF NOT EXISTS chunks (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
     chunk_index INTEGER NOT NULL,
     heading TEXT,
     level INTEGER,
     context TEXT NOT NULL,
     content TEXT NOT NULL,
     byte_start INTEGER NOT NULL,
     byte_end INTEGER NOT NULL,
     token_count INTEGER NOT NULL,
     quality_score REAL NOT NULL DEFAULT 1.0,
     embed_key TEXT
   )`,
  `CREATE INDEX IF NOT EXISTS chunks_document ON chunks(document_id, chunk_index)`,
  `CREATE TABLE IF NOT EXISTS chunk_vectors (
     chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
     embedding BLOB NOT NULL
   )`,
  `CREATE VIRTUAL TABLE IF NOT EXISTS fts_chunks USING fts5(
     heading, context, content, content='', contentless_delete=1,
     tokenize='trigram remove_diacritics 1 case_sensitive 0')`,
  `CREATE VIRTUAL TABLE IF NOT EXISTS fts_words USING fts5(
     heading, context, content, content='', contentless_delete=1,
     tokenize='porter unicode61 remove_diacritics 2')`,
  // Version 2: agent judgments (record_feedback). Not derived from the files, so re-indexing never touches
  // them and a forced rebuild copies them into the new file.
  `CREATE TABLE IF NOT EXISTS feedback_serves (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     recorded_at TEXT NOT NULL,
     task_id TEXT NOT NULL,
     query TEXT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS feedback_serves_task ON feedback_serves(task_id)`,
  `CREATE TABLE IF NOT EXISTS feedback_items (
     serve_id INTEGER NOT NULL REFERENCES feedback_serves(id) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     path TEXT NOT NULL,
     heading TEXT,
     verdict TEXT NOT NULL CHECK (verdict IN ('helped', 'noise', 'wrong')),
     always_served INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (serve_id, position)
   )`,
  // Version 3: per-chunk token counts of fts_words (word-counts.ts), for in-memory bm25 in long-lived sessions.
  // An index from version 2 has none; the next `groove index` fills them in (backfillWordCounts).
  // One B-tree (WITHOUT ROWID, ids assigned by the writer): a table plus a UNIQUE index makes each new term a
  // two-B-tree write, which may need a statement journal — and a savepoint makes FTS5 flush its pending terms.
  `CREATE TABLE IF NOT EXISTS word_terms (term TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS chunk_word_counts (
     chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
     counts BLOB NOT NULL
   )`,
];

export interface OpenDatabaseOptions {
  readonly?: boolean;
  /** Create the file when it does not exist (index does; search and status do not). */
  create?: boolean;
}

/** Open (and migrate) the index at `dbPath`; a file that is not a groove index is DB_CORRUPT. */
export function openDatabase(dbPath: string, options: OpenDatabaseOptions = {}): SqliteDatabase {
  if (!options.create && !fs.existsSync(dbPath)) {
    throw new GrooveError('INDEX_NOT_FOUND', `no index at "${dbPath}"`, {
      hint: 'run `groove index --kb-path <dir>` first',
    });
  }
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(dbPath, { readonly: options.readonly ?? false, fileMustExist: !options.create });
    db.pragma('busy_timeout = 30000');
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    if (!options.readonly) migrate(db);
    else db.prepare('SELECT count(*) FROM documents').get();
    return db;
  } catch (cause) {
    db?.close();
    if (cause instanceof GrooveError) throw cause;
    throw new GrooveError('DB_CORRUPT', `index "${dbPath}" cannot be opened: ${(cause as Error).message}`, {
      cause,
      hint: 'rebuild it with `groove index --force` (the broken file is replaced)',
    });
  }
}

function migrate(db: SqliteDatabase): void {
  db.transaction(() => {
    for (const statement of MIGRATIONS) db.exec(statement);
    db.prepare(`INSERT INTO index_meta(key, value) VALUES ('schema_version', ?)
      ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(String(SCHEMA_VERSION));
  })();
}

/** Remove an index file and its WAL/SHM companions. */
export function removeDatabaseFiles(dbPath: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbPath + suffix, { force: true });
}
