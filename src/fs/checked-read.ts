// Safe file reads: decide (symlink, hard link, file type, size) and read from ONE open handle, so a file
// swapped between the check and the read cannot slip through. Also strict UTF-8 decoding and the
// human-readable wording of every reason a file is skipped.
import * as fs from 'node:fs';
import { displayPath } from '../core/display-path.js';

/** Why a checked read refused a file. */
export type ReadSkipReason =
  | 'symlink'
  | 'hard-link'
  | 'not-regular'
  | 'too-large'
  | 'unreadable'
  | 'path-too-long'
  | 'vanished';
/** Why bytes that were read cannot be used as text. */
export type DecodeSkipReason = 'binary' | 'invalid-utf8';
/** Every reason a file can be skipped; `unaddressable` comes from the walker's name rule. */
export type SkipReason = ReadSkipReason | DecodeSkipReason | 'unaddressable';

export interface CheckedReadOptions {
  /** Files larger than this are refused without reading a byte. */
  maxBytes: number;
}

export type CheckedRead =
  | { ok: true; bytes: Buffer; sizeBytes: number; mtimeMs: number }
  | { ok: false; reason: ReadSkipReason; detail: string };

export type DecodedText =
  | {
      ok: true;
      text: string /** A UTF-8 byte-order mark was present and has been removed from `text`. */;
      hadBom: boolean;
    }
  | { ok: false; reason: DecodeSkipReason; detail: string };

// O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer; fstat then refuses it.
// O_NOFOLLOW makes the open itself fail on a symlink, so there is no lstat-then-open race.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
// fatal: reject malformed input instead of inserting U+FFFD; the decoder strips a leading BOM.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Open, check and read a file through one descriptor. Never throws for file-level problems. */
export function readCheckedFile(absPath: string, options: CheckedReadOptions): CheckedRead {
  let fd: number;
  try {
    fd = fs.openSync(absPath, OPEN_FLAGS);
  } catch (error) {
    return refuseOpen(error);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      return {
        ok: false,
        reason: 'not-regular',
        detail: `it is a ${describeFileType(stat)}, not a regular file`,
      };
    }
    // A link count of 0 (deleted while open, or a file system that does not count) is allowed, like an
    // unknown count: only a proven second name is refused.
    if (stat.nlink > 1) {
      return { ok: false, reason: 'hard-link', detail: `it has ${stat.nlink} hard links` };
    }
    if (stat.size > options.maxBytes) {
      return {
        ok: false,
        reason: 'too-large',
        detail: `file is ${stat.size} bytes, over the ${options.maxBytes}-byte cap`,
      };
    }
    const bytes = readExactly(fd, stat.size);
    return { ok: true, bytes, sizeBytes: bytes.length, mtimeMs: stat.mtimeMs };
  } catch (error) {
    return { ok: false, ...describeFsFailure('read', error) };
  } finally {
    fs.closeSync(fd);
  }
}

/** Read up to `sizeBytes` from the descriptor; a file truncated meanwhile yields what is left. */
function readExactly(fd: number, sizeBytes: number): Buffer {
  const buffer = Buffer.allocUnsafe(sizeBytes);
  let filled = 0;
  while (filled < sizeBytes) {
    const got = fs.readSync(fd, buffer, filled, sizeBytes - filled, filled);
    if (got === 0) break;
    filled += got;
  }
  return filled === sizeBytes ? buffer : buffer.subarray(0, filled);
}

function refuseOpen(error: unknown): CheckedRead {
  const code = errorCode(error);
  // Linux and macOS say ELOOP for O_NOFOLLOW on a symlink; FreeBSD says EMLINK.
  if (code === 'ELOOP' || code === 'EMLINK') {
    return { ok: false, reason: 'symlink', detail: 'it is a symbolic link' };
  }
  // ENXIO: opening a Unix socket.
  if (code === 'ENXIO') {
    return { ok: false, reason: 'not-regular', detail: 'it is a socket or device, not a regular file' };
  }
  return { ok: false, ...describeFsFailure('open', error) };
}

/**
 * The one mapping from a failed per-entry file-system call (lstat, open, read) to a skip reason. Every errno
 * is a reason to skip that one entry, never to fail a run. The detail names the errno, not the error's
 * message, which would repeat the absolute path.
 */
export function describeFsFailure(
  syscall: string,
  error: unknown,
): { reason: 'vanished' | 'path-too-long' | 'unreadable'; detail: string } {
  const code = errorCode(error);
  // ENOTDIR: a parent folder was replaced by a file after the walk saw it.
  if (code === 'ENOENT' || code === 'ENOTDIR') return { reason: 'vanished', detail: 'it no longer exists' };
  if (code === 'ENAMETOOLONG') {
    return {
      reason: 'path-too-long',
      detail: 'its absolute path is longer than this system allows (ENAMETOOLONG)',
    };
  }
  return { reason: 'unreadable', detail: `${syscall} failed: ${errnoText(error)}` };
}

