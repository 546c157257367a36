// Inline pass of the link scanner, over the text segments of link-blocks.ts: code spans and HTML comments are
// skipped; `[[…]]` is a wikilink; `[text](destination "title")`, `[text][label]`, `[label][]` and `[label]` are
// Markdown links (CommonMark's bracket matching: the nearest open bracket, images `![…]` are not links, a link
// closes every bracket opened before it). Linear in the body on any input: forward searches are memoised,
// and a destination, title or label is read for at most a fixed number of characters.
import { MAX_LABEL_CHARS, normalizeLabel, type TextSegment, unescapeMarkdown } from './link-blocks.js';

export type InlineLink =
  | { offset: number; kind: 'markdown'; destination: string }
  | { offset: number; kind: 'wikilink'; inner: string };

/** No note path is longer; a longer destination is not read (keeps a hostile note linear). */
const MAX_DESTINATION_CHARS = 2048;
const MAX_TITLE_CHARS = 256;
/** CommonMark implementations bound the parentheses nested in a destination; 32 is cmark's limit. */
const MAX_PAREN_DEPTH = 32;

const BACKSLASH = 92;
const BACKTICK = 96;
const OPEN = 91; // [
const CLOSE = 93; // ]
const PAREN_OPEN = 40;
const PAREN_CLOSE = 41;

/**
 * `text.indexOf(needle, from)` for calls whose `from` never decreases: the last answer is reused while it is
 * still ahead, so the text is searched once in all.
 */
class ForwardSearch {
  private from = -1;
  private found = -1;
  constructor(
    private readonly text: string,
    private readonly needle: string,
  ) {}

  next(from: number): number {
    if (this.from !== -1 && from >= this.from && (this.found === -1 || from <= this.found)) return this.found;
    this.from = from;
    this.found = this.text.indexOf(this.needle, from);
    return this.found;
  }
}

interface Opener {
  pos: number;
  image: boolean;
  /**
   * A bracket came after this one: its text cannot be a reference label. It also keeps label lookups linear:
   * the texts looked up are free of brackets, so they never overlap.
   */
  bracketAfter: boolean;
}

/** Every inline link of the segments, in order. */
export function scanInlineLinks(
  body: string,
  segments: readonly TextSegment[],
  definitions: ReadonlyMap<string, string>,
): InlineLink[] {
  const searches = {
    wikiClose: new ForwardSearch(body, ']]'),
    wikiOpen: new ForwardSearch(body, '[['),
    newline: new ForwardSearch(body, '\n'),
  };
  const found: InlineLink[] = [];
  for (const [start, end] of segments) {
    const masks = findOpaqueSpans(body, start, end);
    scanSegment({ body, start, end, masks, definitions, searches, found });
  }
  return found;
}

interface SegmentScan {
  body: string;
  start: number;
  end: number;
  /** Code spans and comments, sorted, not overlapping. */
  masks: readonly TextSegment[];
  definitions: ReadonlyMap<string, string>;
  searches: { wikiClose: ForwardSearch; wikiOpen: ForwardSearch; newline: ForwardSearch };
  found: InlineLink[];
}

function scanSegment(scan: SegmentScan): void {
  const { body, start, end, masks, found } = scan;
  const openers: Opener[] = [];
  let mask = 0;
  let i = start;
  while (i < end) {
    while (mask < masks.length && masks[mask]![1] <= i) mask++;
    if (mask < masks.length && masks[mask]![0] <= i) {
      i = masks[mask]![1];
      continue;
    }
    const code = body.charCodeAt(i);
    if (code === BACKSLASH && isAsciiPunctuation(body.charCodeAt(i + 1))) {
      i += 2;
      continue;
    }
    if (code === OPEN) {
      const wiki = body.charCodeAt(i + 1) === OPEN ? readWikilink(scan, i, mask) : null;
      markBracket(openers);
      if (wiki) {
        found.push(wiki.link);
        i = wiki.end;
        continue;
      }
      const image = i > start && body.charCodeAt(i - 1) === 33 && !isEscaped(body, i - 1);
      openers.push({ pos: i, image, bracketAfter: false });
      i++;
      continue;
    }
    if (code !== CLOSE) {
      i++;
      continue;
    }
    const opener = openers.pop();
    markBracket(openers);
    const link = opener ? readLinkTail(scan, opener, i, mask) : null;
    if (!opener || link === null) {
      i++;
      continue;
    }
    if (link.destination !== null && !opener.image) {
      found.push({ offset: opener.pos, kind: 'markdown', destination: link.destination });
      openers.length = 0; // a link cannot contain another: earlier brackets are text now
    }
    i = link.end;
  }
}

