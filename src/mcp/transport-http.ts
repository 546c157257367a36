// MCP over Streamable HTTP on node:http: `/mcp` (sessions), `/healthz`. One gate in front of every route: Host
// and Origin allow-lists (DNS rebinding), the optional bearer token, a 1 MiB body cap and a session cap.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  defaultAllowedHosts,
  defaultAllowedOrigins,
  isHostAllowed,
  isOriginAllowed,
  isTokenAccepted,
} from './http-guard.js';
import { SessionTable } from './http-sessions.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Bytes of an oversized body read and thrown away so the client sees the 413; past this the socket is cut. */
const MAX_DISCARD_BYTES = 16 * 1024 * 1024;

export interface HttpServeOptions {
  createServer: () => McpServer;
  bind: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Empty: the loopback names plus a specific bind address. */
  allowedHosts: readonly string[];
  /** Empty: the loopback origins on the served port. */
  allowedOrigins: readonly string[];
  token: string | null;
  /** 0 = no cap. */
  maxSessions: number;
  /** `/healthz` skips the Host/Origin/token gate. */
  healthzPublic: boolean;
  /** Default 30 minutes. */
  sessionIdleMs?: number;
  /** Seconds a client is told to wait when the session table is full. Default 30. */
  retryAfterSeconds?: number;
  /** Extra facts for `/healthz` (index and watcher state). */
  health?: () => Record<string, unknown>;
  log: (line: string) => void;
}

export interface HttpServing {
  url: string;
  port: number;
  close(): Promise<void>;
}

type BodyRead = { ok: true; text: string } | { ok: false };

