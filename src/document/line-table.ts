// One pass over a text that records every line's character range, UTF-8 byte offset and blankness,
// so the chunkers can slice and measure by index instead of re-encoding substrings.

/**
 * Parallel arrays, one entry per line. A line ends at `\n`; a `\r` right before it belongs to the
 * terminator, so CRLF files keep exact byte offsets while content is measured as if it were LF.
 */
export interface LineTable {
  count: number;
  /** Char index of the line's first character. */
  starts: number[];
  /** Char index just past the line's content (terminator excluded). */
  ends: number[];
  /** UTF-8 byte offset of the line's first character, relative to the scanned text. */
  byteStarts: number[];
  /** UTF-8 bytes of the content, terminator excluded. */
  bytes: number[];
  /** Content bytes before this line if every terminator were a single `\n` (for O(1) range sizes). */
  lfOffsets: number[];
  /** True when the line holds only spaces and tabs. */
  blank: boolean[];
  /** UTF-8 bytes of the whole text. */
  totalBytes: number;
}

/** Split `text` into lines; an empty text has zero lines, a trailing newline adds no empty line. */
export function scanLines(text: string): LineTable {
  const table: LineTable = {
    count: 0,
    starts: [],
    ends: [],
    byteStarts: [],
    bytes: [],
    lfOffsets: [],
    blank: [],
    totalBytes: 0,
  };
  let pos = 0;
  let byteOffset = 0;
  let lfOffset = 0;
  while (pos < text.length) {
    const newline = text.indexOf('\n', pos);
    const lineEnd = newline === -1 ? text.length : newline;
    const contentEnd = lineEnd > pos && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
    let bytes = 0;
    let blank = true;
    for (let i = pos; i < contentEnd; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x80) {
        bytes += 1;
        if (blank && code !== 32 && code !== 9) blank = false;
        continue;
      }
      blank = false;
      if (code < 0x800) bytes += 2;
      else if (code >= 0xd800 && code <= 0xdbff && i + 1 < contentEnd) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          bytes += 4;
          i++;
        } else bytes += 3;
      } else bytes += 3;
    }
    table.starts.push(pos);
    table.ends.push(contentEnd);
    table.byteStarts.push(byteOffset);
    table.bytes.push(bytes);
    table.lfOffsets.push(lfOffset);
    table.blank.push(blank);
    table.count++;
    const terminatorBytes = lineEnd - contentEnd + (newline === -1 ? 0 : 1);
    byteOffset += bytes + terminatorBytes;
    lfOffset += bytes + 1;
    pos = newline === -1 ? text.length : newline + 1;
  }
  table.totalBytes = byteOffset;
  return table;
}

/** Content bytes of lines `first..last` (inclusive) joined with single `\n`s. */
export function measureLineRange(table: LineTable, first: number, last: number): number {
  return table.lfOffsets[last]! + table.bytes[last]! - table.lfOffsets[first]!;
}

/**
 * Lines `first..last` as one string with blank lines trimmed off both ends and CRLF turned into LF.
 * Returns '' when every line in the range is blank.
 */
export function readLineRange(text: string, table: LineTable, first: number, last: number): string {
  let from = first;
  let to = last;
  while (from <= to && table.blank[from]) from++;
  while (to >= from && table.blank[to]) to--;
  if (from > to) return '';
  const slice = text.slice(table.starts[from], table.ends[to]);
  return slice.includes('\r') ? slice.replace(/\r\n/g, '\n') : slice;
}
