// What the indexer is given: the walked files, how a file is read and parsed (ports the composition root binds to
// the KB and the config), and the options of one run.
import type { DocumentStore } from '../../store/document-store.js';
import type { Embedder, ParsedDocument } from '../../types.js';
import type { EmbeddingQueuePort } from './embed-queue-fill.js';
import type { IndexEventSink } from './index-events.js';

export interface WalkedEntry {
  relPath: string;
  absPath: string;
  sizeBytes: number;
  mtimeMs: number;
}

export type FileReadResult =
  | {
      ok: true;
      /** The decoded text ('' for a binary format). */
      text: string;
      /** A binary format's bytes, for the extractor. */
      bytes?: Uint8Array;
      contentHash: string;
      sizeBytes: number;
      mtimeMs: number;
    }
  | { ok: false; vanished: boolean; message: string };

/** The I/O and parsing the indexer needs; the composition root binds them to the KB and the config. */
export interface IndexerPorts {
  /** Every candidate file of the KB, or (`paths`) those of these KB-relative paths that are candidates. */
  walk(paths?: readonly string[]): {
    files: WalkedEntry[];
    skipped: { relPath: string; message: string }[];
    warnings: string[];
    unreadableDirs: string[];
  };
  readFile(file: WalkedEntry): FileReadResult;
  parse(relPath: string, text: string): ParsedDocument;
  /**
   * Parse through the extraction process where the format needs it (PDF, Office, code), else like parse. A
   * refusal skips the file and keeps what was indexed for it before. Without it, every file goes to parse.
   */
  extract?(relPath: string, read: Extract<FileReadResult, { ok: true }>): Promise<ExtractedParse>;
  segment(text: string): string;
}

export type ExtractedParse = { ok: true; parsed: ParsedDocument } | { ok: false; message: string };

export interface RunIndexOptions {
  store: DocumentStore;
  ports: IndexerPorts;
  /**
   * The model; or, on a first index, its load still under way: every file's text is written meanwhile and the
   * run waits for the model only when it has vectors to make.
   */
  embedder: Embedder | null | Promise<Embedder | null>;
  /** What the run reports as its model while the model loads. */
  modelLabel?: string;
  /** Called once a model that was loading is loaded (or turned out to be none), before any vector is stored. */
  onEmbedderReady?: (embedder: Embedder | null) => void;
  /** Called once every file's text is written and before the model is awaited (or used). */
  onTextWritten?: () => void;
  /**
   * A model that cannot load does not fail the run: the text is indexed and its chunks keep waiting for the model
   * (a server's live sync while the server tries the model again).
   */
  keepTextWithoutModel?: boolean;
  /** Re-read and re-parse every file (chunking policy changed); vectors are still reused where text matches. */
  reparseAll: boolean;
  /**
   * Look at these KB-relative paths only: files among them are indexed as usual, stored documents among them that
   * are no longer candidates are removed, every other document is left alone. Every file when absent.
   */
  onlyPaths?: readonly string[];
  /** Stored documents the run leaves alone although the walk does not list them (see settings-guard.ts). */
  keepPaths?: readonly string[];
  /**
   * The index may hold vectors of inputs cut off at the model's token limit (made before long inputs were read in
   * windows): reused vectors of inputs the embedder finds over its limit are embedded again.
   */
  recheckLongVectors?: boolean;
  /** Prefix breadcrumbs to the embedding input (`[contextual] enabled`). */
  contextual: boolean;
  maxInputChars: number;
  /** Chunks per embedding call. */
  batchSize: number;
  /** The chunks written without a vector; embedded after every file's lexical rows are in. */
  queue: EmbeddingQueuePort;
  /** Asked between embedding batches: true leaves the rest of the queue for the next run (live sync's edits). */
  shouldPauseEmbedding?: () => boolean;
  onEvent: IndexEventSink;
  countRows(): { documents: number; chunks: number };
}
