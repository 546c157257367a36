// Embedding the chunk rows of a group of files: the rows without a vector, in batches, counting how their inputs fit
// the model; on an index made before long inputs were read in windows, also the reused vectors of long inputs.
import type { ChunkRowInput } from '../../store/document-store.js';
import type { Embedder } from '../../types.js';
import type { IndexSummary } from './index-events.js';

/** A file's rows and the indices of those that still need a vector. */
export interface EmbeddableFile {
  rows: ChunkRowInput[];
  missing: number[];
}

export interface EmbedRowsOptions {
  embedder: Embedder | null;
  /** Prefix breadcrumbs to the embedding input (`[contextual] enabled`). */
  contextual: boolean;
  maxInputChars: number;
  /** Chunks per embedding call. */
  batchSize: number;
  /** Reused vectors of inputs over the embedder's limit were cut off there: embed those again. */
  recheckLongVectors?: boolean;
}

/** Embed the rows without a vector, counting into the summary how their inputs fit the model. */
export async function embedMissing(
  files: EmbeddableFile[],
  options: EmbedRowsOptions,
  summary: IndexSummary,
): Promise<void> {
  const embedder = options.embedder;
  if (!embedder) return;
  if (options.recheckLongVectors) await dropCutOffVectors(files, embedder, options);
  const targets: { row: ChunkRowInput; text: string }[] = [];
  for (const file of files) {
    for (const i of file.missing) {
      const row = file.rows[i]!;
      targets.push({ row, text: embeddingText(row.context, row.content, options) });
    }
  }
  const fit = { overLimit: 0, truncated: 0 };
  for (let start = 0; start < targets.length; start += options.batchSize) {
    const batch = targets.slice(start, start + options.batchSize);
    const vectors = await embedder.embedDocuments(
      batch.map((t) => t.text),
      fit,
    );
    batch.forEach((target, i) => {
      target.row.vector = vectors[i]!;
    });
  }
  summary.overLimitInputs += fit.overLimit;
  summary.truncatedInputs += fit.truncated;
}

/** Forget the reused vectors of inputs over the embedder's limit, so they are embedded again (in windows). */
async function dropCutOffVectors(files: EmbeddableFile[], embedder: Embedder, options: EmbedRowsOptions) {
  if (!embedder.passagesOverLimit) return;
  const reused: { file: EmbeddableFile; index: number; text: string }[] = [];
  for (const file of files) {
    const missing = new Set(file.missing);
    file.rows.forEach((row, index) => {
      if (row.vector !== null && !missing.has(index)) {
        reused.push({ file, index, text: embeddingText(row.context, row.content, options) });
      }
    });
  }
  const over = await embedder.passagesOverLimit(reused.map((r) => r.text));
  reused.forEach((entry, i) => {
    if (!over[i]) return;
    entry.file.rows[entry.index]!.vector = null;
    entry.file.missing.push(entry.index);
  });
}

/**
 * The text the embedder is given for a chunk: its content, after its breadcrumb when contextual. The embedder
 * cuts it at the same maxInputChars itself, and so can count the inputs it cut.
 */
function embeddingText(context: string, content: string, options: Pick<EmbedRowsOptions, 'contextual'>) {
  return options.contextual && context ? `${context}\n\n${content}` : content;
}

/** The embedding input as its vector's key hashes it: the embedding text cut at maxInputChars. */
export function toEmbeddingInput(
  context: string,
  content: string,
  options: Pick<EmbedRowsOptions, 'contextual' | 'maxInputChars'>,
): string {
  const text = embeddingText(context, content, options);
  return text.length > options.maxInputChars ? text.slice(0, options.maxInputChars) : text;
}
