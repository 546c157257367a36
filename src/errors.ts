// The one error class groove throws, with a catalog of codes. Messages say what failed, why, and how to fix it.
import path from 'node:path';
import { displayLine } from './core/display-path.js';

/** Every error code groove can raise. Keep this list sorted by area; docs/errors.md documents each. */
export const ERROR_CODES = [
  'CONFIG_NOT_FOUND',
  'CONFIG_INVALID',
  'KB_PATH_MISSING',
  'KB_NOT_FOUND',
  'KB_UNREADABLE',
  'KB_UNKNOWN',
  'KB_CONFLICT',
  'KB_REGISTRY_INVALID',
  'IGNORE_FILE_UNUSABLE',
  'SCHEMA_NOT_FOUND',
  'SCHEMA_INVALID',
  'DB_CORRUPT',
  'DB_OPEN_FAILED',
  'DB_NOT_INDEX',
  'STORAGE_FULL',
  'STORAGE_DENIED',
  'STORAGE_UNREACHABLE',
  'STORAGE_EXTENSION_MISSING',
  'STORAGE_UNSUPPORTED',
  'INDEX_NOT_FOUND',
  'INDEX_MISMATCH',
  'INDEX_OTHER_KB',
  'SETTINGS_WOULD_DROP',
  'INDEX_BUSY',
  'WRITER_ROLE_LOST',
  'INVALID_ARGUMENT',
  'QUERY_INVALID',
  'DOCUMENT_NOT_FOUND',
  'FEEDBACK_RATE_LIMITED',
  'FEEDBACK_FULL',
  'VECTORS_MISSING',
  'FILE_REFUSED',
  'FILE_WRITE_FAILED',
  'FILE_BUSY',
  'MODEL_UNKNOWN',
  'MODEL_UNAVAILABLE',
  'MODEL_CORRUPT',
  'MODEL_POOLING_UNKNOWN',
  'MODEL_CHECKSUM',
  'EMBEDDING_FAILED',
  'ENDPOINT_FAILED',
  'RERANK_FAILED',
  'GOLDEN_NOT_FOUND',
  'GOLDEN_INVALID',
  'HISTORY_INVALID',
  'GOLDEN_STALE',
  'COMPONENT_DOWN',
  'SERVICE_FAILED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface GrooveErrorOptions {
  /** How the user can fix it: a command, a flag or a config key. */
  hint?: string;
  cause?: unknown;
}

export class GrooveError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: GrooveErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GrooveError';
    this.code = code;
    this.hint = options.hint;
  }

  /** One line for a terminal: the message, then the hint when there is one; quoted paths are escaped. */
  toLine(): string {
    return displayLine(this.hint ? `${this.message} (${this.hint})` : this.message);
  }
}

export function isGrooveError(value: unknown): value is GrooveError {
  return value instanceof GrooveError;
}

/**
 * Codes that mean the request itself, or the configuration it runs with, asked for something impossible (CLI
 * exit 2, HTTP 400), not a failure.
 */
const USAGE_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'CONFIG_INVALID',
  'INVALID_ARGUMENT',
  'QUERY_INVALID',
  'MODEL_UNKNOWN',
  'MODEL_POOLING_UNKNOWN',
  'KB_UNKNOWN',
  'KB_CONFLICT',
]);

/** True for a GrooveError whose code is a usage error (see USAGE_ERROR_CODES). */
export function isUsageError(value: unknown): value is GrooveError {
  return value instanceof GrooveError && USAGE_ERROR_CODES.has(value.code);
}

/** Describe any thrown value in one line without a stack trace (controls in it escaped, like a path). */
export function describeError(value: unknown): string {
  if (value instanceof GrooveError) return value.toLine();
  return displayLine(value instanceof Error ? value.message : String(value));
}

/**
 * Errno and SQLite codes that mean the disk (or quota, or file-size limit) has no room for the write, in groove's
 * words. SHMSIZE: SQLite could not grow `<db>-shm`, which every connection needs, so even a search hits it.
 */
const NO_ROOM: ReadonlyMap<string, string> = new Map([
  ['SQLITE_FULL', 'the disk is full'],
  ['ENOSPC', 'the disk is full'],
  ['SQLITE_IOERR_SHMSIZE', "the disk has no room left for the index's shared-memory file"],
  ['EDQUOT', 'your disk quota is used up'],
  ['EFBIG', 'the file would grow past the size limit for files'],
]);
/** Codes that mean the folder or file may not be written (read-only mount, permissions), in groove's words. */
function notWritableReason(code: string): string | null {
  if (code === 'EROFS') return 'the disk is mounted read-only';
  if (code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_PERM') return 'permission denied';
  if (/^SQLITE_READONLY(_.*)?$/.test(code)) return 'the file or its folder is read-only';
  if (code === 'SQLITE_CANTOPEN') return 'the file cannot be opened for writing';
  return null;
}

/**
 * The low-level code and message behind an error (an errno or SQLite code), for `GROOVE_DEBUG` output; null when
 * there is none (controls escaped, like a path). Messages carry groove's words only.
 */
export function underlyingCause(error: unknown): string | null {
  const cause = error instanceof GrooveError ? error.cause : undefined;
  if (!(cause instanceof Error)) return null;
  const code = (cause as NodeJS.ErrnoException).code;
  return displayLine(typeof code === 'string' ? `${code}: ${cause.message}` : cause.message);
}

/**
 * A write to the index that failed for lack of room or permission, as a GrooveError naming where the index
 * lives; null for any other error. Index writes are transactions, so a failed one leaves the index as it was.
 */
export function storageFailure(cause: unknown, dbPath: string): GrooveError | null {
  if (cause instanceof GrooveError || !(cause instanceof Error)) return null;
  const code = (cause as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return null;
  const folder = path.dirname(dbPath);
  const noRoom = NO_ROOM.get(code);
  if (noRoom !== undefined) {
    return new GrooveError('STORAGE_FULL', `no room to write the index "${dbPath}": ${noRoom}`, {
      cause,
      hint: `free space on the disk holding "${folder}" (or pass --db-path on another disk) and run again; nothing was lost: the index keeps everything it held before this write`,
    });
  }
  const notWritable = notWritableReason(code);
  if (notWritable !== null) {
    return new GrooveError('STORAGE_DENIED', `cannot write the index "${dbPath}": ${notWritable}`, {
      cause,
      hint: `make "${folder}" writable, or pass --db-path in a folder you can write`,
    });
  }
  return null;
}
