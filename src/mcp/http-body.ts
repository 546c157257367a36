// Reading one request body for the HTTP front gate: bounded size, strict UTF-8, JSON. Every way a body can be bad
// becomes a value, never a thrown error, so each has one defined answer and none logs a stack.
import type http from 'node:http';

/** Bytes of an oversized body read and thrown away so the client sees the 413; past this the socket is cut. */
const MAX_DISCARD_BYTES = 16 * 1024 * 1024;

export type BodyOutcome =
  | { kind: 'json'; message: unknown }
  | { kind: 'too-large' }
  | { kind: 'aborted' }
  | { kind: 'not-utf8' }
  | { kind: 'not-json' };

/**
 * Read, decode and parse the body of `req`; an oversized one is drained (bounded) so the 413 can be read.
 * `onAccepted` runs once the declared size is within the cap, before any byte is read (the place to send
 * `100 Continue`): a body declared too large is refused without inviting the client to send it.
 */
export async function readJsonBody(
  req: http.IncomingMessage,
  maxBytes: number,
  onAccepted: () => void = () => {},
): Promise<BodyOutcome> {
  const raw = await readRawBody(req, maxBytes, onAccepted);
  if (!Buffer.isBuffer(raw)) return raw;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return { kind: 'not-utf8' };
  }
  try {
    return { kind: 'json', message: JSON.parse(text) };
  } catch {
    return { kind: 'not-json' };
  }
}

type RawBody = Buffer | { kind: 'too-large' } | { kind: 'aborted' };

function readRawBody(req: http.IncomingMessage, maxBytes: number, onAccepted: () => void): Promise<RawBody> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let received = 0;
    let tooLarge = Number.isFinite(declared) && declared > maxBytes;
    let settled = false;
    const settle = (outcome: RawBody) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    if (tooLarge) settle({ kind: 'too-large' });
    else onAccepted();
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_DISCARD_BYTES) req.destroy();
      if (tooLarge) return;
      if (received > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
        settle({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle(tooLarge ? { kind: 'too-large' } : Buffer.concat(chunks)));
    // A client that goes away mid-upload: there is nobody left to answer.
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => {
      if (!req.complete) settle({ kind: 'aborted' });
    });
  });
}
