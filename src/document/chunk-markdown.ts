// Markdown body → chunks: sections start at ATX headings up to maxHeadingLevel (never inside fenced code),
// excluded headings are dropped with their sub-sections, long sections are split, tiny ones merged.

import { countUtf8Bytes } from '../core/utf8-bytes.js';
import type { ChunkDraft } from '../types.js';
import { buildBreadcrumb } from './breadcrumb.js';
import { type LineTable, scanLines } from './line-table.js';
import { type MarkdownBlocks, markMarkdownBlocks, readAtxHeading } from './markdown-blocks.js';
import { scoreChunkQuality } from './quality-score.js';
import { splitSection } from './split-section.js';

export interface ChunkMarkdownOptions {
  /** Document title, the first breadcrumb element. Default ''. */
  title?: string;
  /** Headings of level 1..maxHeadingLevel start a section; deeper ones are body text. 1–6. */
  maxHeadingLevel: number;
  /** Sections above this many UTF-8 bytes are split (fenced code may exceed it, see split-section.ts). */
  maxChunkBytes: number;
  /** Sections whose trimmed content is below this many UTF-8 bytes are merged into a neighbour. 0 disables. */
  minChunkBytes: number;
  /** A section whose heading contains any of these substrings is dropped with its sub-sections. Default []. */
  excludeHeadings?: readonly string[];
  /** UTF-8 bytes that precede `body` in the file (BOM, frontmatter), added to every offset. Default 0. */
  baseByteOffset?: number;
}

/** A section between two section headings, before splitting and merging. */
interface Section {
  heading: string | null;
  level: number | null;
  breadcrumb: string;
  contentFirstLine: number;
  contentEndLine: number;
  /** Relative to the body. */
  byteStart: number;
  byteEnd: number;
}

/** A chunk under construction; `index`, `tokenCount` and `qualityScore` are filled in at the end. */
interface OpenChunk {
  heading: string | null;
  level: number | null;
  breadcrumb: string;
  content: string;
  contentBytes: number;
  byteStart: number;
  byteEnd: number;
}

/**
 * Chunk a Markdown body. Stages: scan lines → mark fences and headings → cut sections (dropping
 * excluded ones) → split oversized sections → merge tiny sections → number and score the chunks.
 */
export function chunkMarkdown(body: string, options: ChunkMarkdownOptions): ChunkDraft[] {
  const table = scanLines(body);
  const blocks = markMarkdownBlocks(body, table);
  const sections = cutSections(body, table, blocks, options);
  const chunks = assembleChunks(body, table, blocks, sections, options);
  const base = options.baseByteOffset ?? 0;
  return chunks.map((chunk, index) => ({
    index,
    heading: chunk.heading,
    level: chunk.level,
    breadcrumb: chunk.breadcrumb,
    content: chunk.content,
    byteStart: base + chunk.byteStart,
    byteEnd: base + chunk.byteEnd,
    tokenCount: Math.ceil(chunk.contentBytes / 4),
    qualityScore: scoreChunkQuality(chunk.content),
  }));
}

function cutSections(
  body: string,
  table: LineTable,
  blocks: MarkdownBlocks,
  options: ChunkMarkdownOptions,
): Section[] {
  const title = options.title ?? '';
  const excluded = (options.excludeHeadings ?? []).filter((needle) => needle !== '');
  const sections: Section[] = [];
  const ancestors: { level: number; text: string }[] = [];
  let current: Section | null = {
    heading: null,
    level: null,
    breadcrumb: buildBreadcrumb([title]),
    contentFirstLine: 0,
    contentEndLine: table.count,
    byteStart: 0,
    byteEnd: table.totalBytes,
  };
  // While > 0, we are inside an excluded section of this level and drop everything down to the next
  // heading of the same or a higher level.
  let excludedLevel = 0;
  for (let line = 0; line < table.count; line++) {
    const level = blocks.headingLevels[line]!;
    if (level === 0 || level > options.maxHeadingLevel) continue;
    const heading = readAtxHeading(body, table.starts[line]!, table.ends[line]!)!;
    if (current) {
      current.contentEndLine = line;
      current.byteEnd = table.byteStarts[line]!;
      sections.push(current);
    }
    current = null;
    if (excludedLevel > 0 && level > excludedLevel) continue;
    excludedLevel = 0;
    while (ancestors.length > 0 && ancestors[ancestors.length - 1]!.level >= level) ancestors.pop();
    if (excluded.some((needle) => heading.text.includes(needle))) {
      excludedLevel = level;
      continue;
    }
    current = {
      heading: heading.text,
      level,
      breadcrumb: buildBreadcrumb([title, ...ancestors.map((ancestor) => ancestor.text), heading.text]),
      contentFirstLine: line + 1,
      contentEndLine: table.count,
      byteStart: table.byteStarts[line]!,
      byteEnd: table.totalBytes,
    };
    ancestors.push({ level, text: heading.text });
  }
  if (current) sections.push(current);
  // Text before the first heading is a chunk only when it is not blank.
  const preamble = sections[0];
  if (preamble && preamble.heading === null && !hasNonBlankLine(table, preamble)) sections.shift();
  return sections;
}

