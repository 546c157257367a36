// Opens the SQLite index with groove's pragmas and runs the schema migrations: the only DDL in groove.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { GrooveError, storageFailure } from '../errors.js';

export type SqliteDatabase = Database.Database;

/** Bump when the schema changes; every migration below is idempotent. */
export const SCHEMA_VERSION = 5;

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
  // `content` first: FTS5 marks each position list of any column but the first with that column's number, so
  // the bulk of the text in column 0 saves two bytes per (trigram, chunk) — SciFact's trigram table 29 → 22 MB.
  // An index created before this keeps `heading, context, content`; readers take the order from the declaration
  // (chunk-search.ts), and writers name the columns.
  `CREATE VIRTUAL TABLE IF NOT EXISTS fts_chunks USING fts5(
     content, context, heading, content='', contentless_delete=1,
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
  // Version 4: chunks written before their vector (a first index is searchable lexically at once; embeddings
  // fill in behind). A chunk leaves the queue in the transaction that stores its vector, so a killed run loses
  // at most the batch in flight and the next run continues with what is left. An index from version 3 wrote
  // every chunk with its vector, so it starts with an empty queue.
  `CREATE TABLE IF NOT EXISTS embedding_queue (
     chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
     input_chars INTEGER NOT NULL
   )`,
  // Version 5: the links written in each note (document/note-links.ts), stored as written — `target` is a KB path
  // when `anchored`, else a wikilink name — and resolved to documents when read (store/link-edges.ts): which
  // document `[[Name]]` means depends on every file indexed, so a stored answer would go stale whenever any
  // other file appears, moves or goes. `name_key` and `document_names` (each document's folded file name, and
  // for Markdown also without its extension) make that resolution two indexed lookups.
  // An index from version 4 or older has neither; the next `groove index` re-parses every file (the chunk policy
  // records the link rules) and fills document_names in for any document it did not rewrite.
  `CREATE TABLE IF NOT EXISTS links (
     document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('markdown', 'wikilink')),
     written TEXT NOT NULL,
     target TEXT NOT NULL,
     anchored INTEGER NOT NULL,
     heading TEXT,
     name_key TEXT NOT NULL,
     PRIMARY KEY (document_id, position)
   ) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS links_name_key ON links(name_key)`,
  `CREATE TABLE IF NOT EXISTS document_names (
     name TEXT NOT NULL,
     document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
     PRIMARY KEY (name, document_id)
   ) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS document_names_document ON document_names(document_id)`,
  // The boost's evidence summed per (document, heading, UTC day) as judgments are written (feedback-evidence.ts),
  // so a search reads a few rows per judged document, never every judgment. An index without it starts empty;
  // the next recorded judgment sums the stored ones into it. Judgments are found by path to move or drop them.
  `CREATE TABLE IF NOT EXISTS feedback_evidence (
     path TEXT NOT NULL,
     heading_key TEXT NOT NULL,
     day INTEGER NOT NULL,
     helped_count INTEGER NOT NULL,
     negative_count INTEGER NOT NULL,
     helped_sum REAL NOT NULL,
     negative_sum REAL NOT NULL,
     first_at_ms INTEGER NOT NULL,
     last_at_ms INTEGER NOT NULL,
     PRIMARY KEY (path, heading_key, day)
   ) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS feedback_items_path ON feedback_items(path)`,
];

export interface OpenDatabaseOptions {
  readonly?: boolean;
  /** Create the file when it does not exist (index does; search and status do not). */
  create?: boolean;
  /** The knowledge-base folder the index is for: the hint for a missing index names it. */
  kbPath?: string;
}

/** A path as one shell word: as it is when that is safe, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** Stored in the SQLite header (offset 68), so an index is recognisable even when its pages are damaged. */
export const GROOVE_APPLICATION_ID = 0x47525631; // "GRV1"

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * What sits at an index path. `index`: a groove index (its header says so, or it has groove's index_meta);
 * `damaged-index`: groove's header but unreadable; `empty`: nothing to lose (no bytes, or SQLite with no
 * tables); `foreign`: anything else — never written, never replaced.
 */
export type IndexFileKind = 'absent' | 'empty' | 'index' | 'damaged-index' | 'foreign';

export function inspectIndexFile(dbPath: string): IndexFileKind {
  const header = Buffer.alloc(100);
  let bytes: number;
  try {
    const fd = fs.openSync(dbPath, 'r');
    try {
      bytes = fs.readSync(fd, header, 0, header.length, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw error;
  }
  if (bytes === 0) return 'empty';
  if (bytes < header.length || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC))
    return 'foreign';
  const stamped = header.readUInt32BE(68) === GROOVE_APPLICATION_ID;
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const kind = schemaKind(db);
    return stamped && kind !== 'index' ? 'damaged-index' : kind;
  } catch {
    return stamped ? 'damaged-index' : 'foreign';
  } finally {
    db?.close();
  }
}

/** A groove index has index_meta; a database without tables is empty; anything else is someone else's. */
function schemaKind(db: SqliteDatabase): 'index' | 'empty' | 'foreign' {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  if (tables.includes('index_meta')) return 'index';
  return tables.length === 0 ? 'empty' : 'foreign';
}

/** The error for a file at an index path that is not a groove index: groove never writes or replaces it. */
export function notAnIndexError(dbPath: string): GrooveError {
  return new GrooveError(
    'DB_NOT_INDEX',
    `"${dbPath}" is not a groove index; groove will not write or replace it`,
    {
      hint: 'pass another --db-path, or remove that file yourself if you no longer need it',
    },
  );
}

/**
 * Open (and migrate) the index at `dbPath`. Someone else's file (not SQLite, or SQLite without index_meta) is
 * DB_NOT_INDEX and is checked before anything is written to it; only a damaged groove index is DB_CORRUPT.
 */
export function openDatabase(dbPath: string, options: OpenDatabaseOptions = {}): SqliteDatabase {
  if (!options.create && !fs.existsSync(dbPath)) {
    throw new GrooveError('INDEX_NOT_FOUND', `no index at "${dbPath}"`, {
      hint: options.kbPath
        ? `run \`groove index --kb-path ${shellWord(options.kbPath)}\` first`
        : 'run `groove index` first',
    });
  }
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(dbPath, { readonly: options.readonly ?? false, fileMustExist: !options.create });
    db.pragma('busy_timeout = 30000');
    const kind = schemaKind(db);
    if (kind === 'foreign') throw notAnIndexError(dbPath);
    if (!options.readonly) {
      // Stamp a new file before WAL mode, so the stamp is in the main file's header from the start.
      if (kind === 'empty') db.pragma(`application_id = ${GROOVE_APPLICATION_ID}`);
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
    throw storageFailure(cause, dbPath) ?? unreadableIndexError(dbPath, cause);
  }
}

