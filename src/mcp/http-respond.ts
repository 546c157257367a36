// Writing answers and reading headers for the HTTP routes: JSON bodies that are never cached or sniffed,
// JSON-RPC error envelopes (what the front gate and /mcp refuse with), and client text made safe for a log line.
import type http from 'node:http';
import { displayLine } from '../app/index.js';

export function sendJson(
  res: http.ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(body);
}

export function sendJsonRpcError(
  res: http.ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

/** The first value of a request header (Node joins or lists repeats), or undefined. */
export function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Client-sent text made safe for one log or message line: escaped like a path, length bounded. */
export function printable(text: string): string {
  const escaped = displayLine(text);
  return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
}

/** The request target's path as sent (before `?`), unparsed: enough to route before the target is checked. */
export function rawPathOf(req: http.IncomingMessage): string {
  const target = req.url ?? '/';
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}