function markBracket(openers: Opener[]): void {
  const top = openers[openers.length - 1];
  if (top) top.bracketAfter = true;
}

/**
 * What follows the `]` at `close`: an inline destination, a full or collapsed reference, or a shortcut
 * reference. `destination` null means "not a link, continue at `end`" (an undefined full reference: its label's
 * own brackets are read next); null overall means "not a link, continue after the `]`".
 */
function readLinkTail(
  scan: SegmentScan,
  opener: Opener,
  close: number,
  mask: number,
): { destination: string | null; end: number } | null {
  const { body, definitions } = scan;
  const next = body.charCodeAt(close + 1);
  const textIsLabel =
    definitions.size > 0 && !opener.bracketAfter && close - opener.pos - 1 <= MAX_LABEL_CHARS;
  if (next === PAREN_OPEN) {
    const inline = readInlineDestination(scan, close + 1, mask);
    if (inline) return inline;
  } else if (next === OPEN) {
    const label = readLabel(scan, close + 1);
    if (label) {
      const collapsed = label.text === '';
      const key = collapsed ? body.slice(opener.pos + 1, close) : label.text;
      const destination = collapsed && !textIsLabel ? undefined : definitions.get(normalizeLabel(key));
      return destination === undefined
        ? { destination: null, end: close + 1 }
        : { destination, end: label.end };
    }
  }
  if (!textIsLabel) return null;
  const destination = definitions.get(normalizeLabel(body.slice(opener.pos + 1, close)));
  return destination === undefined ? null : { destination, end: close + 1 };
}

/** `[label]` right after a link text: its text and the offset past it, or null when there is none. */
function readLabel(scan: SegmentScan, open: number): { text: string; end: number } | null {
  const { body, end } = scan;
  for (let i = open + 1; i < end && i - open <= MAX_LABEL_CHARS + 1; i++) {
    const code = body.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === OPEN) return null;
    else if (code === CLOSE) return { text: body.slice(open + 1, i), end: i + 1 };
  }
  return null;
}

/**
 * `(destination "title")` from the `(` at `paren`: the destination (`<…>` or raw with balanced parentheses),
 * spaces and at most one line break around it, an optional title, then `)`. Null when it is not one.
 */
function readInlineDestination(
  scan: SegmentScan,
  paren: number,
  mask: number,
): { destination: string; end: number } | null {
  const { body, masks } = scan;
  // A code span or comment starting inside the parentheses binds tighter than the link (CommonMark).
  const limit = Math.min(scan.end, mask < masks.length ? masks[mask]![0] : scan.end);
  let i = skipSpace(body, paren + 1, limit);
  if (i >= limit) return null;
  let destination: string;
  if (body.charCodeAt(i) === PAREN_CLOSE) return { destination: '', end: i + 1 };
  if (body.charCodeAt(i) === 60) {
    const close = readAngleDestination(body, i, limit);
    if (close === -1) return null;
    destination = body.slice(i + 1, close);
    i = close + 1;
  } else {
    const after = readRawDestination(body, i, limit);
    if (after === -1) return null;
    destination = body.slice(i, after);
    i = after;
  }
  const beforeTitle = i;
  i = skipSpace(body, i, limit);
  const code = body.charCodeAt(i);
  if (i > beforeTitle && (code === 34 || code === 39 || code === PAREN_OPEN)) {
    const titleEnd = readTitle(body, i, limit);
    if (titleEnd === -1) return null;
    i = skipSpace(body, titleEnd, limit);
  }
  if (i >= limit || body.charCodeAt(i) !== PAREN_CLOSE) return null;
  return { destination: unescapeMarkdown(destination), end: i + 1 };
}

/** The offset of the `>` closing `<destination>` (no line break or `<` inside), or -1. */
function readAngleDestination(body: string, open: number, limit: number): number {
  for (let i = open + 1; i < limit && i - open <= MAX_DESTINATION_CHARS; i++) {
    const code = body.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === 62) return i;
    else if (code === 60 || code === 10 || code === 13) return -1;
  }
  return -1;
}

/** The offset just past a raw destination (up to a space, a control character or an unmatched `)`), or -1. */
function readRawDestination(body: string, first: number, limit: number): number {
  let depth = 0;
  for (let i = first; i < limit && i - first <= MAX_DESTINATION_CHARS; i++) {
    const code = body.charCodeAt(i);
    if (code <= 32) return depth === 0 ? i : -1;
    if (code === BACKSLASH && isAsciiPunctuation(body.charCodeAt(i + 1))) i++;
    else if (code === PAREN_OPEN && ++depth > MAX_PAREN_DEPTH) return -1;
    else if (code === PAREN_CLOSE && depth-- === 0) return i;
  }
  return -1;
}

