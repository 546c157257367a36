// The SQLite working copy of an index kept in a shared store: filled from the store's rows (FTS rows rebuilt from
// the chunks, as indexing writes them) and read back whole, so indexing and search run on SQLite unchanged.
import { bundleDocuments } from '../core/document-bundles.js';
import type {
  DocumentBundle,
  IndexContents,
  IndexDelta,
  KnownContents,
  StoredRow,
} from '../core/index-storage.js';
import { bufferToVector, vectorToBuffer } from './document-store.js';
import type { SqliteDatabase } from './open-database.js';

/** Insert `rows` into `table` with one statement per column set (rows of one table share their columns). */
function insertRows(db: SqliteDatabase, table: string, rows: readonly StoredRow[]): void {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const insert = db.prepare(
    `INSERT INTO ${table}(${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  for (const row of rows) insert.run(row);
}

/** The statements that write one document bundle and its FTS rows into a working copy. */
function bundleWriter(db: SqliteDatabase, segment: (text: string) => string) {
  const trigram = db.prepare('INSERT INTO fts_chunks(rowid, heading, context, content) VALUES (?, ?, ?, ?)');
  const words = db.prepare('INSERT INTO fts_words(rowid, heading, context, content) VALUES (?, ?, ?, ?)');
  const vector = db.prepare('INSERT INTO chunk_vectors(chunk_id, embedding) VALUES (?, ?)');
  return (bundle: DocumentBundle) => {
    insertRows(db, 'documents', [bundle.document]);
    insertRows(db, 'chunks', bundle.chunks);
    for (const chunk of bundle.chunks) {
      const heading = (chunk.heading as string | null) ?? '';
      const context = chunk.context as string;
      const content = chunk.content as string;
      trigram.run(chunk.id, heading, context, content);
      words.run(chunk.id, segment(heading), segment(context), segment(content));
    }
    insertRows(db, 'chunk_word_counts', bundle.wordCounts);
    insertRows(db, 'embedding_queue', bundle.queue);
    for (const [chunkId, embedding] of bundle.vectors) vector.run(chunkId, vectorToBuffer(embedding));
    insertRows(db, 'links', bundle.links);
    insertRows(db, 'document_names', bundle.names);
  };
}

/**
 * Fill an empty working copy with `contents`, in one transaction. Each chunk's FTS rows are written from its
 * columns exactly as DocumentStore writes them: the trigram table from the text, the word table from `segment`
 * (the indexer's word segmenter) of heading, context and content.
 */
export function loadWorkingCopy(
  db: SqliteDatabase,
  contents: IndexContents,
  segment: (text: string) => string,
): void {
  const writeBundle = bundleWriter(db, segment);
  const meta = db.prepare(`INSERT INTO index_meta(key, value) VALUES (?, ?)
    ON CONFLICT(key) DO UPDATE SET value = excluded.value`);
  const term = db.prepare('INSERT INTO word_terms(term, id) VALUES (?, ?)');
  db.transaction(() => {
    for (const [key, value] of contents.meta) meta.run(key, value);
    for (const [text, id] of contents.terms) term.run(text, id);
    for (const bundle of contents.documents) writeBundle(bundle);
    insertRows(db, 'feedback_serves', contents.feedbackServes);
    insertRows(db, 'feedback_items', contents.feedbackItems);
  })();
}

/** What the working copy holds, for reading only what changed since (`touchedChunkIds` from the commit log). */
export function knownContents(db: SqliteDatabase, touchedChunkIds: readonly number[]): KnownContents {
  const ids = db.prepare('SELECT id FROM documents').pluck().all() as number[];
  const maxTermId = (db.prepare('SELECT max(id) FROM word_terms').pluck().get() as number | null) ?? 0;
  return { documentIds: new Set(ids), maxTermId, touchedChunkIds };
}

/**
 * Apply what changed in the store, in one transaction: removed documents go with their FTS rows (the rest of
 * their rows cascade), added ones are written as loadWorkingCopy writes them, touched chunks get their vectors and
 * leave the queue, facts and new terms are taken over. A change to the text bumps the working copy's own text
 * generation, so a search session open on it refreshes its snapshots.
 */
export function applyDelta(
  db: SqliteDatabase,
  delta: IndexDelta,
  segment: (text: string) => string,
  state?: { version: number; generation: number },
): void {
  const writeBundle = bundleWriter(db, segment);
  const chunkIds = db.prepare('SELECT id FROM chunks WHERE document_id = ?').pluck();
  const deleteTrigram = db.prepare('DELETE FROM fts_chunks WHERE rowid = ?');
  const deleteWords = db.prepare('DELETE FROM fts_words WHERE rowid = ?');
  const deleteDocument = db.prepare('DELETE FROM documents WHERE id = ?');
  const storeVector = db.prepare('INSERT OR REPLACE INTO chunk_vectors(chunk_id, embedding) VALUES (?, ?)');
  const dequeue = db.prepare('DELETE FROM embedding_queue WHERE chunk_id = ?');
  const meta = db.prepare(`INSERT INTO index_meta(key, value) VALUES (?, ?)
    ON CONFLICT(key) DO UPDATE SET value = excluded.value`);
  const term = db.prepare('INSERT OR IGNORE INTO word_terms(term, id) VALUES (?, ?)');
  const bumpTextGeneration = db.prepare(`INSERT INTO index_meta(key, value) VALUES ('text_generation', '1')
    ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`);
  db.transaction(() => {
    for (const id of delta.removedIds) {
      for (const chunkId of chunkIds.all(id) as number[]) {
        deleteTrigram.run(chunkId);
        deleteWords.run(chunkId);
      }
      deleteDocument.run(id);
    }
    for (const bundle of delta.added) writeBundle(bundle);
    for (const chunkId of delta.touched) {
      const vector = delta.vectors.get(chunkId);
      if (vector) storeVector.run(chunkId, vectorToBuffer(vector));
      if (!delta.stillQueued.has(chunkId)) dequeue.run(chunkId);
    }
    for (const [key, value] of delta.meta) if (key !== 'text_generation') meta.run(key, value);
    for (const [text, id] of delta.terms) term.run(text, id);
    if (delta.removedIds.length > 0 || delta.added.length > 0) bumpTextGeneration.run();
    if (state) writeWorkingCopyState(db, state);
  })();
}

/** Everything the working copy holds, in one read transaction (generation and version 0: it has neither). */
export function readWorkingCopy(db: SqliteDatabase): IndexContents {
  return db.transaction((): IndexContents => {
    const all = (sql: string) => db.prepare(sql).all() as StoredRow[];
    const vectors = new Map<number, Float32Array>();
    const vectorRows = db.prepare('SELECT chunk_id, embedding FROM chunk_vectors').raw().all();
    for (const [chunkId, embedding] of vectorRows as [number, Buffer][]) {
      vectors.set(chunkId, bufferToVector(embedding));
    }
    const documents = bundleDocuments({
      documents: all('SELECT * FROM documents ORDER BY id'),
      chunks: all('SELECT * FROM chunks ORDER BY id'),
      wordCounts: all('SELECT * FROM chunk_word_counts ORDER BY chunk_id'),
      queue: all('SELECT * FROM embedding_queue ORDER BY chunk_id'),
      links: all('SELECT * FROM links ORDER BY document_id, position'),
      names: all('SELECT * FROM document_names ORDER BY document_id, name'),
      vectors,
    });
    return {
      meta: storeMeta(db),
      terms: new Map(db.prepare('SELECT term, id FROM word_terms').raw().all() as [string, number][]),
      documents,
      feedbackServes: all('SELECT * FROM feedback_serves ORDER BY id'),
      feedbackItems: all('SELECT * FROM feedback_items ORDER BY serve_id, position'),
      generation: 0,
      version: 0,
    };
  })();
}

/** The embedding queue's rows grouped by the document of their chunk, in chunk order. */
function queueByDocument(db: SqliteDatabase): Map<number, StoredRow[]> {
  const rows = db
    .prepare(
      'SELECT q.*, c.document_id FROM embedding_queue q JOIN chunks c ON c.id = q.chunk_id ORDER BY q.chunk_id',
    )
    .all() as StoredRow[];
  const byDocument = new Map<number, StoredRow[]>();
  for (const { document_id: documentId, ...row } of rows) {
    const group = byDocument.get(documentId as number) ?? [];
    group.push(row);
    byDocument.set(documentId as number, group);
  }
  return byDocument;
}

/** Rows of `sql` (one `?`: a JSON array of ids) for the ids given; none for an empty list. */
function rowsFor(db: SqliteDatabase, sql: string, ids: readonly number[]): StoredRow[] {
  if (ids.length === 0) return [];
  return db.prepare(sql).all(JSON.stringify(ids)) as StoredRow[];
}

/**
 * What a write-back needs of the working copy after a run, given what the store held before (`before`, per-chunk
 * rows left out): every document row and queue entry, documents with new ids whole, and for kept documents only
 * the vectors of chunks that left the queue since. Terms: `before`'s plus the new ones. Reads a small part of a
 * large working copy when a run changed a few files.
 */
export function readWorkingCopyChanges(db: SqliteDatabase, before: IndexContents | null): IndexContents {
  if (before === null) return readWorkingCopy(db);
  return db.transaction((): IndexContents => {
    const all = (sql: string) => db.prepare(sql).all() as StoredRow[];
    const previous = new Map(before.documents.map((bundle) => [bundle.document.id as number, bundle]));
    const documents = all('SELECT * FROM documents ORDER BY id');
    const freshIds = documents.map((d) => d.id as number).filter((id) => !previous.has(id));
    const inFresh = 'IN (SELECT value FROM json_each(?))';
    const queueOf = queueByDocument(db);
    const queuedNow = new Set([...queueOf.values()].flat().map((row) => row.chunk_id as number));
    const left = [...previous.values()].flatMap((bundle) =>
      bundle.queue.map((row) => row.chunk_id as number).filter((id) => !queuedNow.has(id)),
    );
    const vectorRows = [
      ...rowsFor(
        db,
        `SELECT v.chunk_id, v.embedding FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.document_id ${inFresh}`,
        freshIds,
      ),
      ...rowsFor(db, `SELECT chunk_id, embedding FROM chunk_vectors WHERE chunk_id ${inFresh}`, left),
    ];
    const vectors = new Map(
      vectorRows.map((row) => [row.chunk_id as number, bufferToVector(row.embedding as Buffer)]),
    );
    const fresh = bundleDocuments({
      documents: documents.filter((d) => !previous.has(d.id as number)),
      chunks: rowsFor(db, `SELECT * FROM chunks WHERE document_id ${inFresh} ORDER BY id`, freshIds),
      wordCounts: rowsFor(
        db,
        `SELECT w.* FROM chunk_word_counts w JOIN chunks c ON c.id = w.chunk_id WHERE c.document_id ${inFresh} ORDER BY w.chunk_id`,
        freshIds,
      ),
      queue: documents.flatMap((d) => queueOf.get(d.id as number) ?? []),
      links: rowsFor(
        db,
        `SELECT * FROM links WHERE document_id ${inFresh} ORDER BY document_id, position`,
        freshIds,
      ),
      names: rowsFor(
        db,
        `SELECT * FROM document_names WHERE document_id ${inFresh} ORDER BY document_id, name`,
        freshIds,
      ),
      vectors,
    });
    const freshById = new Map(fresh.map((bundle) => [bundle.document.id as number, bundle]));
    const bundles = documents.map((document): DocumentBundle => {
      const id = document.id as number;
      const whole = freshById.get(id);
      if (whole) return whole;
      const gone = (previous.get(id)?.queue ?? []).map((row) => row.chunk_id as number);
      const stored = gone.flatMap((chunkId): [number, Float32Array][] => {
        const vector = vectors.get(chunkId);
        return vector && !queuedNow.has(chunkId) ? [[chunkId, vector]] : [];
      });
      const empty = { chunks: [], wordCounts: [], links: [], names: [] };
      return { document, queue: queueOf.get(id) ?? [], vectors: new Map(stored), ...empty };
    });
    let maxTermId = 0;
    for (const id of before.terms.values()) if (id > maxTermId) maxTermId = id;
    const added = db.prepare('SELECT term, id FROM word_terms WHERE id > ?').raw().all(maxTermId) as [
      string,
      number,
    ][];
    return {
      meta: storeMeta(db),
      terms: new Map([...before.terms, ...added]),
      documents: bundles,
      feedbackServes: all('SELECT * FROM feedback_serves ORDER BY id'),
      feedbackItems: all('SELECT * FROM feedback_items ORDER BY serve_id, position'),
      generation: 0,
      version: 0,
    };
  })();
}

/** Keys a working copy keeps for itself: never written to the store. */
const WORKING_COPY_KEYS = new Set(['working_copy_version', 'working_copy_generation']);

/** The index facts that belong to the store (the working copy's own bookkeeping left out). */
function storeMeta(db: SqliteDatabase): Map<string, string> {
  const rows = db.prepare('SELECT key, value FROM index_meta').raw().all() as [string, string][];
  return new Map(rows.filter(([key]) => !WORKING_COPY_KEYS.has(key)));
}

/** Which store state the working copy holds, or null when unknown (never recorded, or a run changed it since). */
export function readWorkingCopyState(db: SqliteDatabase): { version: number; generation: number } | null {
  const rows = db
    .prepare(
      "SELECT key, value FROM index_meta WHERE key IN ('working_copy_version', 'working_copy_generation')",
    )
    .raw()
    .all() as [string, string][];
  const meta = new Map(rows);
  const version = Number(meta.get('working_copy_version'));
  const generation = Number(meta.get('working_copy_generation'));
  return Number.isSafeInteger(version) && Number.isSafeInteger(generation) && meta.size === 2
    ? { version, generation }
    : null;
}

/** Record the store state the working copy now holds; null: forget it (a run is about to change the copy). */
export function writeWorkingCopyState(
  db: SqliteDatabase,
  state: { version: number; generation: number } | null,
): void {
  const forget = db.prepare(
    "DELETE FROM index_meta WHERE key IN ('working_copy_version', 'working_copy_generation')",
  );
  const put = db.prepare(
    'INSERT INTO index_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  db.transaction(() => {
    forget.run();
    if (state === null) return;
    put.run('working_copy_version', String(state.version));
    put.run('working_copy_generation', String(state.generation));
  })();
}

/**
 * What a write-back needs to know of the store a working copy mirrors, read from the copy: document rows and
 * queue entries (per-chunk rows left out), terms, facts and judgments, and the recorded state.
 */
export function readLeanContents(
  db: SqliteDatabase,
  state: { version: number; generation: number },
): IndexContents {
  return db.transaction((): IndexContents => {
    const all = (sql: string) => db.prepare(sql).all() as StoredRow[];
    const queueOf = queueByDocument(db);
    const empty = { chunks: [], wordCounts: [], links: [], names: [] };
    const documents = all('SELECT * FROM documents ORDER BY id').map(
      (document): DocumentBundle => ({
        document,
        queue: queueOf.get(document.id as number) ?? [],
        vectors: new Map(),
        ...empty,
      }),
    );
    return {
      meta: storeMeta(db),
      terms: new Map(db.prepare('SELECT term, id FROM word_terms').raw().all() as [string, number][]),
      documents,
      feedbackServes: all('SELECT * FROM feedback_serves ORDER BY id'),
      feedbackItems: all('SELECT * FROM feedback_items ORDER BY serve_id, position'),
      ...state,
    };
  })();
}

/**
 * Copy the database into a new file at `target` in one read transaction (a consistent state, whatever another
 * process applies meanwhile).
 */
export function copyDatabaseInto(db: SqliteDatabase, target: string): void {
  db.prepare('VACUUM INTO ?').run(target);
}
