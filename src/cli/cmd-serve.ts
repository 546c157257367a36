// `groove serve`: the MCP server over stdio (default) or Streamable HTTP, with live sync of the KB folder.
// Logs go to stderr; under stdio, stdout carries nothing but protocol frames.
import { format } from 'node:util';
import {
  displayLine,
  IndexRunner,
  type KnowledgeBase,
  type LiveSyncHandle,
  MODEL_RETRY_FIRST_MS,
  MODEL_RETRY_MAX_MS,
  type ModelRetryHandle,
  openKnowledgeBase,
  retryModelInBackground,
  StatusBoard,
  startLiveSync,
} from '../app/index.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import { isLoopbackBind } from '../mcp/http-guard.js';
import { type CliIo, EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { configKeys } from './local-server.js';
import { startLocalSocket } from './serve-local-socket.js';

interface ServeFlags extends CommonFlags {
  transport?: 'stdio' | 'http';
  port?: number;
  bind?: string;
  allowRemote?: boolean;
  watch?: boolean;
  debounceMs?: number;
}

export async function run({ flags, io, version }: RunContext<ServeFlags>): Promise<number> {
  const config = loadConfig(flags, io);
  const keys = configKeys(config); // before the index opens, as the CLI computes them
  const transport = flags.transport ?? config.transport.kind;
  const bind = flags.bind ?? config.transport.http.bind;
  if (transport === 'http' && !isLoopbackBind(bind) && !flags.allowRemote) {
    throw new GrooveError('INVALID_ARGUMENT', `refusing to listen on non-loopback address "${bind}"`, {
      hint: 'anyone who can reach it could read the knowledge base; pass --allow-remote if you mean it, and set GROOVE_HTTP_TOKEN and [transport.http] allowed_hosts',
    });
  }
  // Every log line is escaped whole: paths quoted in it (changes, skips, errors) cannot forge a line.
  const log = (line: string) => io.stderr.write(`groove serve: ${displayLine(line)}\n`);
  const kb = openKnowledgeBase(config, { onNotice: log });
  const runner = new IndexRunner(kb);
  const restoreConsole = transport === 'stdio' ? routeConsoleToStderr(io) : () => {};
  let sync: LiveSyncHandle | null = null;
  let localSocket: Awaited<ReturnType<typeof startLocalSocket>> = null;
  let modelRetry: ModelRetryHandle | null = null;
  try {
    // Load the model once, now: a broken model fails at start, not on the first search. One that may load later
    // (not downloaded yet, offline) leaves the server answering by keyword while it is tried again.
    const unavailable = await kb.warmUp();
    if (unavailable) {
      const firstDelayMs = retryDelayFrom(io.env.GROOVE_MODEL_RETRY_MS);
      log(
        `the embedding model is not available (${unavailable.message}); answering by keyword, trying it again in ${Math.round(firstDelayMs / 1000)} s`,
      );
      modelRetry = retryModelInBackground({
        target: kb,
        embedWaiting: () => runner.sync(),
        log,
        firstDelayMs,
        maxDelayMs: MODEL_RETRY_MAX_MS,
      });
    }
    const watching = flags.watch !== false && config.watch.enabled;
    const startSync = () =>
      startLiveSync({ kb, runner, debounceMs: flags.debounceMs ?? config.watch.debounceMs, log });
    if (kb.sharedStore) {
      // One replica of many on a shared store: it indexes (and watches) only while it holds the writer role.
      await kb.startReplica({
        becameWriter: () => {
          log(`writer role taken: this replica indexes${watching ? ' and follows file changes' : ''}`);
          if (watching) sync ??= startSync();
        },
        lostWriter: (reason) => {
          log(`writer role lost (${reason}): serving reads; the replica holding the role indexes`);
          const stopping = sync;
          sync = null;
          void stopping?.close();
        },
        log,
      });
    } else if (watching) sync = startSync();
    // `groove search` and `groove status` for this index answer through the server (local-server.ts).
    localSocket = await startLocalSocket({ kb, config, configKeys: keys, env: io.env, log });
    const context = { kb, runner, config, log, version, sync: () => sync };
    if (transport === 'stdio') await runStdio(context);
    else await runHttp({ ...context, bind, port: flags.port ?? config.transport.http.port });
    return EXIT.ok;
  } finally {
    await modelRetry?.close();
    await localSocket?.close();
    await sync?.close();
    await runner.drain();
    await kb.close();
    restoreConsole();
    log('stopped');
  }
}

/** GROOVE_MODEL_RETRY_MS: the first wait before the model is tried again (a positive whole number of ms). */
function retryDelayFrom(value: string | undefined): number {
  const ms = Number(value);
  return value !== undefined && Number.isInteger(ms) && ms > 0 ? ms : MODEL_RETRY_FIRST_MS;
}

interface ServeContext {
  kb: KnowledgeBase;
  runner: IndexRunner;
  config: ResolvedConfig;
  log: (line: string) => void;
  version: string;
  /** The live sync running now (a replica's starts and stops with its writer role). */
  sync: () => LiveSyncHandle | null;
}

async function runStdio(context: ServeContext): Promise<void> {
  const { kb, log } = context;
  // The MCP SDK costs ~250 ms to import: load it only when a server actually starts.
  const { createGrooveServer } = await import('../mcp/server.js');
  const { serveStdio } = await import('../mcp/transport-stdio.js');
  const serving = await serveStdio({
    server: createGrooveServer(context),
    stdin: process.stdin,
    stdout: process.stdout,
    log,
  });
  log(`serving ${kb.kbPath} over stdio (${describeWatch(context)})`);
  await untilStopped(serving.closed, log);
  await serving.close();
}

async function runHttp(context: ServeContext & { bind: string; port: number }): Promise<void> {
  const { config, log, runner, sync } = context;
  const httpConfig = config.transport.http;
  if (!isLoopbackBind(context.bind)) {
    if (!httpConfig.token)
      log('WARNING: listening beyond this machine without a token; set GROOVE_HTTP_TOKEN');
    if (httpConfig.allowedHosts.length === 0)
      log(
        'note: allowed_hosts is empty, so only loopback Host names are accepted; list the names clients use',
      );
  }
  const { createGrooveServer } = await import('../mcp/server.js');
  const { serveHttp } = await import('../mcp/transport-http.js');
  const { createUiRoutes } = await import('../mcp/ui/ui-routes.js');
  const board = new StatusBoard({ kb: context.kb, runner, sync, version: context.version });
  const serving = await serveHttp({
    createServer: () => createGrooveServer(context),
    bind: context.bind,
    port: context.port,
    allowedHosts: httpConfig.allowedHosts,
    allowedOrigins: httpConfig.allowedOrigins,
    token: httpConfig.token,
    maxSessions: httpConfig.maxSessions,
    healthzPublic: httpConfig.healthzPublic,
    health: () => ({
      indexing: runner.status().active,
      watcher: sync()?.stats() ?? null,
      storage: storageHealth(context.kb),
    }),
    extraRoutes: createUiRoutes({ kb: context.kb, board }),
    log,
  });
  log(`serving ${context.kb.kbPath} at ${serving.url} (${describeWatch(context)}; Ctrl-C stops)`);
  log(`status page: ${serving.url.replace(/\/mcp$/, '/ui')}`);
  try {
    await untilStopped(new Promise<void>(() => {}), log);
  } finally {
    await serving.close();
  }
}

function describeWatch(context: ServeContext): string {
  if (context.kb.sharedStore) return 'a replica on the shared store';
  return context.sync() ? 'following file changes' : 'not watching files';
}

/** `/healthz`'s storage facts: the backend and, for a replica, its role and how far behind the writer it is. */
function storageHealth(kb: KnowledgeBase): Record<string, unknown> {
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
function routeConsoleToStderr(io: CliIo): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => {
    io.stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => Object.assign(console, saved);
}
