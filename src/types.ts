// Domain types shared by every layer: parsed documents, chunks, search hits and the ports adapters implement.

/** Frontmatter as groove understands it; every other top-level key is kept in `extra`. */
export interface DocumentMetadata {
  title: string | null;
  date: string | null;
  topic: string | null;
  tags: string[];
  extra: Record<string, unknown>;
}

/** One chunk as the chunker produces it, before it has a database id. */
export interface ChunkDraft {
  /** 0-based position within its document. */
  index: number;
  heading: string | null;
  /** Heading level 1–6, or null for text before the first heading. */
  level: number | null;
  /** `title > ancestor headings > heading`, at most 200 characters. */
  breadcrumb: string;
  content: string;
  /** UTF-8 byte offsets of the section (heading line included) in the file's text. */
  byteStart: number;
  byteEnd: number;
  /** Content bytes / 4, rounded up. */
  tokenCount: number;
  /** 0–1; see core/quality-score.ts. */
  qualityScore: number;
}

/** A file turned into metadata and chunks by a parser. */
export interface ParsedDocument {
  /** Path relative to the KB root, with `/` separators. */
  path: string;
  /** Frontmatter title, or the file-name-derived title. */
  title: string;
  metadata: DocumentMetadata;
  /** First path segment when the path has at least two segments. */
  category: string | null;
  /** Frontmatter topic, else the second path segment when the path has at least three. */
  topic: string | null;
  /** Set when the frontmatter could not be parsed; the body is still chunked. */
  frontmatterError: string | null;
  chunks: ChunkDraft[];
}

/** How passages fit the model's input; an embedder adds its counts to the tally a caller hands it. */
export interface InputFitTally {
  /**
   * Inputs longer than the model reads in one pass (its token limit, or the character cap): cut off at the
   * limit, their tail would be missing from their vector.
   */
  overLimit: number;
  /** Inputs whose vector still misses part of their text (cut at the character cap). */
  truncated: number;
}

/** The embedding port: anything that turns text into unit vectors. */
export interface Embedder {
  /** Identity recorded in the index, e.g. `transformers:multilingual-e5-small`. */
  readonly id: string;
  readonly provider: string;
  readonly dimension: number;
  /** Embed passages for the index (applies the model's passage prefix), counting their fit into `fit`. */
  embedDocuments(texts: string[], fit?: InputFitTally): Promise<Float32Array[]>;
  /**
   * Which passages are longer than the model reads in one pass, found without running the model (local models,
   * whose tokenizer groove holds; an embedder that cannot tell has no such method).
   */
  passagesOverLimit?(texts: string[]): Promise<boolean[]>;
  /** Embed a search query (applies the model's query prefix). */
  embedQuery(text: string): Promise<Float32Array>;
  close(): Promise<void>;
}

/** The reranker port: a cross-encoder that scores (query, passage) pairs; higher is more relevant. */
export interface Reranker {
  readonly id: string;
  score(query: string, passages: string[]): Promise<number[]>;
  close(): Promise<void>;
}

/** The model identity an index records and every command checks. */
export interface ModelIdentity {
  /** `none` for a lexical-only index. */
  model: string;
  provider: string;
  dimension: number;
}

/** bm25 weight of each FTS column (heading, breadcrumb context, chunk text); FTS5's column order. */
export interface Bm25Weights {
  heading: number;
  context: number;
  content: number;
}

/** One indexed chunk with its document's facts, as search, the parent retriever and the graph read it. */
export interface ChunkRecord {
  id: number;
  documentId: number;
  chunkIndex: number;
  heading: string | null;
  level: number | null;
  context: string;
  content: string;
  tokenCount: number;
  qualityScore: number;
  path: string;
  title: string;
  topic: string | null;
  category: string | null;
  date: string | null;
  tags: string[];
}

/** What document filters look at for one indexed document. */
export interface DocumentFacts {
  id: number;
  path: string;
  category: string | null;
  topic: string | null;
  date: string | null;
  tags: string[];
}

/**
 * `ok`: answered with candidates; `empty`: answered with none; `partial`: one of its stages broke and the others
 * answered (the lexical leg's words, trigrams, short-term scan); `failed`: broke and contributed nothing;
 * `disabled`: not configured or not asked for.
 */
export type LegState = 'ok' | 'empty' | 'partial' | 'failed' | 'disabled';

/** One leg's health in a search response; `error` is present exactly when the state is partial or failed. */
export interface LegHealth {
  status: LegState;
  /** Candidates the leg contributed before fusion (for the reranker: the candidates it rescored). */
  candidates: number;
  error?: string;
}

/** Each retrieval leg's health in one search. */
export interface LegReport {
  lexical: LegHealth;
  vector: LegHealth;
  reranker: LegHealth;
}
