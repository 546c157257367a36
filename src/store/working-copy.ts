// The SQLite working copy of an index kept in a shared store: filled from the store's rows (FTS rows rebuilt from
// the chunks, as indexing writes them) and read back whole, so indexing and search run on SQLite unchanged.
import { bundleDocuments } from '../core/document-bundles.js';
import type { IndexContents, StoredRow } from '../core/index-storage.js';
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
  const trigram = db.prepare('INSERT INTO fts_chunks(rowid, heading, context, content) VALUES (?, ?, ?, ?)');
  const words = db.prepare('INSERT INTO fts_words(rowid, heading, context, content) VALUES (?, ?, ?, ?)');
  const vector = db.prepare('INSERT INTO chunk_vectors(chunk_id, embedding) VALUES (?, ?)');
  const meta = db.prepare(`INSERT INTO index_meta(key, value) VALUES (?, ?)
    ON CONFLICT(key) DO UPDATE SET value = excluded.value`);
  const term = db.prepare('INSERT INTO word_terms(term, id) VALUES (?, ?)');
  db.transaction(() => {
    for (const [key, value] of contents.meta) meta.run(key, value);
    for (const [text, id] of contents.terms) term.run(text, id);
    for (const bundle of contents.documents) {
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
    }
    insertRows(db, 'feedback_serves', contents.feedbackServes);
    insertRows(db, 'feedback_items', contents.feedbackItems);
  })();
}

/** Everything the working copy holds, in one read transaction (generation 0: a working copy has none). */
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
      meta: new Map(db.prepare('SELECT key, value FROM index_meta').raw().all() as [string, string][]),
      terms: new Map(db.prepare('SELECT term, id FROM word_terms').raw().all() as [string, number][]),
      documents,
      feedbackServes: all('SELECT * FROM feedback_serves ORDER BY id'),
      feedbackItems: all('SELECT * FROM feedback_items ORDER BY serve_id, position'),
      generation: 0,
    };
  })();
}
