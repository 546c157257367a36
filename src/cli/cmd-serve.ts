// `groove serve`: the MCP server over stdio (default) or Streamable HTTP, with live sync of the KB folder; with
// several `--kb NAME` it serves all of them in one process (serve-many.ts). Logs go to stderr; under stdio,
// stdout carries nothing but protocol frames.
import { displayLine, registeredKbNames, StatusBoard } from '../app/index.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { type CliIo, EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { loadConfig } from './common-options.js';
import { openServedKb, type StartedKb, startServedKb } from './serve-kb.js';
import { serveMany } from './serve-many.js';
import {
  checkBind,
  describeWatch,
  routeConsoleToStderr,
  runHttp,
  runStdio,
  type ServeFlags,
  type ServingTransport,
  storageHealth,
} from './serve-transports.js';

/**
 * With no KB named (no --kb, no --kb-path, no kb_path from a groove.toml or the environment) the server serves
 * every registered KB; with no registry entry either, nothing (the one-KB path then says none was given).
 */
function everyRegisteredKb(flags: ServeFlags, config: ResolvedConfig, io: CliIo): string[] {
  if ((flags.kb?.length ?? 0) > 0 || flags.kbPath !== undefined || config.kbPath !== null) return [];
  return registeredKbNames({ cwd: io.cwd, env: io.env });
}

export async function run(context: RunContext<ServeFlags>): Promise<number> {
  const { flags, io, version } = context;
  if ((flags.kb?.length ?? 0) > 1) return serveMany(context);
  const config = loadConfig(flags, io);
  const every = everyRegisteredKb(flags, config, io);
  if (every.length > 0) return run({ ...context, flags: { ...flags, kb: every } });
  const transport = flags.transport ?? config.transport.kind;
  const bind = flags.bind ?? config.transport.http.bind;
  checkBind(transport, bind, flags);
  // Every log line is escaped whole: paths quoted in it (changes, skips, errors) cannot forge a line.
  const log = (line: string) => io.stderr.write(`groove serve: ${displayLine(line)}\n`);
  const opened = openServedKb(config, log);
  const restoreConsole = transport === 'stdio' ? routeConsoleToStderr(io) : () => {};
  let started: StartedKb | null = null;
  try {
    started = await startServedKb(opened, { io, watch: flags.watch, debounceMs: flags.debounceMs, log });
    const { kb, runner, sync } = started;
    const context = { kb, runner, config, log, version, sync };
    const { createGrooveServer } = await import('../mcp/server.js');
    const serving: ServingTransport = {
      log,
      createServer: () => createGrooveServer(context),
      describe: (where, note) =>
        `serving ${kb.kbPath} ${where} (${describeWatch(kb, sync)}${note ? `; ${note}` : ''})`,
    };
    if (transport === 'stdio') await runStdio(serving);
    else {
      const board = new StatusBoard({ kb, runner, sync, version });
      const { createUiRoutes } = await import('../status-page/ui-routes.js');
      await runHttp({
        ...serving,
        http: config.transport.http,
        bind,
        port: flags.port ?? config.transport.http.port,
        health: () => ({
          indexing: runner.status().active,
          watcher: sync()?.stats() ?? null,
          storage: storageHealth(kb),
        }),
        extraRoutes: createUiRoutes({ kb, board }),
      });
    }
    return EXIT.ok;
  } finally {
    await started?.close();
    restoreConsole();
    log('stopped');
  }
}
