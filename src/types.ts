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
  /** 0–1; see document/quality-score.ts. */
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
  /** Links to other notes written in the body (Markdown files only; see document/note-links.ts), each target once. */
  links: NoteLink[];
}

/** How a link was written: `[text](target)` / `[text][ref]`, or `[[target]]` / `![[target]]`. */
export type LinkKind = 'markdown' | 'wikilink';

/** One link to another note as a parser found it in a note, before it is resolved to an indexed document. */
export interface NoteLink {
  kind: LinkKind;
  /** The target exactly as written (a Markdown destination, or a wikilink's text before `|`). */
  written: string;
  /**
   * Where it points: a KB-relative path when `anchored` (every Markdown link, resolved against the note's folder,
   * percent-decoded; a wikilink written `./x`, `../x` or `/x`), else the wikilink's name (`Name`, `folder/Name`).
   * Fragment and query removed; the extension may be missing.
   */
  target: string;
  /** True when `target` is a path from the KB root; false for a wikilink name matched Obsidian-style. */
  anchored: boolean;
  /** The `#fragment` (a heading, or `^block`), decoded; null when none. */
  heading: string | null;
}

/** A link between two indexed documents, as the index resolves it now (`readLinkEdges`). */
export interface LinkEdge {
  /** Path of the note the link is written in. */
  source: string;
  /** Path of the indexed document it resolves to (never `source`). */
  target: string;
  kind: LinkKind;
}

/** How a model's token vectors become one vector: their mean, or the first (`[CLS]` / `<s>`) token's. */
export type Pooling = 'mean' | 'cls';

/**
 * What an embedder does around the model's weights. The index records it next to the model: vectors made with
 * another pooling or other prefixes are not comparable, so a change is refused like a model change.
 */
export interface EmbeddingSetup {
  /** The pooling groove applies; null when the embedder pools by itself (an HTTP endpoint). */
  pooling: Pooling | null;
  /** Prepended to search queries. */
  queryPrefix: string;
  /** Prepended to indexed passages. */
  passagePrefix: string;
  /** How it was decided, in words (`groove status` shows it), e.g. `sentence-transformers config of the folder`. */
  source: string;
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
  /** Pooling and prefixes; an embedder without one records no pooling and no prefixes. */
  readonly setup?: EmbeddingSetup;
  /** Embed passages for the index (applies the model's passage prefix), counting their fit into `fit`. */
  embedDocuments(texts: string[], fit?: InputFitTally): Promise<Float32Array[]>;
  /**
   * Which passages are longer than the model reads in one pass, found without running the model (local models,
   * whose tokenizer groove holds; an embedder that cannot tell has no such method).
   */
  passagesOverLimit?(texts: string[]): Promise<boolean[]>;
  /**
   * Each text's length in the model's tokens, special tokens and prefixes not counted (local models, whose
   * tokenizer groove holds; an embedder without a tokenizer has no such method). What `max_tokens` is spent in.
   */
  countTokens?(texts: string[]): Promise<number[]>;
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
  /** The chunk's UTF-8 byte range in its source text (the file itself for Markdown and plain text). */
  byteStart: number;
  byteEnd: number;
  tokenCount: number;
  qualityScore: number;
  path: string;
  /** The file's size and modification time when it was indexed. */
  sizeBytes: number;
  mtimeMs: number;
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
 * answered (the lexical leg's words, trigrams, short-term scan), or the vector leg answered from the chunks
 * embedded so far while a first index is still embedding the rest; `failed`: broke and contributed nothing;
 * `disabled`: not configured or not asked for.
 */
export type LegState = 'ok' | 'empty' | 'partial' | 'failed' | 'disabled';

/** One leg's health in a search response; `error` is present exactly when the state is partial or failed. */
export interface LegHealth {
  status: LegState;
  /** Candidates the leg contributed before fusion (for the reranker: the candidates it rescored). */
  candidates: number;
  error?: string;
  /**
   * Why a disabled leg did not run, present only when the request's `legs` left it out or asked for a leg the
   * index cannot run (the vector leg of a lexical-only index).
   */
  reason?: string;
  /** The vector leg while a first index is still embedding: chunks with a vector, of all chunks. */
  coverage?: { embedded: number; chunks: number };
}

/** Each retrieval leg's health in one search. */
export interface LegReport {
  lexical: LegHealth;
  vector: LegHealth;
  reranker: LegHealth;
  /**
   * Present only when knowledge bases embedded by different models were searched together: each model's vector
   * leg, by model id, fused by rank as a leg of its own (`vector` is then the first knowledge base's model).
   */
  vectorByModel?: Record<string, LegHealth>;
}

/**
 * How groove reaches the Hugging Face hub and where a local Hugging Face cache is, read from the environment
 * (config/hub-environment.ts); the models layer downloads and looks up registered models with it.
 */
export interface HubEnvironment {
  /** HF_TOKEN: sent to the configured hub endpoint only, never to a host it redirects to. */
  token: string | null;
  /** The Hugging Face hub cache read (never written) for registered models, or null for none. */
  hubCacheDir: string | null;
  /** HTTPS_PROXY: the proxy for https URLs. */
  httpsProxy: string | null;
  /** HTTP_PROXY: the proxy for http URLs. */
  httpProxy: string | null;
  /** NO_PROXY: hosts reached without a proxy. */
  noProxy: string | null;
}

/** An agent's judgment of one served item. */
export type FeedbackVerdict = 'helped' | 'noise' | 'wrong';

export interface FeedbackItem {
  path: string;
  heading: string | null;
  verdict: FeedbackVerdict;
  /** Injected into every brief without ranking (rules): not retrieval's work. */
  alwaysServed: boolean;
}

/** One `record_feedback` call: what was served for one task and how the agent judged each item. */
export interface FeedbackServe {
  /** Increases with recording order. */
  serveId: number;
  taskId: string;
  query: string;
  items: FeedbackItem[];
}