/** An index path SQLite could not read: a damaged groove index can be rebuilt; any other file is left alone. */
export function unreadableIndexError(dbPath: string, cause: unknown): GrooveError {
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('SQLITE_IOERR')) {
    // The disk failed the read or write; that says nothing about the file, so no rebuild is offered.
    return new GrooveError('DB_OPEN_FAILED', `index "${dbPath}" could not be read or written (${code})`, {
      cause,
      hint: `check the disk holding "${path.dirname(dbPath)}"; the index was not changed`,
    });
  }
  let kind: IndexFileKind;
  try {
    kind = inspectIndexFile(dbPath);
  } catch {
    kind = 'foreign';
  }
  if (kind !== 'index' && kind !== 'damaged-index') return notAnIndexError(dbPath);
  return new GrooveError('DB_CORRUPT', `index "${dbPath}" is damaged: ${(cause as Error).message}`, {
    cause,
    hint: 'rebuild it with `groove index --force` (the broken file is replaced)',
  });
}

/** Migrate only when the file is behind: an up-to-date index is opened without writing anything. */
function migrate(db: SqliteDatabase): void {
  if (isCurrent(db)) return;
  db.transaction(() => {
    for (const statement of MIGRATIONS) db.exec(statement);
    db.prepare(`INSERT INTO index_meta(key, value) VALUES ('schema_version', ?)
      ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(String(SCHEMA_VERSION));
    db.pragma(`application_id = ${GROOVE_APPLICATION_ID}`);
  })();
}

/** Every table the migrations create: an index missing one (dropped by hand, say) is migrated again. */
const SCHEMA_TABLES: readonly string[] = MIGRATIONS.flatMap((statement) => {
  const match = /^CREATE (?:VIRTUAL )?TABLE IF NOT EXISTS (\w+)/.exec(statement);
  return match ? [match[1]!] : [];
});

function isCurrent(db: SqliteDatabase): boolean {
  if (db.pragma('application_id', { simple: true }) !== GROOVE_APPLICATION_ID) return false;
  try {
    const version = db.prepare("SELECT value FROM index_meta WHERE key = 'schema_version'").pluck().get();
    if (version !== String(SCHEMA_VERSION)) return false;
  } catch {
    return false;
  }
  const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
  return SCHEMA_TABLES.every((table) => present.has(table));
}

/** Remove an index file and its SQLite companions (WAL, SHM, rollback journal). */
export function removeDatabaseFiles(dbPath: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(dbPath + suffix, { force: true });
}

/**
 * Open whatever file sits at an index path read-only, without the checks openDatabase makes (groove's tables, a
 * readable `documents`), so `groove doctor` can describe a damaged or foreign file; null when SQLite cannot read
 * it at all. Nothing is written: no migration, no stamp, no journal mode.
 */
export function openForInspection(dbPath: string): SqliteDatabase | null {
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 30000');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch {
    db?.close();
    return null;
  }
}
