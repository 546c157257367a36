// What a model is given for a chunk (the embedder at index time, the reranker at search time), built in one place.
import { truncateToChars } from '../core/utf16-cut.js';

/** The text a model reads for a chunk: its content, after its breadcrumb when `contextual` and it has one. */
export function chunkModelText(context: string, content: string, contextual: boolean): string {
  return contextual && context ? `${context}\n\n${content}` : content;
}

/**
 * The chunk's model text cut at `maxChars` as the embedder cuts it (never inside a surrogate pair): what its
 * vector's key hashes.
 */
export function chunkModelInput(
  context: string,
  content: string,
  options: { contextual: boolean; maxChars: number },
): string {
  return truncateToChars(chunkModelText(context, content, options.contextual), options.maxChars);
}
