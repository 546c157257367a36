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
  'INDEX_BUSY',
  'WRITER_ROLE_LOST',
  'INVALID_ARGUMENT',
  'QUERY_INVALID',
  'DOCUMENT_NOT_FOUND',
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

/** Codes that mean the request itself asked for something impossible (CLI exit 2, HTTP 400), not a failure. */
const USAGE_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
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
 * Errno and SQLite codes that mean the disk (or quota, or file-size limit) has no room for the write. SHMSIZE:
 * SQLite could not grow `<db>-shm`, which every connection needs, so even a search hits it on a full disk.
 */
const NO_ROOM = new Set(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC', 'EDQUOT', 'EFBIG']);
/** Codes that mean the folder or file may not be written (read-only mount, permissions). */
const NOT_WRITABLE = /^(SQLITE_READONLY(_.*)?|SQLITE_CANTOPEN|SQLITE_PERM|EROFS|EACCES|EPERM)$/;

/**
 * A write to the index that failed for lack of room or permission, as a GrooveError naming where the index
 * lives; null for any other error. Index writes are transactions, so a failed one leaves the index as it was.
 */
export function storageFailure(cause: unknown, dbPath: string): GrooveError | null {
  if (cause instanceof GrooveError || !(cause instanceof Error)) return null;
  const code = (cause as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return null;
  const folder = path.dirname(dbPath);
  if (NO_ROOM.has(code)) {
    return new GrooveError('STORAGE_FULL', `no room to write the index "${dbPath}" (${code})`, {
      cause,
      hint: `free space on the disk holding "${folder}" (or pass --db-path on another disk) and run again; nothing was lost: the index keeps everything it held before this write`,
    });
  }
  if (NOT_WRITABLE.test(code)) {
    return new GrooveError('STORAGE_DENIED', `cannot write the index "${dbPath}" (${code})`, {
      cause,
      hint: `make "${folder}" writable, or pass --db-path in a folder you can write`,
    });
  }
  return null;
}
