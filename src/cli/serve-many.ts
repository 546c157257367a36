// `groove serve --kb a --kb b …`: several registered KBs in one process. Each KB is opened with its own registry
// settings, index, model and live sync (serve-kb.ts), exactly as a one-KB server opens it; one MCP server
// (mcp/server-many.ts) answers for all of them. A KB whose folder is missing or unreadable at start is served as
// "missing": listed with its problem, never opened, its index untouched; the others serve. A KB unregistered while
// served (`groove kb remove`) is served no more: its live sync stopped and index closed (registry-follow.ts).
import fs from 'node:fs';
import {
  displayLine,
  followRegistry,
  type MissingKb,
  type RegistryFollower,
  registryPath,
  type ServedKb,
  ServedKbs,
  StatusBoard,
  servedKbsStatusToJson,
} from '../app/index.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { describeError } from '../errors.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { loadConfigs } from './common-options.js';
import { openServedKb, type StartedKb, startServedKb } from './serve-kb.js';
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

export async function serveMany({ flags, io, version }: RunContext<ServeFlags>): Promise<number> {
  const configs = loadConfigs(flags, io);
  const first = configs[0]!.config;
  const transport = flags.transport ?? first.transport.kind;
  const bind = flags.bind ?? first.transport.http.bind;
  checkBind(transport, bind, flags);
  const log = (line: string) => io.stderr.write(`groove serve: ${displayLine(line)}\n`);
  const restoreConsole = transport === 'stdio' ? routeConsoleToStderr(io) : () => {};
  const started: { name: string; kb: StartedKb }[] = [];
  let follower: RegistryFollower | null = null;
  try {
    const entries: ServedKb[] = [];
    for (const { name, config } of configs) {
      const missing = missingFolder(name, config);
      if (missing) {
        log(`${name}: not served: ${missing.problem} (its index is kept)`);
        entries.push({ state: 'missing', ...missing });
        continue;
      }
      const kbLog = (line: string) => log(`${name}: ${line}`);
      const kb = await startServedKb(openServedKb(config, kbLog), {
        io,
        watch: flags.watch,
        debounceMs: flags.debounceMs,
        log: kbLog,
      });
      started.push({ name, kb });
      entries.push({ state: 'serving', name, kb: kb.kb, runner: kb.runner });
    }
    const served = new ServedKbs(entries);
    follower = followRegistry({
      file: registryPath({ cwd: io.cwd, env: io.env }),
      served,
      log,
      stopServing: async (entry) => {
        const index = started.findIndex((s) => s.name === entry.name);
        const [closing] = index === -1 ? [] : started.splice(index, 1);
        await closing?.kb.close();
      },
    });
    const { createManyKbServer } = await import('../mcp/server-many.js');
    const serving: ServingTransport = {
      log,
      createServer: () => createManyKbServer({ served, version, log }),
      describe: (where, note = '') =>
        `serving ${entries.length} KBs (${describeKbs(entries, started)}) ${where}${note ? ` (${note})` : ''}`,
    };
    if (transport === 'stdio') await runStdio(serving);
    else await runHttpMany(serving, { flags, bind, config: first, started, served, version });
    return EXIT.ok;
  } finally {
    follower?.close();
    for (const { kb } of started.reverse()) await kb.close();
    restoreConsole();
    log('stopped');
  }
}

/** The KB's folder as it stands at start: null when it can be listed, else why it cannot. */
function missingFolder(name: string, config: ResolvedConfig): MissingKb | null {
  const kbPath = config.kbPath ?? '';
  try {
    if (!fs.statSync(kbPath).isDirectory()) return { name, kbPath, problem: `${kbPath} is not a folder` };
    fs.accessSync(kbPath, fs.constants.R_OK | fs.constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { name, kbPath, problem: `its folder ${kbPath} is missing` };
    return { name, kbPath, problem: `its folder ${kbPath} cannot be read (${describeError(error)})` };
  }
}

function describeKbs(
  entries: readonly ServedKb[],
  started: readonly { name: string; kb: StartedKb }[],
): string {
  return entries
    .map((entry) => {
      const kb = started.find((s) => s.name === entry.name)?.kb;
      return kb ? `${entry.name}: ${describeWatch(kb.kb, kb.sync)}` : `${entry.name}: folder missing`;
    })
    .join('; ');
}

async function runHttpMany(
  serving: ServingTransport,
  options: {
    flags: ServeFlags;
    bind: string;
    config: ResolvedConfig;
    started: readonly { name: string; kb: StartedKb }[];
    served: ServedKbs;
    version: string;
  },
): Promise<void> {
  const { started, version } = options;
  const boards = started.map(({ name, kb }) => ({
    name,
    kb,
    board: new StatusBoard({ kb: kb.kb, runner: kb.runner, sync: kb.sync, version }),
  }));
  // The status panels show the first serving KB; `/api/status` adds `kbs`, every served KB's status by name, and
  // `/api/search` searches the served KBs as one corpus (every one, or those named by `kb`).
  const shown = boards[0];
  const { createUiRoutes } = await import('../status-page/ui-routes.js');
  const byName = new Map(boards.map(({ name, board }) => [name, board]));
  const kbsStatus = () => ({ kbs: servedKbsStatusToJson(options.served.entries, byName) });
  await runHttp({
    ...serving,
    http: options.config.transport.http,
    bind: options.bind,
    port: options.flags.port ?? options.config.transport.http.port,
    health: () => ({
      kbs: boards
        .filter(({ name }) => started.some((s) => s.name === name))
        .map(({ name, kb }) => ({
          name,
          indexing: kb.runner.status().active,
          watcher: kb.sync()?.stats() ?? null,
          storage: storageHealth(kb.kb),
        })),
    }),
    extraRoutes: shown
      ? createUiRoutes({
          kb: shown.kb.kb,
          served: options.served,
          board: shown.board,
          extraStatus: kbsStatus,
        })
      : { describe: '', isTokenFree: () => false, handle: async () => false },
  });
}
