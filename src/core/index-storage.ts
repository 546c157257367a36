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
  /** The KB's commit version in the same read (0 before its first commit): a replica follows commits from it. */
  version: number;
}

/** What a replica's working copy holds, for reading only what changed since. */
export interface KnownContents {
  documentIds: ReadonlySet<number>;
  /** The highest word-term id it holds (the dictionary only grows). */
  maxTermId: number;
  /** Chunks that commits since touched without rewriting their document (vectors stored behind the text). */
  touchedChunkIds: readonly number[];
}

/** What changed in the store against a working copy's KnownContents, in one consistent read. */
export interface IndexDelta {
  /** Documents the working copy holds that the store no longer does (removed or rewritten under a new id). */
  removedIds: number[];
  /** Documents the store holds that the working copy does not, whole. */
  added: DocumentBundle[];
  /** Touched chunks of documents both sides hold, with their stored vectors and those still waiting in the queue. */
  touched: number[];
  vectors: Map<number, Float32Array>;
  stillQueued: Set<number>;
  meta: Map<string, string>;
  /** Terms with ids above KnownContents.maxTermId. */
  terms: Map<string, number>;
  generation: number;
}

/** A batch of commits a replica heard of: chunks they touched, or `reload` when the log does not reach back. */
export type CommitBatch =
  | { kind: 'changes'; toVersion: number; touchedChunkIds: number[] }
  | { kind: 'reload'; toVersion: number };

/** How a replica takes part: contends for the writer role and hears the KB's commits. */
export interface ReplicaHooks {
  /** This process now holds the writer role: its writes go through the role's session until it is lost. */
  onBecameWriter(): void;
  /** The role was lost (`reason` for the log); writes are refused from now on. */
  onLostWriter(reason: string): void;
  /** Apply commits to the working copy (never two at once); a failure is retried by the follower. */
  apply(batch: CommitBatch): Promise<void>;
  onApplyError(error: unknown): void;
}

/** A replica's standing, for /healthz. */
export interface ReplicaState {
  role: 'writer' | 'reader';
  appliedVersion: number;
  latestVersion: number;
  lag: { versions: number; ms: number; listening: boolean };
}

export interface Replication {
  state(): ReplicaState;
  /** The working copy now holds the store as of `version` (after a whole read). */
  markApplied(version: number): void;
  stop(): Promise<void>;
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
  /** The store's generation once the write-back ended. */
  generation: number;
  /** The KB's commit version its last transaction made. */
  version: number;
}

/** Where a store stands after a write that ended a run: its generation and commit version. */
export interface StoreState {
  generation: number;
  version: number;
}

/** What changed since a version, in one read: the delta and the version it brings to, or `reload` (log pruned). */
export type ChangesRead =
  | { kind: 'delta'; delta: IndexDelta; version: number }
  | { kind: 'reload' }
  | { kind: 'absent' };

/** A shared store of record for knowledge-base indexes (async: it sits across a network). */
export interface IndexStorage {
  readonly backend: 'postgres';
  /** Where it is, for people: the URL with its password masked, and the KB's name. */
  readonly location: string;
  /** The KB's stored index, or null when this KB was never written. */
  readContents(): Promise<IndexContents | null>;
  /** What changed against `known` (null when the KB is gone from the store). */
  readDelta(known: KnownContents): Promise<IndexDelta | null>;
  /**
   * What changed since commit `version` against `known` (its touched chunks taken from the change log), in one
   * snapshot; `reload` when the log no longer reaches back that far, `absent` when the KB is not in the store.
   */
  readSince(version: number, known: Omit<KnownContents, 'touchedChunkIds'>): Promise<ChangesRead>;
  /**
   * Take part as a replica, from the working copy's version `appliedVersion`: writes are allowed only while
   * this process holds the writer role (fenced on the server), and commits are heard and handed to `apply`.
   */
  replicate(appliedVersion: number, hooks: ReplicaHooks): Replication;
  /**
   * End a write-back that wrote everything: the generation moves again, so a reader that compares generations
   * knows a finished write from one under way. Returns the generation the store now holds. (Each write
   * transaction also records a commit readers hear of: commit-notices.ts.)
   */
  endWriteBack(): Promise<StoreState>;
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
  finishRebuild(): Promise<StoreState>;
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