/** Listen and serve until `close()`. */
export async function serveHttp(options: HttpServeOptions): Promise<HttpServing> {
  const { log } = options;
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
  const sessions = new SessionTable({
    createServer: options.createServer,
    maxSessions: options.maxSessions,
    idleMs: sessionIdleMs,
    log,
  });
  let allowedHosts = [...options.allowedHosts];
  let allowedOrigins = [...options.allowedOrigins];

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const pathname = new URL(req.url ?? '/', 'http://groove.invalid').pathname;
    if (pathname === '/healthz' && options.healthzPublic) return sendHealth(res);
    const refusal = checkGate(req, { allowedHosts, allowedOrigins, token: options.token });
    if (refusal) return sendJsonRpcError(res, refusal.status, refusal.message, refusal.headers);
    if (pathname === '/healthz') return sendHealth(res);
    if (pathname !== '/mcp')
      return sendJsonRpcError(res, 404, `no route "${pathname}"; the MCP endpoint is /mcp`);
    const sessionId = headerValue(req, 'mcp-session-id');
    if (req.method === 'POST') return handlePost(req, res, sessionId);
    if (req.method === 'GET' || req.method === 'DELETE') {
      const session = sessionId ? sessions.find(sessionId) : undefined;
      if (!session) return sendUnknownSession(res, sessionId);
      return session.transport.handleRequest(req, res);
    }
    return sendJsonRpcError(res, 405, `method ${req.method} is not allowed on /mcp`, {
      Allow: 'GET, POST, DELETE',
    });
  };

  const handlePost = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    sessionId: string | undefined,
  ) => {
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body.ok) {
      return sendJsonRpcError(
        res,
        413,
        `request body over ${MAX_BODY_BYTES} bytes (1 MiB); send smaller requests`,
        {
          Connection: 'close',
        },
      );
    }
    let message: unknown;
    try {
      message = JSON.parse(body.text);
    } catch {
      return sendJsonRpcError(res, 400, 'Parse error: the request body is not valid JSON', {}, -32700);
    }
    if (sessionId) {
      const session = sessions.find(sessionId);
      if (!session) return sendUnknownSession(res, sessionId);
      return session.transport.handleRequest(req, res, message);
    }
    const initializing = Array.isArray(message)
      ? message.some(isInitializeRequest)
      : isInitializeRequest(message);
    if (!initializing) {
      return sendJsonRpcError(
        res,
        400,
        'no mcp-session-id header: send an initialize request first, then its id',
      );
    }
    if (!sessions.hasRoom()) {
      const retryAfter = options.retryAfterSeconds ?? 30;
      log(`http: session cap (${options.maxSessions}) reached; refusing a new session`);
      return sendJsonRpcError(
        res,
        429,
        `too many sessions (max_sessions ${options.maxSessions}); retry in ${retryAfter} s, or close idle clients`,
        { 'Retry-After': String(retryAfter) },
      );
    }
    await sessions.open((transport) => transport.handleRequest(req, res, message));
  };

  const sendHealth = (res: http.ServerResponse) =>
    sendJson(res, 200, { status: 'ok', sessions: sessions.size, ...(options.health?.() ?? {}) });

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`http: ${req.method} ${req.url} failed: ${(error as Error)?.stack ?? String(error)}`);
      if (!res.headersSent) sendJsonRpcError(res, 500, 'internal error; see the server log', {}, -32603);
      else res.destroy();
    });
  });
  httpServer.on('clientError', (error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    log(`http: bad request from a client: ${error.message}`);
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.bind, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;
  if (allowedHosts.length === 0) allowedHosts = defaultAllowedHosts(options.bind);
  if (allowedOrigins.length === 0) allowedOrigins = defaultAllowedOrigins(port);
  const sweeper = setInterval(() => void sessions.evictIdle(), Math.min(sessionIdleMs, 60_000));
  sweeper.unref();
  const host = options.bind.includes(':') ? `[${options.bind}]` : options.bind;
  return {
    url: `http://${host}:${port}/mcp`,
    port,
    async close() {
      clearInterval(sweeper);
      await sessions.closeAll();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

interface GateRefusal {
  status: number;
  message: string;
  headers: Record<string, string>;
}

function checkGate(
  req: http.IncomingMessage,
  lists: { allowedHosts: readonly string[]; allowedOrigins: readonly string[]; token: string | null },
): GateRefusal | null {
  const host = headerValue(req, 'host');
  if (!isHostAllowed(host, lists.allowedHosts)) {
    return {
      status: 403,
      message: `Forbidden: Host "${host ?? ''}" is not allowed (DNS-rebinding guard); connect through localhost, or add the name to [transport.http] allowed_hosts`,
      headers: {},
    };
  }
  const origin = headerValue(req, 'origin');
  if (!isOriginAllowed(origin, lists.allowedOrigins)) {
    return {
      status: 403,
      message: `Forbidden: Origin "${origin}" is not allowed; add it to [transport.http] allowed_origins`,
      headers: {},
    };
  }
  if (!isTokenAccepted(headerValue(req, 'authorization'), lists.token)) {
    return {
      status: 401,
      message:
        'Unauthorized: send "Authorization: Bearer <token>" with the token from GROOVE_HTTP_TOKEN or [transport.http] token',
      headers: { 'WWW-Authenticate': 'Bearer realm="groove"' },
    };
  }
  return null;
}

/** Read the body up to `maxBytes`; an oversized one is drained (bounded) so the 413 can be read by the client. */
function readBody(req: http.IncomingMessage, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let received = 0;
    let tooLarge = Number.isFinite(declared) && declared > maxBytes;
    if (tooLarge) resolve({ ok: false });
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_DISCARD_BYTES) req.destroy();
      if (tooLarge) return;
      if (received > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
        resolve({ ok: false });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!tooLarge) resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', reject);
  });
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendUnknownSession(res: http.ServerResponse, sessionId: string | undefined): void {
  if (sessionId) {
    const message = 'Session not found: it expired or the server restarted; initialize a new session';
    sendJsonRpcError(res, 404, message, {}, -32001);
  } else {
    sendJsonRpcError(res, 400, 'no mcp-session-id header: send an initialize request first, then its id');
  }
}

function sendJsonRpcError(
  res: http.ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

function sendJson(
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
