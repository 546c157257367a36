// What a word snapshot must apply to catch up with the index file, read in the caller's read transaction. Like
// vector-changes.ts it rests on how the index is written: a file's text is replaced whole (new document and chunk
// rows, AUTOINCREMENT ids), so the chunks written since a snapshot are those past its highest chunk id and the
// chunks deleted since are those of its documents that are gone.
import type { SqliteDatabase } from './open-database.js';
import { decodeTermCounts } from './word-counts.js';
import type { CountedChunk, WordChanges, WordIndex } from './word-index.js';

/** The changes since `index` was taken, or null when some new chunk has no stored counts (then load whole). */
export function readWordChanges(db: SqliteDatabase, index: WordIndex): WordChanges | null {
  const since = index.maxChunkId;
  const added = db
    .prepare(`SELECT c.id, c.document_id, c.quality_score, w.counts FROM chunks c
      JOIN chunk_word_counts w ON w.chunk_id = c.id WHERE c.id > ? ORDER BY c.id`)
    .raw()
    .all(since) as CountedChunk[];
  const written = db.prepare('SELECT count(*) FROM chunks WHERE id > ?').pluck().get(since) as number;
  if (written !== added.length) return null;
  let unknownTerm = false;
  for (const [, , , blob] of added) {
    decodeTermCounts(blob, (termId) => {
      if (!index.knowsTerm(termId)) unknownTerm = true;
    });
  }
  // word_terms is keyed by term, so finding the new ones scans it: only when a new chunk uses one.
  const newTerms = unknownTerm
    ? (db.prepare('SELECT id, term FROM word_terms').raw().all() as [number, string][]).filter(
        ([id]) => !index.knowsTerm(id),
      )
    : [];
  const presentDocuments = new Set(db.prepare('SELECT id FROM documents').pluck().all() as number[]);
  return { presentDocuments, added, newTerms };
}
