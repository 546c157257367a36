// Document and chunk rows, with their FTS rows, link rows and reused vectors (or a place in the embedding queue),
// written one document per transaction; a renamed or removed document's judgments move or go in the same
// transaction.
import type { NoteLink } from '../types.js';
import { dropJudgments, moveJudgments } from './feedback-store.js';
import { LinkRowWriter } from './link-rows.js';
import type { SqliteDatabase } from './open-database.js';
import { encodeTags } from './tags-column.js';
import { type WordColumns, WordCountWriter } from './word-counts.js';

export interface DocumentRowInput {
  path: string;
  title: string;
  topic: string | null;
  category: string | null;
  date: string | null;
  tags: string[];
  metadata: Record<string, unknown>;
  frontmatterError: string | null;
  contentHash: string;
  sizeBytes: number;
  mtimeMs: number;
  /** The note links the parser found (stored as written, resolved when read). */
  links: readonly NoteLink[];
}

export interface ChunkRowInput {
  index: number;
  heading: string | null;
  level: number | null;
  context: string;
  content: string;
  byteStart: number;
  byteEnd: number;
  tokenCount: number;
  qualityScore: number;
  /** Hash of the exact embedding input; lets an edit reuse the vectors of unchanged chunks. */
  embedKey: string | null;
  /** Length of that input: the embedding queue is worked through shortest first (0 without a model). */
  embedChars: number;
  /** A reused vector; a chunk with an embedKey and no vector is queued for embedding (embedding-queue.ts). */
  vector: Float32Array | null;
  /** The same three columns pre-segmented into words for the word-level FTS table. */
  words: { heading: string; context: string; content: string };
}

export interface StoredDocumentState {
  id: number;
  path: string;
  contentHash: string;
  sizeBytes: number;
  mtimeMs: number;
}

/** Prepared statements over one connection; every write method is its own transaction. */
export class DocumentStore {
  private readonly db: SqliteDatabase;
  private readonly statements;
  /** Created on the first write: read-only users of the index (search sessions) never pay for it. */
  private wordCountWriter: WordCountWriter | null = null;
  private linkRowWriter: LinkRowWriter | null = null;
  /**
   * Inside runInTransaction: the chunks written so far whose word counts are not stored yet. They are counted
   * together just before the commit (tokenizing one batch costs far less than one per document), in the same
   * transaction, so a crash still leaves every document whole.
   */
  private pendingCounts: Map<number, WordColumns> | null = null;

