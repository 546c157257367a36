// One knowledge base as `groove serve` runs it: its index opened, its model warmed (or retried in the background),
// its live sync (or its replica role on a shared store) and its local socket for CLI calls. A server of several
// KBs starts one of these per KB; closing it stops all of that in reverse order.
import {
  IndexRunner,
  type KnowledgeBase,
  type LiveSyncHandle,
  MODEL_RETRY_FIRST_MS,
  MODEL_RETRY_MAX_MS,
  type ModelRetryHandle,
  openKnowledgeBase,
  retryModelInBackground,
  startLiveSync,
} from '../app/index.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { CliIo } from './cli-io.js';
import { configKeys } from './local-server.js';
import { startLocalSocket } from './serve-local-socket.js';

export interface StartedKb {
  config: ResolvedConfig;
  kb: KnowledgeBase;
  runner: IndexRunner;
  /** The live sync running now (a replica's starts and stops with its writer role). */
  sync: () => LiveSyncHandle | null;
  close(): Promise<void>;
}

export interface StartKbOptions {
  io: CliIo;
  /** --no-watch gives false. */
  watch?: boolean;
  debounceMs?: number;
  log: (line: string) => void;
}

export interface OpenedKb {
  config: ResolvedConfig;
  kb: KnowledgeBase;
  runner: IndexRunner;
  /** The local socket's config keys, computed before the index opened, as the CLI computes its own. */
  keys: ReturnType<typeof configKeys>;
}

/** Open one KB's index for serving (nothing is started yet). */
export function openServedKb(config: ResolvedConfig, log: (line: string) => void): OpenedKb {
  const keys = configKeys(config);
  const kb = openKnowledgeBase(config, { onNotice: log });
  return { config, kb, runner: new IndexRunner(kb), keys };
}

/** Start serving an opened KB; when a step fails, what was started is stopped and the KB closed. */
export async function startServedKb(opened: OpenedKb, options: StartKbOptions): Promise<StartedKb> {
  const { io, log } = options;
  const { config, kb, runner, keys } = opened;
  let sync: LiveSyncHandle | null = null;
  let localSocket: Awaited<ReturnType<typeof startLocalSocket>> = null;
  let modelRetry: ModelRetryHandle | null = null;
  // The local socket closes last: once it is gone the index is closed (`kb remove --delete-index` waits for
  // that); a CLI call that reaches it meanwhile is refused and answered in-process.
  const close = async () => {
    await modelRetry?.close();
    await sync?.close();
    await runner.drain();
    await kb.close();
    await localSocket?.close();
  };
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
    const watching = options.watch !== false && config.watch.enabled;
    const startSync = () =>
      startLiveSync({ kb, runner, debounceMs: options.debounceMs ?? config.watch.debounceMs, log });
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
  } catch (error) {
    await close();
    throw error;
  }
  return { config, kb, runner, sync: () => sync, close };
}

/** GROOVE_MODEL_RETRY_MS: the first wait before the model is tried again (a positive whole number of ms). */
function retryDelayFrom(value: string | undefined): number {
  const ms = Number(value);
  return value !== undefined && Number.isInteger(ms) && ms > 0 ? ms : MODEL_RETRY_FIRST_MS;
}
