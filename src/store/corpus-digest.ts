// One ordered pass over every indexed chunk: the corpus snapshot eval records (document and chunk counts plus
// a SHA-256 over the chunk rows), with each row handed to a visitor so other scans can share the pass.
import { createHash, type Hash } from 'node:crypto';
import type { SqliteDatabase } from './open-database.js';

/** The indexed text of one chunk, exactly the columns full-text search indexes, plus where it lives. */
export interface CorpusChunkRow {
  path: string;
  chunkIndex: number;
  heading: string | null;
  /** The breadcrumb (FTS `context` column). */
  context: string;
  content: string;
}

export interface CorpusDigest {
  documents: number;
  chunks: number;
  /** Hex SHA-256 over the rows in (path, chunk_index) order. */
  digest: string;
}

/**
 * Read the corpus in (path, chunk_index) order. Each row feeds the digest with path, chunk_index (decimal
 * text), heading, content and context, each field written as a marker byte (0 = NULL, 1 = present) followed,
 * when present, by its UTF-8 length as a little-endian u64 and the bytes. Chunks are hashed rather than file
 * hashes because chunks are what search reads: a re-parse of unchanged files still moves the digest.
 * Call inside a read transaction when the counts must agree with other reads.
 */
export function readCorpusDigest(db: SqliteDatabase, visit?: (row: CorpusChunkRow) => void): CorpusDigest {
  const hash = createHash('sha256');
  const rows = db
    .prepare(`SELECT d.path AS path, c.chunk_index AS chunkIndex, c.heading AS heading, c.context AS context,
        c.content AS content
      FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY d.path, c.chunk_index`)
    .iterate() as IterableIterator<CorpusChunkRow>;
  let chunks = 0;
  for (const row of rows) {
    chunks++;
    for (const field of [row.path, String(row.chunkIndex), row.heading, row.content, row.context]) {
      writeField(hash, field);
    }
    visit?.(row);
  }
  const documents = db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
  return { documents, chunks, digest: hash.digest('hex') };
}

function writeField(hash: Hash, value: string | null): void {
  if (value === null) {
    hash.update(NULL_MARKER);
    return;
  }
  const bytes = Buffer.from(value, 'utf8');
  const header = Buffer.alloc(9);
  header[0] = 1;
  header.writeBigUInt64LE(BigInt(bytes.length), 1);
  hash.update(header);
  hash.update(bytes);
}

const NULL_MARKER = Buffer.from([0]);
