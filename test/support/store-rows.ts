// Document and chunk rows for tests that write through DocumentStore directly (no files, no parser).
import { segmentForIndex } from '../../src/rank/segment-words.js';
import type { ChunkRowInput, DocumentRowInput } from '../../src/store/document-store.js';

/** A document row at `path`; `hash` tells versions of it apart. */
export function documentRow(path: string, hash: string): DocumentRowInput {
  return {
    path,
    title: path,
    topic: null,
    category: null,
    date: null,
    tags: [],
    metadata: {},
    frontmatterError: null,
    contentHash: hash,
    sizeBytes: 1,
    mtimeMs: 1,
    links: [],
  };
}

/** A chunk row whose word-level columns are segmented as indexing does; `context` defaults to none. */
export function chunkRow(
  index: number,
  parts: { heading?: string; context?: string; content: string },
  qualityScore: number,
): ChunkRowInput {
  const heading = parts.heading ?? '';
  const context = parts.context ?? '';
  return {
    index,
    heading: parts.heading ?? null,
    level: parts.heading ? 2 : null,
    context,
    content: parts.content,
    byteStart: 0,
    byteEnd: parts.content.length,
    tokenCount: Math.ceil(parts.content.length / 4),
    qualityScore,
    embedKey: null,
    embedChars: 0,
    vector: null,
    words: {
      heading: segmentForIndex(heading),
      context: segmentForIndex(context),
      content: segmentForIndex(parts.content),
    },
  };
}
