// How many rows an index holds: documents, chunks, vectors, chunks waiting for their vector, frontmatter errors.
import type { SqliteDatabase } from './open-database.js';

export interface RowCounts {
  documents: number;
  chunks: number;
  vectors: number;
  /** Chunks written and still waiting for their vector. */
  pendingEmbeddings: number;
  frontmatterErrors: number;
}

export function countDocuments(db: SqliteDatabase): number {
  return db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
}

export function countIndexRows(db: SqliteDatabase): RowCounts {
  return db
    .prepare(`SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks,
        (SELECT count(*) FROM chunk_vectors) AS vectors,
        (SELECT count(*) FROM embedding_queue) AS pendingEmbeddings,
        (SELECT count(*) FROM documents WHERE frontmatter_error IS NOT NULL) AS frontmatterErrors`)
    .get() as RowCounts;
}
