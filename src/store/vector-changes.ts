// What a vector snapshot must apply to catch up with the index file, read in the caller's read transaction.
// It rests on how the index is written (document-store.ts): a file's text is replaced as a whole — its document
// row and every chunk deleted, a new document row and new chunks inserted — and chunk and document ids are
// AUTOINCREMENT, so the chunks written since a snapshot are exactly those past its highest chunk id, and the
// chunks deleted since are exactly those of its documents that are gone. A vector is stored once per chunk, for a
// chunk that was queued when the chunk was written.
import type { SqliteDatabase } from './open-database.js';
import { type VectorChanges, VectorIndex } from './vector-index.js';

/** Where a snapshot stands: the highest chunk id then written and the chunks then waiting for a vector. */
export interface VectorMark {
  maxChunkId: number;
  queued: Int32Array;
}

/** The highest chunk id the index holds now (0 when empty). */
export function readMaxChunkId(db: SqliteDatabase): number {
  return (db.prepare('SELECT max(id) FROM chunks').pluck().get() as number | null) ?? 0;
}

/**
 * The changes since `mark` for `index`: its documents no longer in the file (when the text changed), and the
 * vectors stored since — of chunks written after the mark, or queued at the mark and no longer queued.
 */
export function readVectorChanges(
  db: SqliteDatabase,
  index: VectorIndex,
  since: { mark: VectorMark; queuedNow: readonly number[]; textChanged: boolean },
): VectorChanges {
  const { mark, queuedNow, textChanged } = since;
  const removedDocuments = textChanged
    ? index.documentsMissingFrom(new Set(db.prepare('SELECT id FROM documents').pluck().all() as number[]))
    : [];
  const waiting = new Set(queuedNow);
  const stored = [...mark.queued].filter((id) => !waiting.has(id));
  if (textChanged) {
    const written = db
      .prepare('SELECT chunk_id FROM chunk_vectors WHERE chunk_id > ?')
      .pluck()
      .all(mark.maxChunkId);
    stored.push(...(written as number[]));
  }
  const added = stored.length > 0 ? VectorIndex.loadRows(db, stored, index.dimension) : [];
  return { removedDocuments, added };
}
