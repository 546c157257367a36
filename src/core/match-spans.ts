// Where the query terms occur in a result's content, as UTF-8 byte ranges, for every script: non-ASCII
// terms (Japanese, accented words) get spans as ASCII ones do.

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
 * Case-insensitive (Unicode simple case folding) occurrences of `terms` in `content`. Each term keeps at most
 * floor(maxSpans / #terms) (≥ 1) occurrences in document order; leftover budget is not redistributed.
 * Overlapping occurrences merge; touching ones do not. Sorted, disjoint, at most `maxSpans`.
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
  for (const term of uniqueTerms) {
    const pattern = new RegExp(escapeRegex(term), 'giu');
    let found = 0;
    for (const match of content.matchAll(pattern)) {
      ranges.push([match.index, match.index + match[0].length]);
      if (++found >= budget) break;
    }
  }
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
