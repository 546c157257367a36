// Splitting one section's lines into pieces of at most maxChunkBytes: greedy packing of blank-line
// separated paragraphs, then of single lines, then of code points; fenced code blocks stay whole.

import { measureCodePointAt } from '../core/utf8-bytes.js';
import { type LineTable, measureLineRange, readLineRange } from './line-table.js';

/** A fence is only cut when it alone is larger than this many times maxChunkBytes; then it is cut at its lines. */
export const FENCE_SPLIT_FACTOR = 4;

export interface SplitSectionOptions {
  /** First content line of the section. */
  firstLine: number;
  /** One past the last content line. */
  endLine: number;
  maxChunkBytes: number;
  /** From markMarkdownBlocks; null for plain text, where nothing is a fence. */
  fenceEnds: number[] | null;
}

export interface SectionPiece {
  /** Trimmed of blank lines at both ends, CRLF normalised to LF. */
  content: string;
  /** UTF-8 offset (relative to the scanned text) where the piece's lines begin. */
  byteStart: number;
}

interface Span {
  first: number;
  last: number;
  isFence: boolean;
}

/**
 * Split the section's lines into pieces. Every piece is at most maxChunkBytes except a fenced code
 * block that alone exceeds it (kept whole up to FENCE_SPLIT_FACTOR × maxChunkBytes, so code is never cut
 * mid-block for an ordinary limit). A section with only blank lines gives no pieces.
 */
export function splitSection(text: string, table: LineTable, options: SplitSectionOptions): SectionPiece[] {
  const pieces: SectionPiece[] = [];
  const { maxChunkBytes } = options;
  const paragraphs = collectParagraphs(table, options);
  packSpans(text, table, paragraphs, maxChunkBytes, pieces, (paragraph) => {
    const atoms = collectAtoms(table, paragraph, options);
    packSpans(text, table, atoms, maxChunkBytes, pieces, (atom) => {
      if (
        atom.first === atom.last &&
        !(atom.isFence && table.bytes[atom.first]! <= maxChunkBytes * FENCE_SPLIT_FACTOR)
      ) {
        splitLineAtCodePoints(text, table, atom.first, maxChunkBytes, pieces);
      } else {
        pieces.push(toPiece(text, table, atom));
      }
    });
  });
  return pieces;
}

/** Runs of lines separated by blank lines; a fence (blank lines included) never ends a run. */
function collectParagraphs(table: LineTable, options: SplitSectionOptions): Span[] {
  const spans: Span[] = [];
  const { firstLine, endLine, fenceEnds } = options;
  let line = firstLine;
  while (line < endLine) {
    if (table.blank[line]) {
      line++;
      continue;
    }
    const first = line;
    while (line < endLine && !table.blank[line]) {
      const fenceEnd = fenceEnds ? fenceEnds[line]! : -1;
      line = fenceEnd >= 0 ? Math.min(fenceEnd, endLine - 1) + 1 : line + 1;
    }
    spans.push({ first, last: line - 1, isFence: false });
  }
  return spans;
}

/** Lines of an oversized paragraph; a fence stays one atom unless it is beyond the fence limit. */
function collectAtoms(table: LineTable, paragraph: Span, options: SplitSectionOptions): Span[] {
  const atoms: Span[] = [];
  const fenceLimit = options.maxChunkBytes * FENCE_SPLIT_FACTOR;
  let line = paragraph.first;
  while (line <= paragraph.last) {
    const fenceEnd = options.fenceEnds ? options.fenceEnds[line]! : -1;
    if (fenceEnd >= 0) {
      const last = Math.min(fenceEnd, paragraph.last);
      if (measureLineRange(table, line, last) <= fenceLimit) {
        atoms.push({ first: line, last, isFence: true });
        line = last + 1;
        continue;
      }
      // Too big even for the fence allowance: its lines become ordinary atoms.
      for (; line <= last; line++) atoms.push({ first: line, last: line, isFence: false });
      continue;
    }
    atoms.push({ first: line, last: line, isFence: false });
    line++;
  }
  return atoms;
}

/** Greedy packing: extend the current piece while it fits; a span too big on its own goes to `onOversized`. */
function packSpans(
  text: string,
  table: LineTable,
  spans: Span[],
  maxChunkBytes: number,
  pieces: SectionPiece[],
  onOversized: (span: Span) => void,
): void {
  let current: Span | null = null;
  for (const span of spans) {
    if (measureLineRange(table, span.first, span.last) > maxChunkBytes) {
      if (current) pieces.push(toPiece(text, table, current));
      current = null;
      onOversized(span);
    } else if (current && measureLineRange(table, current.first, span.last) <= maxChunkBytes) {
      current.last = span.last;
    } else {
      if (current) pieces.push(toPiece(text, table, current));
      current = { first: span.first, last: span.last, isFence: false };
    }
  }
  if (current) pieces.push(toPiece(text, table, current));
}

function toPiece(text: string, table: LineTable, span: Span): SectionPiece {
  return {
    content: readLineRange(text, table, span.first, span.last),
    byteStart: table.byteStarts[span.first]!,
  };
}

/** Last resort for one overlong line: cut it every maxChunkBytes bytes, at code-point boundaries. */
function splitLineAtCodePoints(
  text: string,
  table: LineTable,
  line: number,
  maxChunkBytes: number,
  pieces: SectionPiece[],
): void {
  const end = table.ends[line]!;
  let position = table.starts[line]!;
  let byteStart = table.byteStarts[line]!;
  while (position < end) {
    let cursor = position;
    let bytes = 0;
    while (cursor < end) {
      const codePoint = measureCodePointAt(text, cursor);
      if (bytes > 0 && bytes + codePoint.bytes > maxChunkBytes) break;
      bytes += codePoint.bytes;
      cursor += codePoint.units;
    }
    pieces.push({ content: text.slice(position, cursor), byteStart });
    byteStart += bytes;
    position = cursor;
  }
}