/** The offset just past a title opened at `open` by `"`, `'` or `(`, or -1. */
function readTitle(body: string, open: number, limit: number): number {
  const opening = body.charCodeAt(open);
  const closing = opening === PAREN_OPEN ? PAREN_CLOSE : opening;
  for (let i = open + 1; i < limit && i - open <= MAX_TITLE_CHARS; i++) {
    const code = body.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === closing) return i + 1;
    else if (opening === PAREN_OPEN && code === PAREN_OPEN) return -1;
  }
  return -1;
}

/** Past spaces and tabs, and at most one line break. */
function skipSpace(body: string, from: number, limit: number): number {
  let i = from;
  let breaks = 0;
  while (i < limit) {
    const code = body.charCodeAt(i);
    if (code === 10 && breaks++ === 0) i++;
    else if (code === 32 || code === 9 || code === 13) i++;
    else break;
  }
  return i;
}

/**
 * `[[…]]` at `open`: closed on the same line, no other `[[` before its `]]` (that one is the link), not
 * overlapping code or a comment, not blank. An embed `![[…]]` is one too (the `!` is left as text).
 */
function readWikilink(
  scan: SegmentScan,
  open: number,
  mask: number,
): { link: InlineLink; end: number } | null {
  const { body, searches, masks } = scan;
  const close = searches.wikiClose.next(open + 2);
  if (close === -1 || close + 2 > scan.end) return null;
  const newline = searches.newline.next(open);
  if (newline !== -1 && newline < close) return null;
  const nested = searches.wikiOpen.next(open + 1);
  if (nested !== -1 && nested < close) return null;
  if (mask < masks.length && masks[mask]![0] < close + 2) return null;
  const inner = body.slice(open + 2, close);
  if (inner.trim() === '') return null;
  return { link: { offset: open, kind: 'wikilink', inner }, end: close + 2 };
}

/**
 * Code spans (a backtick run up to the next run of the same length) and HTML comments in `[start, end)`, in
 * order. Runs are indexed by length up front, so finding a closing run never rescans the segment.
 */
function findOpaqueSpans(body: string, start: number, end: number): TextSegment[] {
  const first = body.indexOf('`', start);
  const comment = body.indexOf('<!--', start);
  if ((first === -1 || first >= end) && (comment === -1 || comment >= end)) return [];
  const runsByLength = indexBacktickRuns(body, start, end);
  const spans: TextSegment[] = [];
  let commentsClose = true;
  let i = start;
  while (i < end) {
    const code = body.charCodeAt(i);
    if (code === BACKSLASH) {
      i += 2;
      continue;
    }
    if (code === BACKTICK) {
      let length = 1;
      while (body.charCodeAt(i + length) === BACKTICK) length++;
      const closer = nextRunOf(runsByLength.get(length), i + length);
      if (closer !== -1 && closer < end) {
        spans.push([i, closer + length]);
        i = closer + length;
      } else i += length;
      continue;
    }
    if (code === 60 && commentsClose && body.startsWith('<!--', i)) {
      const close = body.indexOf('-->', i + 4);
      if (close !== -1 && close + 3 <= end) {
        spans.push([i, close + 3]);
        i = close + 3;
        continue;
      }
      commentsClose = false; // no later comment in this segment can close either
    }
    i++;
  }
  return spans;
}

/** Start offsets of every maximal backtick run in `[start, end)`, grouped by run length, ascending. */
function indexBacktickRuns(body: string, start: number, end: number): Map<number, number[]> {
  const runs = new Map<number, number[]>();
  let i = body.indexOf('`', start);
  while (i !== -1 && i < end) {
    let length = 1;
    while (i + length < end && body.charCodeAt(i + length) === BACKTICK) length++;
    const list = runs.get(length);
    if (list) list.push(i);
    else runs.set(length, [i]);
    i = body.indexOf('`', i + length);
  }
  return runs;
}

/** The first run start at or after `from`, by binary search, or -1. */
function nextRunOf(starts: readonly number[] | undefined, from: number): number {
  if (!starts) return -1;
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (starts[mid]! < from) low = mid + 1;
    else high = mid;
  }
  return low < starts.length ? starts[low]! : -1;
}

function isAsciiPunctuation(code: number): boolean {
  return (
    (code >= 33 && code <= 47) ||
    (code >= 58 && code <= 64) ||
    (code >= 91 && code <= 96) ||
    (code >= 123 && code <= 126)
  );
}

/** Whether the character at `at` is preceded by an odd number of backslashes. */
function isEscaped(body: string, at: number): boolean {
  let count = 0;
  for (let i = at - 1; i >= 0 && body.charCodeAt(i) === BACKSLASH; i--) count++;
  return count % 2 === 1;
}
