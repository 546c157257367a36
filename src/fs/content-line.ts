// The line of a KB file on which a chunk's text begins: found by reading the file and looking for the text at or
// after the chunk's first line, so a passage cut from the text can name its own lines.
import fs from 'node:fs';

/** Files larger than this are not read for it (their passages carry no lines). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/**
 * The 1-based line on which `text` first occurs in `file` at or after line `fromLine`, or null when the file
 * cannot be read, is too large, or does not hold the text there.
 */
export function findTextLine(file: string, text: string, fromLine: number): number | null {
  try {
    if (fs.statSync(file).size > MAX_FILE_BYTES) return null;
    const body = fs.readFileSync(file, 'utf8');
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
  } catch {
    return null;
  }
}
