// The lines of a source file a chunk spans, told from the chunk's byte range in the file: read only up to the
// chunk's end, and only when the file is still the one that was indexed (same size and modification time).
import fs from 'node:fs';

export interface IndexedFileState {
  sizeBytes: number;
  mtimeMs: number;
}

export interface LineRange {
  /** 1-based line of the chunk's first byte. */
  start: number;
  /** 1-based line of its last byte. */
  end: number;
}

const NEWLINE = 0x0a;

/**
 * The 1-based first and last line of bytes [byteStart, byteEnd) of `file`, or null when the file changed since it
 * was indexed, cannot be read, or the range does not fit it.
 */
export function readLineRange(
  file: string,
  byteStart: number,
  byteEnd: number,
  indexed: IndexedFileState,
): LineRange | null {
  if (!(byteStart >= 0 && byteEnd > byteStart)) return null;
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    const unchanged = stat.size === indexed.sizeBytes && Math.abs(stat.mtimeMs - indexed.mtimeMs) < 1;
    if (!stat.isFile() || !unchanged || byteEnd > stat.size) return null;
    const bytes = Buffer.alloc(byteEnd);
    let read = 0;
    while (read < byteEnd) {
      const got = fs.readSync(fd, bytes, read, byteEnd - read, read);
      if (got === 0) return null;
      read += got;
    }
    let start = 1;
    for (let i = 0; i < byteStart; i++) if (bytes[i] === NEWLINE) start++;
    let end = start;
    // A newline that ends the range belongs to its last line.
    for (let i = byteStart; i < byteEnd - 1; i++) if (bytes[i] === NEWLINE) end++;
    return { start, end };
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
