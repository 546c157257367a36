// Line-level Markdown block recognition for the chunker: fenced code blocks and ATX headings.
// A hand-written scanner (no AST) because indexing must stay linear and fast; setext headings
// (`Title` underlined with `===`/`---`) are deliberately ignored, so they stay body text.

import type { LineTable } from './line-table.js';

export interface AtxHeading {
  /** 1–6. */
  level: number;
  /** Heading text with surrounding whitespace and the optional closing `#` run removed. */
  text: string;
}

export interface MarkdownBlocks {
  /** For a line that opens a fence, the index of its last line (the closing fence, or the last line of an unclosed one); -1 elsewhere. */
  fenceEnds: number[];
  /** Level of the ATX heading on each line (outside fences), 0 when the line is not a heading. */
  headingLevels: number[];
}

const SPACE = 32;
const TAB = 9;
const HASH = 35;
const BACKTICK = 96;
const TILDE = 126;

/** Find fences and ATX headings line by line; `#` lines inside a fence (closed or not) are never headings. */
export function markMarkdownBlocks(text: string, table: LineTable): MarkdownBlocks {
  const fenceEnds: number[] = new Array(table.count).fill(-1);
  const headingLevels: number[] = new Array(table.count).fill(0);
  let openLine = -1;
  let fenceChar = 0;
  let fenceLength = 0;
  for (let line = 0; line < table.count; line++) {
    if (table.blank[line]) continue;
    const start = table.starts[line]!;
    const end = table.ends[line]!;
    const first = skipIndent(text, start, end);
    if (first === -1) continue;
    if (openLine !== -1) {
      if (isClosingFence(text, first, end, fenceChar, fenceLength)) {
        fenceEnds[openLine] = line;
        openLine = -1;
      }
      continue;
    }
    const code = text.charCodeAt(first);
    if (code === BACKTICK || code === TILDE) {
      const length = countRun(text, first, end, code);
      if (length >= 3 && (code === TILDE || !hasBacktick(text, first + length, end))) {
        openLine = line;
        fenceChar = code;
        fenceLength = length;
        fenceEnds[line] = table.count - 1; // an unclosed fence runs to the end of the text
      }
    } else if (code === HASH) {
      headingLevels[line] = readHeadingLevel(text, first, end);
    }
  }
  return { fenceEnds, headingLevels };
}

/** Parse the ATX heading on `text[start, end)`, or null when the line is not one. */
export function readAtxHeading(text: string, start: number, end: number): AtxHeading | null {
  const first = skipIndent(text, start, end);
  if (first === -1) return null;
  const level = readHeadingLevel(text, first, end);
  if (level === 0) return null;
  let body = text.slice(first + level, end).trim();
  // A closing sequence is a run of `#` that is the whole text or follows a space/tab (`# C#` keeps its `#`).
  let cut = body.length;
  while (cut > 0 && body.charCodeAt(cut - 1) === HASH) cut--;
  if (cut === 0) body = '';
  else if (cut < body.length && isSpaceOrTab(body.charCodeAt(cut - 1))) body = body.slice(0, cut).trimEnd();
  return { level, text: body };
}

/** Index of the first non-space character when the indent is at most 3 spaces, else -1. */
function skipIndent(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && i - start < 4 && text.charCodeAt(i) === SPACE) i++;
  if (i - start > 3 || i >= end || text.charCodeAt(i) === TAB) return -1;
  return i;
}

function readHeadingLevel(text: string, first: number, end: number): number {
  const level = countRun(text, first, end, HASH);
  if (level < 1 || level > 6) return 0;
  const after = first + level;
  return after === end || isSpaceOrTab(text.charCodeAt(after)) ? level : 0;
}

function isClosingFence(text: string, first: number, end: number, char: number, minLength: number): boolean {
  const length = countRun(text, first, end, char);
  if (length < minLength) return false;
  for (let i = first + length; i < end; i++) if (!isSpaceOrTab(text.charCodeAt(i))) return false;
  return true;
}

/** A backtick fence's info string may not contain a backtick (CommonMark), else it is inline code. */
function hasBacktick(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (text.charCodeAt(i) === BACKTICK) return true;
  return false;
}

function countRun(text: string, from: number, end: number, code: number): number {
  let i = from;
  while (i < end && text.charCodeAt(i) === code) i++;
  return i - from;
}

function isSpaceOrTab(code: number): boolean {
  return code === SPACE || code === TAB;
}
