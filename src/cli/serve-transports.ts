// How `groove serve` runs its MCP server: over stdio or Streamable HTTP, until a signal or the client ends it, and
// the facts a one-KB and a several-KB server share (the bind check, the watch and storage descriptions).
// One server per client session is made by `createServer`, over one KB or several.
import { format } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { KnowledgeBase, LiveSyncHandle } from '../app/index.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import { isLoopbackBind } from '../mcp/http-guard.js';
import type { HttpExtraRoutes } from '../mcp/transport-http.js';
import type { CliIo } from './cli-io.js';
import type { ServeFlags } from './command-options.js';

export type { ServeFlags } from './command-options.js';

export interface ServingTransport {
  log: (line: string) => void;
  createServer: () => McpServer;
  /** The "serving …" line, given where ("over stdio", "at http://…") and a note to add ("Ctrl-C stops"). */
  describe: (where: string, note?: string) => string;
}

export async function runStdio(serving: ServingTransport): Promise<void> {
  const { log } = serving;
  // The MCP SDK costs ~250 ms to import: load it only when a server actually starts.
  const { serveStdio } = await import('../mcp/transport-stdio.js');
  const handle = await serveStdio({
    server: serving.createServer(),
    stdin: process.stdin,
    stdout: process.stdout,
    log,
  });
  log(serving.describe('over stdio'));
  await untilStopped(handle.closed, log);
  await handle.close();
}

export interface HttpServing extends ServingTransport {
  http: ResolvedConfig['transport']['http'];
  bind: string;
  port: number;
  health: () => Record<string, unknown>;
  extraRoutes: HttpExtraRoutes;
}

export async function runHttp(serving: HttpServing): Promise<void> {
  const { http: httpConfig, log } = serving;
  if (!isLoopbackBind(serving.bind)) {
    if (!httpConfig.token)
      log('WARNING: listening beyond this machine without a token; set GROOVE_HTTP_TOKEN');
    if (httpConfig.allowedHosts.length === 0)
      log(
        'note: allowed_hosts is empty, so only loopback Host names are accepted; list the names clients use',
      );
  }
  const { serveHttp } = await import('../mcp/transport-http.js');
  const handle = await serveHttp({
    createServer: serving.createServer,
    bind: serving.bind,
    port: serving.port,
    allowedHosts: httpConfig.allowedHosts,
    allowedOrigins: httpConfig.allowedOrigins,
    token: httpConfig.token,
    maxSessions: httpConfig.maxSessions,
    healthzPublic: httpConfig.healthzPublic,
    health: serving.health,
    extraRoutes: serving.extraRoutes,
    log,
  });
  log(serving.describe(`at ${handle.url}`, 'Ctrl-C stops'));
  log(`status page: ${handle.url.replace(/\/mcp$/, '/ui')}`);
  try {
    await untilStopped(new Promise<void>(() => {}), log);
  } finally {
    await handle.close();
  }
}

/** Resolves on SIGINT/SIGTERM or when `ended` resolves, whichever comes first. */
async function untilStopped(ended: Promise<void>, log: (line: string) => void): Promise<void> {
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  const signalled = new Promise<void>((resolve) => {
    onSignal = (signal) => {
      log(`${signal}: shutting down`);
      resolve();
    };
  });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await Promise.race([ended, signalled]);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Under stdio a stray console.log from a dependency would corrupt the protocol: send it to stderr instead. */
export function routeConsoleToStderr(io: CliIo): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => {
    io.stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => Object.assign(console, saved);
}

/** A non-loopback address is refused unless --allow-remote says it is meant. */
export function checkBind(transport: string, bind: string, flags: ServeFlags): void {
  if (transport === 'http' && !isLoopbackBind(bind) && !flags.allowRemote) {
    throw new GrooveError('INVALID_ARGUMENT', `refusing to listen on non-loopback address "${bind}"`, {
      hint: 'anyone who can reach it could read the knowledge base; pass --allow-remote if you mean it, and set GROOVE_HTTP_TOKEN and [transport.http] allowed_hosts',
    });
  }
}

export function describeWatch(kb: KnowledgeBase, sync: () => LiveSyncHandle | null): string {
  if (kb.sharedStore) return 'a replica on the shared store';
  return sync() ? 'following file changes' : 'not watching files';
}

/** `/healthz`'s storage facts: the backend and, for a replica, its role and how far behind the writer it is. */
export function storageHealth(kb: KnowledgeBase): Record<string, unknown> {
  const replica = kb.replicaState();
  if (!replica) return { backend: 'sqlite' };
  return {
    backend: 'postgres',
    role: replica.role,
    applied_version: replica.appliedVersion,
    latest_version: replica.latestVersion,
    lag_versions: replica.lag.versions,
    lag_ms: replica.lag.ms,
    listening: replica.lag.listening,
  };
}
