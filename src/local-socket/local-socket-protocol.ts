// The local socket's protocol: one request and one reply per connection, each a single line of JSON ending in
// "\n". The request names the index identity and the config key the CLI resolved; the server answers only when
// both are its own, with the exact stdout and stderr the in-process command would print. Any other reply (a
// refusal, an error) tells the CLI to answer in-process, which then prints its own result or error.

export const LOCAL_PROTOCOL_VERSION = 1;
/** Neither side reads more than this before the newline: a request or reply this long is refused. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export type LocalOp = 'search' | 'status';

export interface LocalRequest {
  v: number;
  op: LocalOp;
  /** The resolved db path of the CLI's config (see indexIdentity). */
  identity: string;
  /** A hash of the CLI's resolved config (what the op reads of it): the server answers only when its own matches. */
  configKey: string;
  /** The command's arguments: the search request and --format; for status, --format. */
  body: Record<string, unknown>;
}

export type LocalReply =
  | { v: number; ok: true; stdout: string; stderr: string }
  | { v: number; ok: false; reason: string };

/** The request in a line, or null when it is not one. */
export function parseRequest(line: string): LocalRequest | null {
  const value = parseObject(line);
  if (value === null || value.v !== LOCAL_PROTOCOL_VERSION) return null;
  if (value.op !== 'search' && value.op !== 'status') return null;
  if (typeof value.identity !== 'string' || typeof value.configKey !== 'string') return null;
  if (value.body === null || typeof value.body !== 'object' || Array.isArray(value.body)) return null;
  return value as unknown as LocalRequest;
}

/** The reply in a line, or null when it is not one. */
export function parseReply(line: string): LocalReply | null {
  const value = parseObject(line);
  if (value === null || value.v !== LOCAL_PROTOCOL_VERSION) return null;
  if (value.ok === true && typeof value.stdout === 'string' && typeof value.stderr === 'string')
    return value as unknown as LocalReply;
  if (value.ok === false && typeof value.reason === 'string') return value as unknown as LocalReply;
  return null;
}

function parseObject(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Collects bytes up to the first newline; `line` is null until one arrives, or if the limit is passed first. */
export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;
  tooLong = false;

  /** Add bytes; returns the line (without its newline) once complete. */
  push(chunk: Buffer): string | null {
    const end = chunk.indexOf(0x0a);
    const part = end === -1 ? chunk : chunk.subarray(0, end);
    this.size += part.length;
    if (this.size > MAX_LINE_BYTES) {
      this.tooLong = true;
      return null;
    }
    this.chunks.push(part);
    return end === -1 ? null : Buffer.concat(this.chunks).toString('utf8');
  }
}
