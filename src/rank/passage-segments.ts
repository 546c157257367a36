// A chunk's text cut into segments a passage is built from: sentences and lines. A segment ends after a line
// break, after `.`, `!` or `?` followed by whitespace (the whitespace stays with it), or after `。`, `！`, `？`
// and any closing brackets or quotes that follow them. A segment longer than a cap is cut again at its last
// space or comma (`、`, `，` too) before the cap, so no single sentence outgrows a small budget.
import { pairSafeEnd } from '../core/utf16-cut.js';

/** A segment as UTF-16 offsets into the text: [start, end). */
export interface Segment {
  start: number;
  end: number;
}

/** The longest segment, in characters, before it is cut again. */
export const MAX_SEGMENT_CHARS = 400;

const SPACED_STOP = /[.!?]/;
const UNSPACED_STOP = /[。！？]/;
const CLOSER = /[」』）)"'”’】〕]/;
const SOFT_BREAK = /[\s,、，;；]/;

/** The segments of `text` in order; together they cover it exactly. */
export function splitSegments(text: string, maxChars = MAX_SEGMENT_CHARS): Segment[] {
  const segments: Segment[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    let end = -1;
    if (ch === '\n') end = i + 1;
    else if (UNSPACED_STOP.test(ch)) {
      end = i + 1;
      while (end < text.length && CLOSER.test(text[end]!)) end++;
    } else if (SPACED_STOP.test(ch) && i + 1 < text.length && /\s/.test(text[i + 1]!)) {
      end = i + 1;
      while (end < text.length && text[end] === ' ') end++;
    }
    if (end === -1) {
      i++;
      continue;
    }
    pushCapped(segments, text, start, end, maxChars);
    start = end;
    i = end;
  }
  if (start < text.length) pushCapped(segments, text, start, text.length, maxChars);
  return segments;
}

/** Push [start, end), cut at soft breaks into pieces of at most `maxChars` (a hard cut where none is). */
function pushCapped(segments: Segment[], text: string, start: number, end: number, maxChars: number): void {
  let from = start;
  while (end - from > maxChars) {
    let cut = from + maxChars;
    for (let j = cut - 1; j > from + maxChars / 2; j--) {
      if (SOFT_BREAK.test(text[j]!)) {
        cut = j + 1;
        break;
      }
    }
    cut = pairSafeEnd(text, cut);
    segments.push({ start: from, end: cut });
    from = cut;
  }
  segments.push({ start: from, end });
}