  constructor(db: SqliteDatabase) {
    this.db = db;
    this.statements = {
      insertDocument: db.prepare(`INSERT INTO documents
        (path, title, topic, category, date, tags, metadata, frontmatter_error, content_hash, size_bytes, mtime_ms, last_indexed)
        VALUES (@path, @title, @topic, @category, @date, @tags, @metadata, @frontmatterError, @contentHash, @sizeBytes, @mtimeMs, @lastIndexed)`),
      documentIdByPath: db.prepare('SELECT id FROM documents WHERE path = ?').pluck(),
      deleteDocument: db.prepare('DELETE FROM documents WHERE id = ?'),
      chunkIdsOfDocument: db.prepare('SELECT id FROM chunks WHERE document_id = ?').pluck(),
      insertChunk: db.prepare(`INSERT INTO chunks
        (document_id, chunk_index, heading, level, context, content, byte_start, byte_end, token_count, quality_score, embed_key)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      insertTrigram: db.prepare(
        'INSERT INTO fts_chunks(rowid, heading, context, content) VALUES (?, ?, ?, ?)',
      ),
      insertWords: db.prepare('INSERT INTO fts_words(rowid, heading, context, content) VALUES (?, ?, ?, ?)'),
      deleteTrigram: db.prepare('DELETE FROM fts_chunks WHERE rowid = ?'),
      deleteWords: db.prepare('DELETE FROM fts_words WHERE rowid = ?'),
      insertVector: db.prepare('INSERT INTO chunk_vectors(chunk_id, embedding) VALUES (?, ?)'),
      enqueueEmbedding: db.prepare('INSERT INTO embedding_queue(chunk_id, input_chars) VALUES (?, ?)'),
      // Counts changes to the text searches rank (documents, chunks, word counts), so a long-lived search session
      // keeps its word snapshot across commits that only store vectors or judgments.
      bumpTextGeneration: db.prepare(`INSERT INTO index_meta(key, value) VALUES ('text_generation', '1')
        ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`),
      touchDocument: db.prepare('UPDATE documents SET size_bytes = ?, mtime_ms = ? WHERE path = ?'),
      allStates: db.prepare('SELECT id, path, content_hash, size_bytes, mtime_ms FROM documents'),
      statesAt: db.prepare(`SELECT id, path, content_hash, size_bytes, mtime_ms FROM documents
        WHERE path IN (SELECT value FROM json_each(?))`),
      vectorsByEmbedKey: db.prepare(`SELECT c.embed_key AS embedKey, v.embedding AS embedding
        FROM chunks c JOIN chunk_vectors v ON v.chunk_id = c.id WHERE c.document_id = ? AND c.embed_key IS NOT NULL`),
    };
  }

  /** Release the word-count tokenizer's private connection (the index connection is the caller's). */
  close(): void {
    this.wordCountWriter?.close();
    this.wordCountWriter = null;
  }

  private wordCounts(): WordCountWriter {
    this.wordCountWriter ??= new WordCountWriter(this.db);
    return this.wordCountWriter;
  }

  private linkRows(): LinkRowWriter {
    this.linkRowWriter ??= new LinkRowWriter(this.db);
    return this.linkRowWriter;
  }

  /** path → stored hash, size and mtime, for the incremental decision: every document, or those at `paths`. */
  readDocumentStates(paths?: readonly string[]): Map<string, StoredDocumentState> {
    const statement = paths ? this.statements.statesAt : this.statements.allStates;
    const rows = (paths ? statement.all(JSON.stringify(paths)) : statement.all()) as {
      id: number;
      path: string;
      content_hash: string;
      size_bytes: number;
      mtime_ms: number;
    }[];
    return new Map(
      rows.map((r) => [
        r.path,
        { id: r.id, path: r.path, contentHash: r.content_hash, sizeBytes: r.size_bytes, mtimeMs: r.mtime_ms },
      ]),
    );
  }

  /** Vectors of a stored document keyed by their embedding-input hash, for reuse after an edit or rename. */
  readReusableVectors(documentId: number): Map<string, Float32Array> {
    const rows = this.statements.vectorsByEmbedKey.all(documentId) as {
      embedKey: string;
      embedding: Buffer;
    }[];
    return new Map(rows.map((r) => [r.embedKey, bufferToVector(r.embedding)]));
  }

  /**
   * Replace whatever is stored at `doc.path` (and at `replacesPath`, for a rename) with the new rows,
   * atomically: a reader sees either the old document or the new one, never a mix.
   */
  writeDocument(doc: DocumentRowInput, chunks: ChunkRowInput[], replacesPath?: string): void {
    this.atomically(() => {
      this.removeByPath(doc.path);
      // A rename: the document's judgments follow it, as its chunks do.
      if (replacesPath !== undefined && this.removeByPath(replacesPath)) {
        moveJudgments(this.db, replacesPath, doc.path);
      }
      const { links, ...row } = doc;
      const result = this.statements.insertDocument.run({
        ...row,
        tags: encodeTags(doc.tags),
        metadata: JSON.stringify(doc.metadata),
        lastIndexed: new Date().toISOString(),
      });
      const documentId = Number(result.lastInsertRowid);
      this.linkRows().write(documentId, doc.path, links);
      for (const chunk of chunks) this.countWordsLater(this.insertChunk(documentId, chunk), chunk.words);
      this.statements.bumpTextGeneration.run();
    });
  }

  /** Remember a new size/mtime for a file whose bytes did not change. */
  touchDocument(path: string, sizeBytes: number, mtimeMs: number): void {
    this.statements.touchDocument.run(sizeBytes, mtimeMs, path);
  }

  /** touchDocument for many files in one transaction (after a checkout that only moved mtimes). */
  touchDocuments(files: { path: string; sizeBytes: number; mtimeMs: number }[]): void {
    if (files.length === 0) return;
    this.runInTransaction(() => {
      for (const f of files) this.statements.touchDocument.run(f.sizeBytes, f.mtimeMs, f.path);
    });
  }

  /**
   * Run `work` in one transaction; the write methods called inside join it, so each document is still replaced
   * all-or-nothing and a crash loses at most the uncommitted group, never half a document. The group's word
   * counts are stored at its end, before the commit.
   */
  runInTransaction(work: () => void): void {
    if (this.pendingCounts) {
      work();
      return;
    }
    this.pendingCounts = new Map();
    try {
      this.db.transaction(() => {
        work();
        this.flushWordCounts();
      })();
    } finally {
      this.pendingCounts = null;
    }
  }

  /**
   * Run `work` in its own transaction, or directly inside the caller's. Deliberately no SAVEPOINT when nested:
   * FTS5 flushes its pending terms into a new segment at every savepoint, which made one-transaction groups
   * as slow as one commit per file. A failure still rolls back the whole enclosing transaction.
   */
  private atomically(work: () => void): void {
    if (this.pendingCounts || this.db.inTransaction) work();
    else this.runInTransaction(work);
  }

  /** Count a new chunk's words now, or with its group when a runInTransaction is open. */
  private countWordsLater(chunkId: number, words: WordColumns): void {
    if (this.pendingCounts) this.pendingCounts.set(chunkId, words);
    else this.wordCounts().write([{ id: chunkId, words }]);
  }

  private flushWordCounts(): void {
    const pending = this.pendingCounts;
    if (!pending || pending.size === 0) return;
    this.wordCounts().write([...pending].map(([id, words]) => ({ id, words })));
    pending.clear();
  }

  /**
   * Store token counts for every chunk that has none (an index from before schema 3), recomputing its word-level
   * columns with `segment` exactly as indexing does. Batches of 1,000 chunks per transaction; returns how many.
   */
  backfillWordCounts(segment: (text: string) => string): number {
    const missing = this.db.prepare(`SELECT c.id, c.heading, c.context, c.content FROM chunks c
      WHERE c.id > ? AND NOT EXISTS (SELECT 1 FROM chunk_word_counts w WHERE w.chunk_id = c.id)
      ORDER BY c.id LIMIT 1000`);
    let filled = 0;
    let after = 0;
    for (;;) {
      // An id cursor, so the loop ends even if a batch stored nothing.
      const rows = missing.all(after) as {
        id: number;
        heading: string | null;
        context: string;
        content: string;
      }[];
      if (rows.length === 0) return filled;
      after = rows[rows.length - 1]!.id;
      this.runInTransaction(() => {
        this.wordCounts().write(
          rows.map((row) => ({
            id: row.id,
            words: {
              heading: segment(row.heading ?? ''),
              context: segment(row.context),
              content: segment(row.content),
            },
          })),
        );
        this.statements.bumpTextGeneration.run();
      });
      filled += rows.length;
    }
  }

  /** Give every document without names its names (an index from before schema 5); returns how many. */
  backfillDocumentNames(): number {
    let filled = 0;
    this.runInTransaction(() => {
      filled = this.linkRows().backfillNames();
    });
    return filled;
  }

  /**
   * Delete documents by path in one transaction, each with its judgments (feedback-store.ts dropJudgments);
   * returns how many existed.
   */
  deleteDocuments(paths: string[]): number {
    let deleted = 0;
    this.atomically(() => {
      for (const path of paths) {
        if (!this.removeByPath(path)) continue;
        dropJudgments(this.db, path);
        deleted++;
      }
    });
    return deleted;
  }

  private insertChunk(documentId: number, chunk: ChunkRowInput): number {
    const s = this.statements;
    const result = s.insertChunk.run(
      documentId,
      chunk.index,
      chunk.heading,
      chunk.level,
      chunk.context,
      chunk.content,
      chunk.byteStart,
      chunk.byteEnd,
      chunk.tokenCount,
      chunk.qualityScore,
      chunk.embedKey,
    );
    const chunkId = result.lastInsertRowid;
    s.insertTrigram.run(chunkId, chunk.heading ?? '', chunk.context, chunk.content);
    s.insertWords.run(chunkId, chunk.words.heading, chunk.words.context, chunk.words.content);
    if (chunk.vector) s.insertVector.run(chunkId, vectorToBuffer(chunk.vector));
    else if (chunk.embedKey !== null) s.enqueueEmbedding.run(chunkId, chunk.embedChars);
    return Number(chunkId);
  }

  private removeByPath(path: string): boolean {
    const s = this.statements;
    const id = s.documentIdByPath.get(path) as number | undefined;
    if (id === undefined) return false;
    for (const chunkId of s.chunkIdsOfDocument.all(id) as number[]) {
      s.deleteTrigram.run(chunkId);
      s.deleteWords.run(chunkId);
      this.pendingCounts?.delete(chunkId);
    }
    s.deleteDocument.run(id);
    s.bumpTextGeneration.run();
    return true;
  }
}

export function vectorToBuffer(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function bufferToVector(buffer: Buffer): Float32Array {
  const copy = new Float32Array(buffer.byteLength / 4);
  new Uint8Array(copy.buffer).set(buffer);
  return copy;
}
