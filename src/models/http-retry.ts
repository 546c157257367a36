// POSTs JSON to an embedding endpoint with bounded retries: 429, 5xx, timeouts and connection failures are
// retried with exponential backoff (honouring Retry-After); 400/413/422 come back as data; other statuses stop.
// Messages never contain request headers (the API key) or response bodies (which may echo it).

import { GrooveError } from '../errors.js';

export interface PostJsonOptions {
  url: string;
  body: unknown;
  /** Extra headers (e.g. Authorization). Never included in any message. */
  headers?: Record<string, string>;
  /** Per attempt, covering connect, upload and the whole response body. */
  timeoutMs: number;
  /** Retries after the first attempt. 0 – 10. */
  maxRetries: number;
  /** First backoff step; doubles per retry. Default 1000 ms. */
  baseDelayMs?: number;
  /** Cap for a backoff step and for Retry-After. Default 60 000 ms. */
  maxDelayMs?: number;
  /** Responses larger than this are refused. Default 64 MiB. */
  maxResponseBytes?: number;
  /** Injectable for tests of the schedule; defaults to setTimeout and Math.random. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** A 2xx JSON body, or an input the server refused (400/413/422) — the caller decides what that means. */
export type PostJsonResult =
  | { kind: 'ok'; json: unknown; attempts: number }
  | { kind: 'rejected'; status: number };

const REJECTED_INPUT = new Set([400, 413, 422]);

/** Scheme, host and path only: no credentials or query string, which may carry secrets. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. Null when absent or unparseable. */
export function parseRetryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** Backoff before retry `retry` (0-based): base·2^retry capped, plus up to 25% jitter. */
export function computeBackoffMs(retry: number, baseMs: number, maxMs: number, random: () => number): number {
  const step = Math.min(maxMs, baseMs * 2 ** retry);
  return Math.round(step * (1 + 0.25 * random()));
}

async function readBodyCapped(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new RangeError(`response larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function statusHint(status: number): string {
  if (status === 401 || status === 403) return 'check [embedding] api_key or GROOVE_EMBEDDING_API_KEY';
  if (status === 404)
    return 'check [embedding] endpoint (the full /v1/embeddings or /api/embed URL) and model';
  if (status >= 300 && status < 400)
    return 'redirects are not followed; set [embedding] endpoint to the final URL';
  return 'check the embedding server and its logs';
}

type Attempt =
  | { kind: 'done'; result: PostJsonResult }
  | { kind: 'retry'; reason: string; waitMs: number | null };

async function attemptOnce(options: PostJsonOptions, where: string): Promise<Attempt> {
  let response: Response;
  try {
    response = await fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      kind: 'retry',
      reason: timedOut ? `timed out after ${options.timeoutMs} ms` : 'connection failed',
      waitMs: null,
    };
  }
  const { status } = response;
  if (status === 429 || status >= 500) {
    await response.body?.cancel();
    return {
      kind: 'retry',
      reason: `HTTP ${status}`,
      waitMs: parseRetryAfterMs(response.headers.get('retry-after'), Date.now()),
    };
  }
  if (REJECTED_INPUT.has(status)) {
    await response.body?.cancel();
    return { kind: 'done', result: { kind: 'rejected', status } };
  }
  if (status < 200 || status >= 300) {
    await response.body?.cancel();
    throw new GrooveError(
      'ENDPOINT_FAILED',
      `Embedding endpoint "${where}" answered HTTP ${status}; not retrying.`,
      {
        hint: statusHint(status),
      },
    );
  }
  let text: string;
  try {
    text = await readBodyCapped(response, options.maxResponseBytes ?? 64 * 1024 * 1024);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new GrooveError('ENDPOINT_FAILED', `Embedding endpoint "${where}" sent a ${error.message}.`);
    }
    return { kind: 'retry', reason: 'the response was cut off or timed out', waitMs: null };
  }
  try {
    return { kind: 'done', result: { kind: 'ok', json: JSON.parse(text), attempts: 0 } };
  } catch {
    throw new GrooveError(
      'ENDPOINT_FAILED',
      `Embedding endpoint "${where}" answered HTTP ${status} with a body that is not JSON.`,
      {
        hint: 'check that [embedding] endpoint points at the embeddings API, not a web page or proxy',
      },
    );
  }
}

/** POST `body` as JSON and parse the JSON answer, retrying transient failures. */
export async function postJsonWithRetry(options: PostJsonOptions): Promise<PostJsonResult> {
  const where = redactUrl(options.url);
  const baseMs = options.baseDelayMs ?? 1000;
  const maxMs = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  let lastReason = '';
  for (let attempt = 0; attempt <= options.maxRetries; attempt++) {
    const outcome = await attemptOnce(options, where);
    if (outcome.kind === 'done') {
      return outcome.result.kind === 'ok' ? { ...outcome.result, attempts: attempt + 1 } : outcome.result;
    }
    lastReason = outcome.reason;
    if (attempt === options.maxRetries) break;
    const wait =
      outcome.waitMs === null
        ? computeBackoffMs(attempt, baseMs, maxMs, random)
        : Math.min(outcome.waitMs, maxMs);
    await sleep(wait);
  }
  throw new GrooveError(
    'ENDPOINT_FAILED',
    `Embedding endpoint "${where}" failed after ${options.maxRetries + 1} attempts (last: ${lastReason}).`,
    {
      hint: 'check that the embedding server is running and reachable; [embedding] max_retries and timeout_seconds tune the patience',
    },
  );
}
