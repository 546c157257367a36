// Plain text → chunks: blank-line paragraphs packed greedily up to maxChunkBytes, no headings.

import { countUtf8Bytes } from '../core/utf8-bytes.js';
import type { ChunkDraft } from '../types.js';
import { buildBreadcrumb } from './breadcrumb.js';
import { scanLines } from './line-table.js';
import { scoreChunkQuality } from './quality-score.js';
import { splitSection } from './split-section.js';

export interface ChunkPlainTextOptions {
  /** The breadcrumb of every chunk. Default ''. */
  title?: string;
  /** Pieces above this many UTF-8 bytes are split at paragraphs, then lines, then code points. */
  maxChunkBytes: number;
  /** UTF-8 bytes before `body` in the file (a BOM). Default 0. */
  baseByteOffset?: number;
}

/** Chunk a plain-text body; a blank body gives no chunks. Byte ranges tile the body from start to end. */
export function chunkPlainText(body: string, options: ChunkPlainTextOptions): ChunkDraft[] {
  const table = scanLines(body);
  const pieces = splitSection(body, table, {
    firstLine: 0,
    endLine: table.count,
    maxChunkBytes: options.maxChunkBytes,
    fenceEnds: null,
  });
  const base = options.baseByteOffset ?? 0;
  const breadcrumb = buildBreadcrumb([options.title ?? '']);
  return pieces.map((piece, index) => ({
    index,
    heading: null,
    level: null,
    breadcrumb,
    content: piece.content,
    byteStart: base + (index === 0 ? 0 : piece.byteStart),
    byteEnd: base + (index === pieces.length - 1 ? table.totalBytes : pieces[index + 1]!.byteStart),
    tokenCount: Math.ceil(countUtf8Bytes(piece.content) / 4),
    qualityScore: scoreChunkQuality(piece.content),
  }));
}
