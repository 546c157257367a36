// Block-level pass of the link scanner: which parts of a Markdown body hold inline text (paragraphs, headings,
// list items, tables, quotes) and which never do (fenced code, indented code, HTML comment blocks), plus the link
// reference definitions `[label]: destination`. Line by line and linear, on the chunker's own fence detection;
// HTML blocks are skipped the way CommonMark reads them (a comment, raw `<pre>`-like tags, block tags);
// like the chunker it reads fences only at the top level (indent ≤ 3), so a fence inside a quote is text.
import { type LineTable, scanLines } from './line-table.js';
import { markMarkdownBlocks } from './markdown-blocks.js';

/** Half-open `[start, end)` character range of text whose inline links count. */
export type TextSegment = readonly [number, number];

export interface LinkBlocks {
  segments: TextSegment[];
  /** Normalised label (see normalizeLabel) → destination as written; the first definition of a label wins. */
  definitions: Map<string, string>;
}

/** CommonMark's longest link label. */
export const MAX_LABEL_CHARS = 999;

const SPACE = 32;
const TAB = 9;

/**
 * Stages per line: blank lines and fences end a paragraph; an indented line after a paragraph break (outside a
 * list) is code, and so are the indented or blank lines after it; an HTML comment block runs to its `-->`;
 * a heading is a segment of its own; a definition at a paragraph's start is recorded, not scanned; a list
 * marker starts a new segment; anything else extends the current paragraph.
 */
export function scanLinkBlocks(body: string): LinkBlocks {
  const table = scanLines(body);
  const { fenceEnds, headingLevels } = markMarkdownBlocks(body, table);
  const blocks: LinkBlocks = { segments: [], definitions: new Map() };
  let paragraph: [number, number] | null = null;
  const closeParagraph = () => {
    if (paragraph) blocks.segments.push(paragraph);
    paragraph = null;
  };
  let afterBreak = true; // the previous line ended a paragraph (or there was none)
  let afterBlank = true;
  let inList = false;
  let line = 0;
  while (line < table.count) {
    if (table.blank[line]) {
      closeParagraph();
      afterBreak = afterBlank = true;
      line++;
      continue;
    }
    if (fenceEnds[line] !== -1) {
      closeParagraph();
      line = fenceEnds[line]! + 1;
      afterBreak = true;
      afterBlank = false;
      continue;
    }
    const start = table.starts[line]!;
    const end = table.ends[line]!;
    const { columns, first } = measureIndent(body, start, end);
    if (columns >= 4 && afterBreak && !inList) {
      closeParagraph();
      line = skipIndentedCode(body, table, line + 1);
      afterBreak = true;
      afterBlank = false;
      continue;
    }
    const html = columns <= 3 ? htmlBlockEnd(body, table, line, first) : -1;
    if (html !== -1) {
      closeParagraph();
      line = html;
      afterBreak = true;
      afterBlank = false;
      continue;
    }
    if (headingLevels[line]! > 0) {
      closeParagraph();
      blocks.segments.push([first, end]);
      afterBreak = true;
      afterBlank = false;
      line++;
      continue;
    }
    if (afterBreak && columns <= 3 && readDefinition(body, first, end, blocks.definitions)) {
      afterBlank = false; // definitions may follow each other; afterBreak stays
      line++;
      continue;
    }
    if (columns <= 3 && isListMarker(body, first, end)) {
      closeParagraph();
      inList = true;
    } else if (afterBlank && columns === 0) inList = false;
    paragraph ??= [first, end];
    paragraph[1] = end;
    afterBreak = afterBlank = false;
    line++;
  }
  closeParagraph();
  return blocks;
}

/** The indent of a line in columns (a tab reaches the next multiple of 4) and its first non-space character. */
function measureIndent(body: string, start: number, end: number): { columns: number; first: number } {
  let columns = 0;
  let i = start;
  for (; i < end; i++) {
    const code = body.charCodeAt(i);
    if (code === SPACE) columns++;
    else if (code === TAB) columns += 4 - (columns % 4);
    else break;
  }
  return { columns, first: i };
}

/**
 * CommonMark's HTML blocks that matter here: a comment (to its `-->`), `<script>`, `<pre>`, `<style>` and
 * `<textarea>` (to their closing tag) and the block-level tags such as `<div>` or `<table>` (to the next blank
 * line). Returns the first line after the block, or -1 when `line` does not open one.
 */
