// The one error class groove throws, with a catalog of codes. Messages say what failed, why, and how to fix it.
import { displayLine } from './core/display-path.js';

/** Every error code groove can raise. Keep this list sorted by area; docs/errors.md documents each. */
export const ERROR_CODES = [
  'CONFIG_NOT_FOUND',
  'CONFIG_INVALID',
  'KB_PATH_MISSING',
  'KB_NOT_FOUND',
  'KB_UNREADABLE',
  'IGNORE_FILE_UNUSABLE',
  'DB_CORRUPT',
  'DB_OPEN_FAILED',
  'INDEX_NOT_FOUND',
  'INDEX_MISMATCH',
  'INDEX_BUSY',
  'INVALID_ARGUMENT',
  'QUERY_INVALID',
  'FILE_REFUSED',
  'FILE_WRITE_FAILED',
  'MODEL_UNKNOWN',
  'MODEL_UNAVAILABLE',
  'MODEL_CORRUPT',
  'EMBEDDING_FAILED',
  'ENDPOINT_FAILED',
  'RERANK_FAILED',
  'GOLDEN_NOT_FOUND',
  'GOLDEN_INVALID',
  'HISTORY_INVALID',
  'GOLDEN_STALE',
  'COMPONENT_DOWN',
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

/** Describe any thrown value in one line without a stack trace (controls in it escaped, like a path). */
export function describeError(value: unknown): string {
  if (value instanceof GrooveError) return value.toLine();
  return displayLine(value instanceof Error ? value.message : String(value));
}
