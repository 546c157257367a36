// Crash-safe file replacement: readers see either the old file or the complete new one, never a torn write.
// Used for the eval history and other small state files groove owns.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GrooveError } from '../errors.js';

export interface AtomicWriteOptions {
  /** Permission bits of a newly created file (default 0o644, reduced by the umask). */
  mode?: number;
}

/**
 * Write `data` to a temp file in the same folder (so the rename stays on one file system), fsync it, rename
 * it over `filePath`, then fsync the folder so the rename itself survives a power loss. The temp file is
 * removed on any failure. Replacing a symlink replaces the link, never the file it points to.
 */
export function writeFileAtomic(
  filePath: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  const dir = path.dirname(filePath);
  const tempPath = path.join(
    dir,
    `.${path.basename(filePath)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  let fd: number | undefined;
  try {
    // 'wx' (O_EXCL): never reuse or write through something already at the temp path.
    fd = fs.openSync(tempPath, 'wx', options.mode ?? 0o644);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < bytes.length) {
      written += fs.writeSync(fd, bytes, written, bytes.length - written);
    }
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tempPath, filePath);
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    fs.rmSync(tempPath, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new GrooveError('FILE_WRITE_FAILED', `could not write "${filePath}": ${code}`, {
      hint: 'check that the folder exists, is writable and the disk is not full',
      cause: error,
    });
  }
  syncDirectory(dir);
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already failing; the original error is the one worth reporting.
  }
}

/** Best effort: some platforms (Windows) and file systems cannot open or fsync a folder. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // The data itself is already durable; only the rename's durability is left to the OS.
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/** Why `filePath` cannot take a new file, or null when it can: its folder must exist, and it must not be one. */
export function describeUnwritableTarget(filePath: string): string | null {
  const dir = path.dirname(filePath);
  let folder: fs.Stats;
  try {
    folder = fs.statSync(dir);
  } catch {
    return `its folder "${dir}" does not exist`;
  }
  if (!folder.isDirectory()) return `"${dir}" is not a folder`;
  try {
    if (fs.statSync(filePath).isDirectory()) return 'it is a folder';
  } catch {
    // Nothing there yet: the file is created.
  }
  return null;
}