function describeFileType(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'directory';
  if (stat.isFIFO()) return 'FIFO (named pipe)';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  return 'special file';
}

/**
 * Decode bytes as strict UTF-8 text. A NUL byte anywhere means binary: the whole file is in memory already,
 * and a scan for one byte value costs far less than the decode, so there is no reason to sniff only a prefix.
 * Every reader of KB text (the indexer, get_document, .grooveignore) goes through this one check.
 */
export function decodeUtf8Text(bytes: Uint8Array): DecodedText {
  const nulAt = bytes.indexOf(0);
  if (nulAt !== -1) {
    return {
      ok: false,
      reason: 'binary',
      detail: `it contains a NUL byte at offset ${nulAt}, so it looks binary`,
    };
  }
  try {
    const text = strictUtf8.decode(bytes);
    const hadBom = bytes.length >= 3 && UTF8_BOM.equals(bytes.subarray(0, 3));
    return { ok: true, text, hadBom };
  } catch {
    const offset = findInvalidUtf8Offset(bytes);
    const where = offset === -1 ? '' : ` (first bad byte at offset ${offset})`;
    return { ok: false, reason: 'invalid-utf8', detail: `it is not valid UTF-8${where}` };
  }
}

/**
 * Offset of the first byte that starts an invalid UTF-8 sequence, or -1. Only run after the decoder failed,
 * because TextDecoder does not say where. Follows the well-formed table of Unicode §3.9 (no overlongs,
 * no surrogates, nothing above U+10FFFF).
 */
export function findInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b0 = bytes[i]!;
    if (b0 < 0x80) {
      i += 1;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) length = 2;
    else if (b0 >= 0xe0 && b0 <= 0xef) {
      length = 3;
      if (b0 === 0xe0) low = 0xa0;
      if (b0 === 0xed) high = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      length = 4;
      if (b0 === 0xf0) low = 0x90;
      if (b0 === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > n) return i;
    const b1 = bytes[i + 1]!;
    if (b1 < low || b1 > high) return i;
    for (let k = 2; k < length; k++) {
      const bk = bytes[i + k]!;
      if (bk < 0x80 || bk > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}

/** What the user can do about each skip reason. */
const SKIP_FIXES: Record<SkipReason, string | null> = {
  symlink: 'groove never follows symbolic links; move or copy the real file into the knowledge base',
  'hard-link':
    'groove refuses hard-linked files; give it its own copy, e.g. `cp file file.tmp && mv file.tmp file`',
  'not-regular': null,
  'too-large': 'raise [index] max_file_bytes',
  unreadable: 'check its permissions',
  'path-too-long': 'shorten its name or the names of the folders above it',
  vanished: 'it was deleted or moved during the run; the next run picks up its new state',
  binary: 'only text files are indexed',
  'invalid-utf8': 're-save it as UTF-8',
  unaddressable: 'rename it without control characters or empty, `.` or `..` segments',
};

/** The fix to suggest for a skip reason (null when there is nothing the user can do). */
export function skipFixFor(reason: SkipReason): string | null {
  return SKIP_FIXES[reason];
}

export interface SkipDescriptionOptions {
  /** Replaces the advice for `too-large`, for callers whose cap is not `[index] max_file_bytes`; null drops it. */
  capAdvice?: string | null;
}

/**
 * One warning line naming the file, what is wrong and the fix, e.g.
 * `skipped notes/big.md: file is 62914560 bytes, over the 52428800-byte cap (raise [index] max_file_bytes)`.
 */
export function describeSkipReason(
  relPath: string,
  skip: { reason: SkipReason; detail: string },
  options: SkipDescriptionOptions = {},
): string {
  const fix =
    skip.reason === 'too-large' && options.capAdvice !== undefined
      ? options.capAdvice
      : SKIP_FIXES[skip.reason];
  const shown = displayPath(relPath);
  return fix ? `skipped ${shown}: ${skip.detail} (${fix})` : `skipped ${shown}: ${skip.detail}`;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** `EACCES (permission denied)` from Node's `EACCES: permission denied, lstat '/abs/path'`; no path. */
export function errnoText(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === undefined) return message;
  const described = /^[A-Z0-9_]+: ([^,]*),/.exec(message)?.[1];
  return described ? `${code} (${described})` : code;
}
