// The embedding input of a chunk row, its key, and (on an index made before long inputs were read in windows)
// which reused vectors were cut off at the model's limit and must be embedded again.
import { chunkModelInput, chunkModelText } from '../../document/chunk-model-input.js';
import type { ChunkRowInput } from '../../store/document-store.js';
import type { Embedder } from '../../types.js';

/** A file's rows and the indices of those that still need a vector (they are queued when written). */
export interface EmbeddableFile {
  rows: ChunkRowInput[];
  missing: number[];
}

/** How a chunk becomes its embedding input. */
export interface EmbedRowsOptions {
  /** Prefix breadcrumbs to the embedding input (`[contextual] enabled`). */
  contextual: boolean;
  maxInputChars: number;
}

/** Forget the reused vectors of inputs over the embedder's limit, so they are embedded again (in windows). */
export async function dropCutOffVectors(
  files: EmbeddableFile[],
  embedder: Embedder,
  options: Pick<EmbedRowsOptions, 'contextual'>,
): Promise<void> {
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
export function embeddingText(
  context: string,
  content: string,
  options: Pick<EmbedRowsOptions, 'contextual'>,
) {
  return chunkModelText(context, content, options.contextual);
}

/** The embedding input as its vector's key hashes it: the embedding text cut at maxInputChars as the embedder cuts it. */
export function toEmbeddingInput(
  context: string,
  content: string,
  options: Pick<EmbedRowsOptions, 'contextual' | 'maxInputChars'>,
): string {
  return chunkModelInput(context, content, {
    contextual: options.contextual,
    maxChars: options.maxInputChars,
  });
}
