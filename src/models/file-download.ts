// Downloading one pinned file: into a temporary file next to it, resumed with HTTP Range after a broken
// connection, verified by size and SHA-256, and renamed into place only when both match.
// Rules:
// - a transient failure (network, timeout, 408/429/5xx) is retried after an exponential backoff (Retry-After
//   honoured); an attempt that brought at least PROGRESS_BYTES resets the count, so `maxRetries` bounds the
//   failures in a row without real progress (a server trickling a few bytes per attempt included), and no file
//   takes more than MAX_ATTEMPTS attempts;
// - a retry asks for the bytes it lacks (`Range: bytes=<have>-`); a server that answers 200 instead, or resumes
//   at another offset, is read again from the start;
// - more bytes than pinned, an announced size other than the pin, or other bytes (SHA-256) is a PinMismatchError,
//   never retried; the temporary file is removed and nothing is renamed;
// - 401, 403, 404 and other statuses stop at once (HubStatusError).
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GrooveError } from '../errors.js';
import { tempPathFor, trackTempFile } from './download-temp-files.js';
import { computeBackoffMs, parseRetryAfterMs } from './http-retry.js';
import { type HubGetOptions, hubGet, TransientHubError } from './hub-request.js';
import type { PinnedFile } from './model-pins.js';

const MAX_ATTEMPTS = 100;
const PROGRESS_BYTES = 1 << 20;
const MAX_BACKOFF_MS = 30_000;

/** The hub sent something other than the pinned file. `detail` says what differed. */
export class PinMismatchError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'PinMismatchError';
  }
}

/** The hub answered with a status that another attempt will not change. */
export class HubStatusError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
    this.name = 'HubStatusError';
  }
}

export interface FileDownloadOptions {
  url: URL;
  /** Final path; its folder is created. */
  dest: string;
  pin: PinnedFile;
  request: Omit<HubGetOptions, 'signal' | 'headers'>;
  maxRetries: number;
  retryBaseMs: number;
  onProgress?: (loadedBytes: number) => void;
  onRetry?: (reason: string, delayMs: number) => void;
}

interface Progress {
  handle: fs.promises.FileHandle;
  hash: crypto.Hash;
  received: number;
}

async function restart(state: Progress): Promise<void> {
  await state.handle.truncate(0);
  state.hash = crypto.createHash('sha256');
  state.received = 0;
}

/** Check the status and headers of a response to a request for the bytes from `state.received` on. */
async function acceptResponse(response: IncomingMessage, state: Progress, pin: PinnedFile): Promise<void> {
  const status = response.statusCode ?? 0;
  if (status === 206 && state.received > 0) {
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers['content-range'] ?? '');
    if (range && range[2] !== '*' && Number(range[2]) !== pin.size) {
      throw new PinMismatchError(`the hub announced ${range[2]} bytes, the pin says ${pin.size}`);
    }
    if (range && Number(range[1]) === state.received) return;
    await restart(state);
    throw new TransientHubError('the hub resumed at another offset than asked for');
  }
  if (status === 200) {
    if (state.received > 0) await restart(state);
    const length = response.headers['content-length'];
    if (length !== undefined && Number(length) !== pin.size) {
      throw new PinMismatchError(`the hub announced ${length} bytes, the pin says ${pin.size}`);
    }
    return;
  }
  if (status === 416) {
    await restart(state);
    throw new TransientHubError('the hub could not serve the rest of the file (HTTP 416)');
  }
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfter = response.headers['retry-after'];
    throw new TransientHubError(`the hub answered HTTP ${status}`, {
      retryAfterMs: parseRetryAfterMs(typeof retryAfter === 'string' ? retryAfter : null, Date.now()),
    });
  }
  throw new HubStatusError(status);
}

/** One attempt: request the missing bytes and append them, hashing as they are written. */
async function attempt(options: FileDownloadOptions, state: Progress, signal: AbortSignal): Promise<void> {
  const { pin } = options;
  const headers: Record<string, string> = state.received > 0 ? { range: `bytes=${state.received}-` } : {};
  const { response } = await hubGet(options.url, { ...options.request, headers, signal });
  try {
    await acceptResponse(response, state, pin);
    for await (const chunk of response as AsyncIterable<Buffer>) {
      if (state.received + chunk.length > pin.size) {
        throw new PinMismatchError(`the hub sent more than the pinned ${pin.size} bytes`);
      }
      await state.handle.write(chunk, 0, chunk.length, state.received);
      state.hash.update(chunk);
      state.received += chunk.length;
      options.onProgress?.(state.received);
    }
  } catch (error) {
    response.destroy();
    if (error instanceof PinMismatchError || error instanceof HubStatusError) throw error;
    if (error instanceof TransientHubError || signal.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new TransientHubError(`the connection broke after ${state.received} bytes (${reason})`, {
      cause: error,
    });
  }
  if (state.received < pin.size) {
    throw new TransientHubError(`the connection closed after ${state.received} of ${pin.size} bytes`);
  }
}

/** Attempts until the file is complete, or a failure that must not be retried, or the retries run out. */
async function fetchAll(options: FileDownloadOptions, state: Progress, signal: AbortSignal): Promise<void> {
  let failuresInARow = 0;
  for (let attempts = 1; ; attempts++) {
    const before = state.received;
    try {
      await attempt(options, state, signal);
      return;
    } catch (error) {
      if (!(error instanceof TransientHubError) || signal.aborted) throw error;
      failuresInARow = state.received - before >= PROGRESS_BYTES ? 1 : failuresInARow + 1;
      if (failuresInARow > options.maxRetries || attempts >= MAX_ATTEMPTS) {
        throw new Error(`gave up after ${attempts} attempts: ${error.message}`);
      }
      const delay =
        error.retryAfterMs === null
          ? computeBackoffMs(failuresInARow - 1, options.retryBaseMs, MAX_BACKOFF_MS, Math.random)
          : Math.min(error.retryAfterMs, MAX_BACKOFF_MS);
      options.onRetry?.(error.message, delay);
      await sleep(delay, undefined, { signal });
    }
  }
}

/** Download `url` to `dest`, verified against `pin`; resolves with the SHA-256 once the file is in place. */
export async function downloadPinnedFile(options: FileDownloadOptions): Promise<string> {
  const { dest, pin } = options;
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const temp = tempPathFor(dest);
  const controller = new AbortController();
  const release = trackTempFile(temp, () => controller.abort());
  const state: Progress = {
    handle: await fs.promises.open(temp, 'w'),
    hash: crypto.createHash('sha256'),
    received: 0,
  };
  try {
    await fetchAll(options, state, controller.signal);
    const sha256 = state.hash.digest('hex');
    if (sha256 !== pin.sha256)
      throw new PinMismatchError(`its SHA-256 is ${sha256}, the pin says ${pin.sha256}`);
    await state.handle.sync();
    await state.handle.close();
    fs.renameSync(temp, dest);
    return sha256;
  } catch (error) {
    await state.handle.close().catch(() => undefined);
    fs.rmSync(temp, { force: true });
    if (controller.signal.aborted)
      throw new GrooveError('MODEL_UNAVAILABLE', 'The download was interrupted.');
    throw error;
  } finally {
    release();
  }
}
