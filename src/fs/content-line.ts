// The line of a KB file on which a chunk's text (or a passage of it) begins: found by reading the file and
// looking for the text at or after the chunk's first line, so a passage cut from the text can name its own lines.
import fs from 'node:fs';

/** Files larger than this are not read for it (their passages carry no lines). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/**
 * The 1-based line on which `text` first occurs in `file` at or after line `fromLine`, or null when the file
 * cannot be read, is too large, or does not hold the text there.
 */
export type TextLineFinder = (file: string, text: string, fromLine: number) => number | null;

/** A finder that reads each file once, for the passages of one search (a file is not watched for changes). */
export function createTextLineFinder(): TextLineFinder {
  const bodies = new Map<string, string | null>();
  return (file, text, fromLine) => {
    if (!bodies.has(file)) bodies.set(file, readSmallText(file));
    const body = bodies.get(file)!;
    return body === null ? null : lineOfText(body, text, fromLine);
  };
}

function readSmallText(file: string): string | null {
  try {
    return fs.statSync(file).size > MAX_FILE_BYTES ? null : fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function lineOfText(body: string, text: string, fromLine: number): number | null {
  let offset = 0;
  for (let line = 1; line < fromLine; line++) {
    const next = body.indexOf('\n', offset);
    if (next === -1) return null;
    offset = next + 1;
  }
  const at = body.indexOf(text, offset);
  if (at === -1) return null;
  let line = fromLine;
  for (let i = offset; i < at; i++) if (body.charCodeAt(i) === 10) line++;
  return line;
}