function hasNonBlankLine(table: LineTable, section: Section): boolean {
  for (let line = section.contentFirstLine; line < section.contentEndLine; line++) {
    if (!table.blank[line]) return true;
  }
  return false;
}

/**
 * Split each section, then merge tiny ones: into the previous chunk, or — for the first chunk — forward
 * into the next section. A merge happens only when the result still fits maxChunkBytes, so the size
 * bound holds; otherwise the tiny section stays a chunk of its own.
 */
function assembleChunks(
  body: string,
  table: LineTable,
  blocks: MarkdownBlocks,
  sections: Section[],
  options: ChunkMarkdownOptions,
): OpenChunk[] {
  const { maxChunkBytes, minChunkBytes } = options;
  const chunks: OpenChunk[] = [];
  // A tiny first section waits here to be merged forward into the next section's first piece.
  let pendingFirst: OpenChunk | null = null;
  for (const [position, section] of sections.entries()) {
    const pieces = toSectionChunks(body, table, blocks, section, maxChunkBytes);
    if (pendingFirst) {
      const merged = appendChunk(withHeadingLine(pendingFirst), pieces[0]!, maxChunkBytes);
      if (merged) {
        // The merged chunk keeps this section's heading and counts as the first chunk, even if still tiny.
        pieces[0] = { ...pieces[0]!, ...merged };
        chunks.push(...pieces);
        pendingFirst = null;
        continue;
      }
      chunks.push(pendingFirst);
      pendingFirst = null;
    }
    const single = pieces.length === 1 ? pieces[0]! : null;
    if (!single || !isTiny(single, minChunkBytes)) {
      chunks.push(...pieces);
      continue;
    }
    const previous = chunks[chunks.length - 1];
    if (!previous) {
      if (position === sections.length - 1) chunks.push(single);
      else pendingFirst = single;
      continue;
    }
    const merged = appendChunk(previous, withHeadingLine(single), maxChunkBytes);
    if (merged) chunks[chunks.length - 1] = { ...previous, ...merged };
    else chunks.push(single);
  }
  return chunks;
}

/** The section's pieces as chunks; a heading with no content still gives one (empty) chunk. */
function toSectionChunks(
  body: string,
  table: LineTable,
  blocks: MarkdownBlocks,
  section: Section,
  maxChunkBytes: number,
): OpenChunk[] {
  const pieces = splitSection(body, table, {
    firstLine: section.contentFirstLine,
    endLine: section.contentEndLine,
    maxChunkBytes,
    fenceEnds: blocks.fenceEnds,
  });
  if (pieces.length === 0) pieces.push({ content: '', byteStart: section.byteStart });
  return pieces.map((piece, i) => ({
    heading: section.heading,
    level: section.level,
    breadcrumb: section.breadcrumb,
    content: piece.content,
    contentBytes: countUtf8Bytes(piece.content),
    // Piece ranges tile the section: the first starts at the heading line, each ends where the next begins.
    byteStart: i === 0 ? section.byteStart : piece.byteStart,
    byteEnd: i === pieces.length - 1 ? section.byteEnd : pieces[i + 1]!.byteStart,
  }));
}

function isTiny(chunk: OpenChunk, minChunkBytes: number): boolean {
  if (chunk.contentBytes < minChunkBytes) return true;
  const { content } = chunk;
  // Only surrounding whitespace can make the trimmed text smaller; skip the re-count when there is none.
  if (content.trim().length === content.length) return false;
  return countUtf8Bytes(content.trim()) < minChunkBytes;
}

/** `before` followed by a blank line and `after`, covering both byte ranges; null when it would not fit. */
function appendChunk(
  before: OpenChunk,
  after: OpenChunk,
  maxChunkBytes: number,
): Pick<OpenChunk, 'content' | 'contentBytes' | 'byteStart' | 'byteEnd'> | null {
  const separatorBytes = before.content !== '' && after.content !== '' ? 2 : 0;
  const contentBytes = before.contentBytes + separatorBytes + after.contentBytes;
  if (contentBytes > maxChunkBytes) return null;
  const content =
    separatorBytes === 0 ? before.content + after.content : `${before.content}\n\n${after.content}`;
  return { content, contentBytes, byteStart: before.byteStart, byteEnd: after.byteEnd };
}

/** A tiny section's text as it reads once merged: its heading as a Markdown line, then its content. */
function withHeadingLine(chunk: OpenChunk): OpenChunk {
  if (chunk.heading === null || chunk.level === null) return { ...chunk };
  const line = `${'#'.repeat(chunk.level)} ${chunk.heading}`.trimEnd();
  const content = chunk.content === '' ? line : `${line}\n${chunk.content}`;
  return { ...chunk, content, contentBytes: countUtf8Bytes(content) };
}
