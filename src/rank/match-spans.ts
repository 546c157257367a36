// Where the query terms occur in a result's content, as UTF-8 byte ranges, for every script: non-ASCII
// terms (Japanese, accented words) get spans as ASCII ones do. In scripts that separate words with spaces a span
// covers whole words: a term of 3+ characters found inside a word (the trigram leg's substring match) marks that
// word, a term of 1–2 characters marks only a whole word equal to it (never the `i` inside `Obsidian`). Terms in
// scripts written without spaces (Japanese, Chinese, Thai…) and Korean mark exactly their characters.

export interface MatchSpan {
  /** UTF-8 byte offset of the first byte. */
  start: number;
  /** UTF-8 byte offset one past the last byte. */
  end: number;
}

export interface ComputeMatchSpansOptions {
  /** Content larger than this many UTF-8 bytes gets no spans (the scan is not worth it). Default 256 KiB. */
  maxContentBytes?: number;
  /** At most this many spans, and the total budget split across terms. Default 100. */
  maxSpans?: number;
}

export const DEFAULT_MATCH_SPAN_MAX_CONTENT_BYTES = 256 * 1024;
export const DEFAULT_MAX_MATCH_SPANS = 100;

// Only syntax characters may be escaped in a `u` regex; `\-` would be a syntax error.
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

function escapeRegex(text: string): string {
  return text.replace(REGEX_SYNTAX, '\\$&');
}

/** Below this many characters a term marks whole words only; the trigram leg finds nothing shorter either. */
export const SUBSTRING_SPAN_MIN_CHARS = 3;

const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;

/** Scripts written without spaces between words, Korean (whose particles attach to words), and their marks. */
const UNSPACED_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3005-\u3007\u3099-\u309c\u30fc\uff70\uff9e\uff9f]/u;

/** A letter, digit or mark of a script that separates its words with spaces. */
function isSpacedWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch) && !UNSPACED_CHAR.test(ch);
}

/** The code point that ends just before UTF-16 offset `at`. */
function charBefore(text: string, at: number): string | undefined {
  if (at <= 0) return undefined;
  const low = text.charCodeAt(at - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && at >= 2 ? at - 2 : at - 1;
  return String.fromCodePoint(text.codePointAt(start)!);
}

/** The code point that starts at UTF-16 offset `at`. */
function charAt(text: string, at: number): string | undefined {
  const code = text.codePointAt(at);
  return code === undefined ? undefined : String.fromCodePoint(code);
}

/** Widen [start, end) until neither edge falls between two spaced-script word characters. */
function widenToWords(text: string, start: number, end: number): [number, number] {
  let from = start;
  let to = end;
  while (isSpacedWordChar(charBefore(text, from)) && isSpacedWordChar(charAt(text, from))) {
    from -= charBefore(text, from)!.length;
  }
  while (isSpacedWordChar(charBefore(text, to)) && isSpacedWordChar(charAt(text, to))) {
    to += charAt(text, to)!.length;
  }
  return [from, to];
}

type TermRule = 'exact' | 'whole-word' | 'widen';

function ruleFor(term: string): TermRule {
  if (UNSPACED_CHAR.test(term)) return 'exact';
  return [...term].length < SUBSTRING_SPAN_MIN_CHARS ? 'whole-word' : 'widen';
}

/** Up to `budget` ranges where `term` occurs in `content`, each shaped by the term's rule, in document order. */
function termRanges(content: string, term: string, budget: number): Array<[number, number]> {
  const rule = ruleFor(term);
  const pattern = new RegExp(escapeRegex(term), 'giu');
  const ranges: Array<[number, number]> = [];
  for (let match = pattern.exec(content); match !== null; match = pattern.exec(content)) {
    const start = match.index;
    const end = start + match[0].length;
    const [from, to] = rule === 'exact' ? [start, end] : widenToWords(content, start, end);
    if (rule === 'whole-word' && (from !== start || to !== end)) {
      pattern.lastIndex = start + charAt(content, start)!.length;
      continue;
    }
    ranges.push([from, to]);
    if (ranges.length >= budget) break;
    // The next occurrence starts after this word, so one word costs the term one span of its budget.
    pattern.lastIndex = Math.max(to, end);
  }
  return ranges;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3; // lone surrogate: encoded as U+FFFD, 3 bytes
      }
    } else bytes += 3;
  }
  return bytes;
}

/** Map sorted UTF-16 offsets to UTF-8 byte offsets in one pass over the string. */
function toByteOffsets(text: string, sortedOffsets: number[]): Map<number, number> {
  const result = new Map<number, number>();
  let bytes = 0;
  let position = 0;
  for (const offset of sortedOffsets) {
    if (offset > position) {
      bytes += utf8Length(text.slice(position, offset));
      position = offset;
    }
    result.set(offset, bytes);
  }
  return result;
}

/**
 * Case-insensitive (Unicode simple case folding) occurrences of `terms` in `content`, shaped by the word rules
 * above. Each term keeps at most floor(maxSpans / #terms) (≥ 1) spans in document order; leftover budget is not
 * redistributed. Overlapping spans merge; touching ones do not. Sorted, disjoint, at most `maxSpans`.
 */
export function computeMatchSpans(
  content: string,
  terms: string[],
  options: ComputeMatchSpansOptions = {},
): MatchSpan[] {
  const maxContentBytes = options.maxContentBytes ?? DEFAULT_MATCH_SPAN_MAX_CONTENT_BYTES;
  const maxSpans = options.maxSpans ?? DEFAULT_MAX_MATCH_SPANS;
  if (content === '' || maxSpans <= 0) return [];
  if (content.length > maxContentBytes || utf8Length(content) > maxContentBytes) return [];

  const seen = new Set<string>();
  const uniqueTerms: string[] = [];
  for (const term of terms) {
    const key = term.toLowerCase();
    if (term === '' || seen.has(key)) continue;
    seen.add(key);
    uniqueTerms.push(term);
  }
  if (uniqueTerms.length === 0) return [];
  const budget = Math.max(1, Math.floor(maxSpans / uniqueTerms.length));

  const ranges: Array<[number, number]> = [];
  for (const term of uniqueTerms) ranges.push(...termRanges(content, term, budget));
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);

  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] < last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  const kept = merged.slice(0, maxSpans);

  const offsets = [...new Set(kept.flat())].sort((a, b) => a - b);
  const bytes = toByteOffsets(content, offsets);
  return kept.map(([start, end]) => ({ start: bytes.get(start)!, end: bytes.get(end)! }));
}