function htmlBlockEnd(body: string, table: LineTable, line: number, first: number): number {
  if (body.charCodeAt(first) !== 60) return -1;
  if (body.startsWith('<!--', first)) {
    const close = body.indexOf('-->', first + 4);
    return lineAfter(table, line, close === -1 ? -1 : close + 3);
  }
  const tag = /^<\/?([A-Za-z][A-Za-z0-9]*)(?=[\s/>]|$)/.exec(
    body.slice(first, Math.min(first + 16, table.ends[line]!)),
  );
  if (!tag) return -1;
  const name = tag[1]!.toLowerCase();
  if (RAW_TAGS.has(name) && !tag[0].startsWith('</')) {
    const closing = new RegExp(`</${name}>`, 'gi');
    closing.lastIndex = first;
    const close = closing.exec(body);
    return lineAfter(table, line, close ? close.index + close[0].length : -1);
  }
  if (!BLOCK_TAGS.has(name)) return -1;
  let next = line + 1;
  while (next < table.count && !table.blank[next]) next++;
  return next;
}

const RAW_TAGS = new Set(['pre', 'script', 'style', 'textarea']);
const BLOCK_TAGS = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div ' +
    'dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe ' +
    'legend li link main menu menuitem nav noframes ol optgroup option p param search section summary table ' +
    'tbody td tfoot th thead title tr track ul'
  ).split(' '),
);

/** The line after the one (from `line` on) where a closing marker ends at `markerEnd`; the end for -1. */
function lineAfter(table: LineTable, line: number, markerEnd: number): number {
  if (markerEnd === -1) return table.count;
  let next = line;
  while (next < table.count && table.ends[next]! < markerEnd) next++;
  return next + 1;
}

/** The first line after an indented code block whose first line came before `line`. */
function skipIndentedCode(body: string, table: LineTable, line: number): number {
  let next = line;
  while (next < table.count) {
    if (!table.blank[next] && measureIndent(body, table.starts[next]!, table.ends[next]!).columns < 4) break;
    next++;
  }
  return next;
}

/** `-`, `+`, `*` or up to 9 digits and `.`/`)`, followed by a space, a tab or the end of the line. */
function isListMarker(body: string, first: number, end: number): boolean {
  const code = body.charCodeAt(first);
  let after = first + 1;
  if (code !== 45 && code !== 43 && code !== 42) {
    let i = first;
    while (i < end && i - first < 10 && isDigit(body.charCodeAt(i))) i++;
    const mark = body.charCodeAt(i);
    if (i === first || i - first > 9 || (mark !== 46 && mark !== 41)) return false;
    after = i + 1;
  }
  return after >= end || isSpaceOrTab(body.charCodeAt(after));
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * `[label]: destination` on one line, optionally followed by a title: recorded in `definitions`, true. A
 * footnote (`[^1]: …`), a blank label or text after the destination make it no definition (false).
 */
function readDefinition(body: string, first: number, end: number, definitions: Map<string, string>): boolean {
  if (body.charCodeAt(first) !== 91 || body.charCodeAt(first + 1) === 94) return false; // `[`, not `[^`
  let i = first + 1;
  while (i < end && i - first <= MAX_LABEL_CHARS + 1) {
    const code = body.charCodeAt(i);
    if (code === 92) i += 2;
    else if (code === 91) return false;
    else if (code === 93) break;
    else i++;
  }
  if (i >= end || body.charCodeAt(i) !== 93 || body.charCodeAt(i + 1) !== 58) return false; // `]:`
  const label = normalizeLabel(body.slice(first + 1, i));
  if (label === '') return false;
  let at = i + 2;
  while (at < end && isSpaceOrTab(body.charCodeAt(at))) at++;
  if (at >= end) return false;
  let destination: string;
  let after: number;
  if (body.charCodeAt(at) === 60) {
    let close = at + 1;
    while (close < end && body.charCodeAt(close) !== 62) close++;
    if (close >= end) return false;
    destination = body.slice(at + 1, close);
    after = close + 1;
  } else {
    after = at;
    while (after < end && body.charCodeAt(after) > SPACE) after++;
    destination = body.slice(at, after);
  }
  while (after < end && isSpaceOrTab(body.charCodeAt(after))) after++;
  const next = body.charCodeAt(after);
  if (after < end && next !== 34 && next !== 39 && next !== 40) return false; // only a title may follow
  if (!definitions.has(label)) definitions.set(label, unescapeMarkdown(destination));
  return true;
}

function isSpaceOrTab(code: number): boolean {
  return code === SPACE || code === TAB;
}

/** How CommonMark compares labels: whitespace runs as one space, trimmed, case-folded. */
export function normalizeLabel(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, ' ')
    .trim()
    .toLowerCase()
    .toUpperCase();
}

/** Backslash escapes of ASCII punctuation removed: `a\_b.md` → `a_b.md`. */
export function unescapeMarkdown(text: string): string {
  return text.includes('\\') ? text.replace(/\\([!-/:-@[-`{-~])/g, '$1') : text;
}
