// The chunks still waiting for a vector (embedding_queue): filled when a chunk is written without one, emptied
// batch by batch as vectors are stored. A chunk and its queue row go together (ON DELETE CASCADE).
import type { SqliteDatabase } from './open-database.js';

/** One queued chunk: its id and the length of its embedding input, by which batches are grouped. */
export interface QueuedChunk {
  chunkId: number;
  inputChars: number;
}

/** What the embedder is given for one queued chunk. */
export interface QueuedChunkText {
  chunkId: number;
  context: string;
  content: string;
}

/** Rows read per statement when a batch's texts are fetched (well under SQLite's variable limit). */
const IDS_PER_STATEMENT = 500;

export class EmbeddingQueue {
  private readonly db: SqliteDatabase;
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.db = db;
    this.statements = {
      all: db.prepare(
        'SELECT chunk_id AS chunkId, input_chars AS inputChars FROM embedding_queue ORDER BY input_chars, chunk_id',
      ),
      size: db.prepare('SELECT count(*) FROM embedding_queue').pluck(),
      ids: db.prepare('SELECT chunk_id FROM embedding_queue').pluck(),
      // Only a chunk still in the queue gets the vector: one deleted meanwhile (an edit) is skipped.
      storeVector: db.prepare(`INSERT INTO chunk_vectors(chunk_id, embedding)
        SELECT chunk_id, ? FROM embedding_queue WHERE chunk_id = ?
        ON CONFLICT(chunk_id) DO UPDATE SET embedding = excluded.embedding`),
      dequeue: db.prepare('DELETE FROM embedding_queue WHERE chunk_id = ?'),
    };
  }

  /** Every queued chunk, shortest input first (ties by id), so each batch holds inputs of about one length. */
  readAll(): QueuedChunk[] {
    return this.statements.all.all() as QueuedChunk[];
  }

  /** The ids of every queued chunk. */
  readIds(): number[] {
    return this.statements.ids.all() as number[];
  }

  size(): number {
    return this.statements.size.get() as number;
  }

  /** The breadcrumb and text of the given chunks, in the order asked; chunks gone since are left out. */
  readTexts(chunkIds: readonly number[]): QueuedChunkText[] {
    const found = new Map<number, QueuedChunkText>();
    for (let start = 0; start < chunkIds.length; start += IDS_PER_STATEMENT) {
      const ids = chunkIds.slice(start, start + IDS_PER_STATEMENT);
      const rows = this.db
        .prepare(
          `SELECT id AS chunkId, context, content FROM chunks WHERE id IN (${ids.map(() => '?').join(',')})`,
        )
        .all(...ids) as QueuedChunkText[];
      for (const row of rows) found.set(row.chunkId, row);
    }
    return chunkIds.flatMap((id) => found.get(id) ?? []);
  }

  /** Empty the queue and forget every chunk's embedding key: the index has no model after all. */
  discardAll(): void {
    this.db.transaction(() => {
      this.db.exec('DELETE FROM embedding_queue');
      this.db.exec('UPDATE chunks SET embed_key = NULL WHERE embed_key IS NOT NULL');
    })();
  }

  /** Store a batch of vectors and take their chunks off the queue, in one transaction. */
  storeVectors(entries: readonly { chunkId: number; vector: Float32Array }[]): void {
    const s = this.statements;
    this.db.transaction(() => {
      for (const { chunkId, vector } of entries) {
        s.storeVector.run(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), chunkId);
        s.dequeue.run(chunkId);
      }
    })();
  }
}
