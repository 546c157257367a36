// Parent retriever (display only): widen a short hit to its whole document, or to its neighbours.

import type { SearchReader } from '../../store/chunk-search.js';
import type { ChunkRecord } from '../../types.js';
import type { ExpandedFrom } from './search-types.js';

export interface ParentRetrieverOptions {
  wholeDocThresholdTokens: number;
  maxExpandedTokens: number;
}

export interface Expansion {
  content: string;
  expandedFrom: ExpandedFrom;
}

/**
 * A hit under `wholeDocThresholdTokens` becomes its whole document when that fits in `maxExpandedTokens`;
 * otherwise (or for longer hits) the chunks before and after it join it when they fit. Null = unchanged.
 */
export function expandHit(
  reader: SearchReader,
  hit: ChunkRecord,
  options: ParentRetrieverOptions,
): Expansion | null {
  const rowCap = options.maxExpandedTokens * 2 + 64;
  const chunks = reader.readDocumentChunks(hit.documentId, rowCap);
  if (hit.tokenCount < options.wholeDocThresholdTokens && chunks.length < rowCap) {
    const total = sumTokens(chunks);
    if (total <= options.maxExpandedTokens && chunks.length > 1) {
      return {
        content: joinChunks(chunks),
        expandedFrom: { kind: 'whole_document', totalChunks: chunks.length },
      };
    }
  }
  const neighbours = chunks.filter((c) => Math.abs(c.chunkIndex - hit.chunkIndex) <= 1);
  if (neighbours.length <= 1 || sumTokens(neighbours) > options.maxExpandedTokens) return null;
  return {
    content: joinChunks(neighbours),
    expandedFrom: {
      kind: 'adjacent',
      fromIndex: neighbours[0]!.chunkIndex,
      toIndex: neighbours[neighbours.length - 1]!.chunkIndex,
    },
  };
}

function sumTokens(chunks: ChunkRecord[]): number {
  return chunks.reduce((sum, c) => sum + c.tokenCount, 0);
}

/** Chunks joined with blank lines, each headed by its heading so the reader sees the structure. */
function joinChunks(chunks: ChunkRecord[]): string {
  return chunks
    .map((c) => (c.heading ? `${'#'.repeat(c.level ?? 2)} ${c.heading}\n\n${c.content}` : c.content))
    .join('\n\n');
}
