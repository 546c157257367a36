// MCP over Streamable HTTP on node:http: `/mcp` (sessions), `/healthz`, and any extra routes (the status page).
// One front gate in front of every route: Host and Origin allow-lists (DNS rebinding) and the optional bearer
// token first, then the request target, then (POST) the Content-Type, a 1 MiB body cap with strict UTF-8 and
// JSON, then the session cap.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../errors.js';
import { readJsonBody } from './http-body.js';
import {
  defaultAllowedHosts,
  defaultAllowedOrigins,
  isHostAllowed,
  isJsonContentType,
  isOriginAllowed,
  isTokenAccepted,
  requestPathOf,
} from './http-guard.js';
import { headerValue, printable, rawPathOf, sendJson, sendJsonRpcError } from './http-respond.js';
import { SessionTable } from './http-sessions.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Parser and socket errors that only mean the client went away before its request was complete. */
const CLIENT_GONE_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ERR_HTTP_REQUEST_TIMEOUT',
  'HPE_INVALID_EOF_STATE',
]);

/** Routes served beside `/mcp` (the status page), behind the same front gate. */
export interface HttpExtraRoutes {
  /** Paths (as sent, before `?`) served without the token: pages that carry no knowledge-base data. */
  isTokenFree(rawPath: string): boolean;
  /** Answer the request and return true, or return false when `pathname` is not one of these routes. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<boolean>;
  /** Named in the 404 for an unknown path, e.g. `the status page is /ui`. */
  describe: string;
}

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
  extraRoutes?: HttpExtraRoutes;
  log: (line: string) => void;
}

export interface HttpServing {
  url: string;
  port: number;
  close(): Promise<void>;
}

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
  const extra = options.extraRoutes;

  // The front gate: every request passes here first, in this order — Host/Origin/token, then the request target,
  // then (POST) the Content-Type and the body — so nothing parses attacker-controlled input before the guards
  // have run. Requests sent with `Expect: 100-continue` come here too; the 100 goes out only before the body read.
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (options.healthzPublic && rawPathOf(req) === '/healthz') return sendHealth(res);
    // A page without knowledge-base data loads without the token (a browser cannot send one on navigation);
    // Host and Origin are checked all the same, and everything the page fetches needs the token.
    const tokenFree = extra?.isTokenFree(rawPathOf(req)) ?? false;
    const token = tokenFree ? null : options.token;
    const refusal = checkGate(req, { allowedHosts, allowedOrigins, token });
    if (refusal) return sendJsonRpcError(res, refusal.status, refusal.message, refusal.headers);
    const pathname = requestPathOf(req.url ?? '');
    if (pathname === null)
      return sendJsonRpcError(res, 400, 'Bad request: the request target is not a valid URL path');
    if (pathname === '/healthz') return sendHealth(res);
    if (pathname !== '/mcp') {
      if (extra && (await extra.handle(req, res, pathname))) return;
      const others = extra ? `; ${extra.describe}` : '';
      return sendJsonRpcError(
        res,
        404,
        `no route "${printable(pathname)}"; the MCP endpoint is /mcp${others}`,
      );
    }
    const sessionId = headerValue(req, 'mcp-session-id');
    if (req.method === 'POST') return handlePost(req, res, sessionId);
    if (req.method === 'GET' || req.method === 'DELETE') {
      const session = sessionId ? sessions.find(sessionId) : undefined;
      if (!session) return sendUnknownSession(res, sessionId);
      return session.transport.handleRequest(req, res);
    }
    return sendJsonRpcError(res, 405, `method ${printable(req.method ?? '')} is not allowed on /mcp`, {
      Allow: 'GET, POST, DELETE',
    });
  };

  const handlePost = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    sessionId: string | undefined,
  ) => {
    if (!isJsonContentType(headerValue(req, 'content-type'))) {
      const message = 'Unsupported Media Type: Content-Type must be application/json (UTF-8)';
      return sendJsonRpcError(res, 415, message);
    }
    const body = await readJsonBody(req, MAX_BODY_BYTES, () => {
      if (expectsContinue(req)) res.writeContinue();
    });
    if (body.kind === 'aborted') return; // the client is gone: nobody to answer, nothing worth a log line
    if (body.kind === 'too-large') {
      return sendJsonRpcError(
        res,
        413,
        `request body over ${MAX_BODY_BYTES} bytes (1 MiB); send smaller requests`,
        { Connection: 'close' },
      );
    }
    if (body.kind === 'not-utf8')
      return sendJsonRpcError(res, 400, 'Parse error: the request body is not valid UTF-8', {}, -32700);
    if (body.kind === 'not-json')
      return sendJsonRpcError(res, 400, 'Parse error: the request body is not valid JSON', {}, -32700);
    const message = body.message;
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

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      log(
        `http: ${printable(req.method ?? '')} ${printable(rawPathOf(req))} failed: ${describeError(error)}`,
      );
      if (!res.headersSent) sendJsonRpcError(res, 500, 'internal error; see the server log', {}, -32603);
      else res.destroy();
    });
  };
  // A missing Host header is a failed Host check (403 from the gate), not Node's own bare 400.
  const httpServer = http.createServer({ requireHostHeader: false }, onRequest);
  // Without this listener Node answers `Expect: 100-continue` itself, before the gate has seen the request.
  httpServer.on('checkContinue', onRequest);
  httpServer.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const status =
      error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
    // A peer that resets, times out or hangs up mid-request is routine, not a diagnostic.
    if (error.code !== undefined && CLIENT_GONE_CODES.has(error.code)) return;
    log(`http: bad request from a client: ${printable(error.code ?? error.message)}`);
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
  // Node keeps only the first of several Host lines; a request naming two hosts fails the check outright.
  if ((req.headersDistinct.host?.length ?? 0) > 1) {
    return {
      status: 403,
      message: 'Forbidden: more than one Host header (DNS-rebinding guard); send exactly one',
      headers: {},
    };
  }
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

function expectsContinue(req: http.IncomingMessage): boolean {
  return headerValue(req, 'expect')?.toLowerCase() === '100-continue';
}

function sendUnknownSession(res: http.ServerResponse, sessionId: string | undefined): void {
  if (sessionId) {
    const message = 'Session not found: it expired or the server restarted; initialize a new session';
    sendJsonRpcError(res, 404, message, {}, -32001);
  } else {
    sendJsonRpcError(res, 400, 'no mcp-session-id header: send an initialize request first, then its id');
  }
}
