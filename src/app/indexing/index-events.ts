// What an index run reports while it works and when it ends; the CLI renders these, the server logs them.

export type IndexAction = 'indexed' | 'updated' | 'renamed';

export type IndexEvent =
  | { kind: 'start'; totalFiles: number; model: string }
  | { kind: 'file'; path: string; action: IndexAction; chunks: number; from?: string }
  | { kind: 'unchanged'; path: string }
  | { kind: 'deleted'; path: string }
  | { kind: 'skipped'; path: string; message: string }
  | { kind: 'warning'; message: string }
  /** Every file's text is written; `total` queued chunks are embedded next. */
  | { kind: 'embed-start'; total: number }
  /** A batch of vectors is stored: `done` of `total`, `elapsedMs` since embed-start. */
  | { kind: 'embedded'; done: number; total: number; elapsedMs: number };

export interface IndexSummary {
  indexed: number;
  updated: number;
  renamed: number;
  deleted: number;
  skipped: number;
  unchanged: number;
  /** Documents and chunks in the index after the run. */
  documents: number;
  chunks: number;
  /** Chunks embedded in this run (0 for a lexical-only index). */
  embeddedChunks: number;
  /**
   * Chunks still waiting for a vector when the run ended: 0 unless the run was paused for live sync's edits
   * (the next run embeds them first).
   */
  pendingEmbeddings: number;
  /**
   * Of those, inputs longer than the model reads in one pass (its token limit or the character cap): a plain
   * cut-off at the limit would have dropped their tail from the vector.
   */
  overLimitInputs: number;
  /** Of those, inputs whose vector still misses part of their text (cut at `[embedding] max_input_chars`). */
  truncatedInputs: number;
  frontmatterErrors: number;
  durationMs: number;
  model: string;
}

/**
 * The one wire form of a summary, shared by `groove index --format json` and the MCP tool `rebuild_index`.
 */
export function indexSummaryToJson(summary: IndexSummary): Record<string, unknown> {
  return {
    indexed: summary.indexed,
    updated: summary.updated,
    renamed: summary.renamed,
    deleted: summary.deleted,
    skipped: summary.skipped,
    unchanged: summary.unchanged,
    documents: summary.documents,
    chunks: summary.chunks,
    embedded_chunks: summary.embeddedChunks,
    pending_embeddings: summary.pendingEmbeddings,
    over_limit_inputs: summary.overLimitInputs,
    truncated_inputs: summary.truncatedInputs,
    frontmatter_errors: summary.frontmatterErrors,
    model: summary.model,
    lexical_only: summary.model === 'none',
    duration_ms: summary.durationMs,
  };
}

export type IndexEventSink = (event: IndexEvent) => void;

/** A summary with every count at zero, for the given model. */
export function emptyIndexSummary(model: string): IndexSummary {
  return {
    indexed: 0,
    updated: 0,
    renamed: 0,
    deleted: 0,
    skipped: 0,
    unchanged: 0,
    documents: 0,
    chunks: 0,
    embeddedChunks: 0,
    pendingEmbeddings: 0,
    overLimitInputs: 0,
    truncatedInputs: 0,
    frontmatterErrors: 0,
    durationMs: 0,
    model,
  };
}
