// The shared-storage port: what a knowledge base's index holds, as rows a backend stores and returns whole. The
// SQLite working copy (store/working-copy.ts) is what indexing and search run on; a shared backend (PostgreSQL,
// store/postgres/) is the store of record it is filled from and written back to, one document per transaction.

/** One stored row, keyed by the SQLite column name; blobs as bytes. */
export type StoredRow = Record<string, string | number | null | Uint8Array>;

/** A document with every row stored under it: replaced or removed together, never in part. */
export interface DocumentBundle {
  document: StoredRow;
  chunks: StoredRow[];
  /** chunk_word_counts rows: chunk_id, counts (the varint blob of word-counts.ts). */
  wordCounts: StoredRow[];
  /** chunk_id → vector, for chunks that have one. */
  vectors: Map<number, Float32Array>;
  /** embedding_queue rows: chunk_id, input_chars. */
  queue: StoredRow[];
  links: StoredRow[];
  names: StoredRow[];
}

/** The whole index of one knowledge base, as one consistent read. */
export interface IndexContents {
  meta: Map<string, string>;
  /** word_terms: term → id (ids are assigned by the writer and never reused). */
  terms: Map<string, number>;
  documents: DocumentBundle[];
  feedbackServes: StoredRow[];
  feedbackItems: StoredRow[];
  /** Bumped by every write; a writer checks it is still what it read before it writes back. */
  generation: number;
}

/** Vectors stored for queued chunks, and the queue entries they settle (one transaction). */
export interface VectorBatch {
  vectors: Map<number, Float32Array>;
  dequeued: number[];
}

/** What a write-back changed. */
export interface WriteBackSummary {
  documentsWritten: number;
  documentsDeleted: number;
  vectorsWritten: number;
}

/** A shared store of record for knowledge-base indexes (async: it sits across a network). */
export interface IndexStorage {
  readonly backend: 'postgres';
  /** Where it is, for people: the URL with its password masked, and the KB's name. */
  readonly location: string;
  /** The KB's stored index, or null when this KB was never written. */
  readContents(): Promise<IndexContents | null>;
  /**
   * End a write-back that wrote everything: the generation moves again, so a reader that compares generations
   * knows a finished write from one under way. (Where the commit notice to readers belongs, issue 17 item 3.)
   */
  endWriteBack(): Promise<void>;
  /** Make room for vectors (a KB with a model); STORAGE_EXTENSION_MISSING when the store cannot hold them. */
  requireVectors(): Promise<void>;
  /**
   * Start a write-back: refuse (INDEX_BUSY) when someone else wrote since `generation` was read; creates the KB
   * when it is new.
   */
  beginWriteBack(generation: number): Promise<void>;
  /**
   * Point the following writes at a new, hidden KB (a `--force` rebuild); leftovers of a killed rebuild of the
   * same KB go first.
   */
  beginRebuild(): Promise<void>;
  /** Swap the rebuilt KB in under the KB's name and drop the old one, in one transaction. */
  finishRebuild(): Promise<void>;
  /** New terms of the word dictionary (ids as the working copy assigned them). */
  addTerms(terms: ReadonlyMap<string, number>): Promise<void>;
  /** Replace the documents `replacedIds` (and whatever sits at the bundle's path) with `bundle`, in one transaction. */
  replaceDocument(bundle: DocumentBundle, replacedIds: readonly number[]): Promise<void>;
  /** Remove documents by id with everything under them, in one transaction. */
  deleteDocuments(ids: readonly number[]): Promise<void>;
  /** New size and mtime of documents whose bytes did not change. */
  touchDocuments(rows: readonly { id: number; sizeBytes: number; mtimeMs: number }[]): Promise<void>;
  storeVectors(batch: VectorBatch): Promise<void>;
  /** The meta table and the judgments, replaced whole. */
  writeMeta(meta: ReadonlyMap<string, string>): Promise<void>;
  replaceFeedback(serves: readonly StoredRow[], items: readonly StoredRow[]): Promise<void>;
  close(): Promise<void>;
}
