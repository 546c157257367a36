// Live sync for `groove serve`: watcher events are coalesced by path and debounced, then ONE incremental index run
// (the same indexer; its stat fast path makes unchanged files cheap) brings the index up to date. At most one run
// is in flight and one queued; memory stays bounded whatever the burst. Composition root: binds the watcher.
import { describeError } from '../errors.js';
import { type KbChange, watchKnowledgeBase } from '../fs/watch-kb.js';
import type { IndexEvent, IndexSummary } from './index-events.js';
import type { IndexRunner } from './index-runner.js';
import type { KnowledgeBase } from './knowledge-base.js';

export interface LiveSyncOptions {
  /** Quiet time after the last change before a run starts (`[watch] debounce_ms`, 0 – 60000). */
  debounceMs: number;
  /** A folder that never goes quiet still gets a run this long after its first pending change. */
  maxWaitMs?: number;
  /** Paths remembered for the log line; later ones in the same batch are only counted. Default 1000. */
  maxTrackedPaths?: number;
  /** One incremental index run. */
  run: () => Promise<IndexSummary>;
  log: (line: string) => void;
}

export interface LiveSyncStats {
  events: number;
  runs: number;
  failures: number;
  /** Paths waiting for the next run (bounded by maxTrackedPaths). */
  pendingPaths: number;
}

/** The debounced, coalescing queue between watcher events and index runs. */
export class LiveSync {
  private readonly options: Required<Omit<LiveSyncOptions, 'run' | 'log'>> & LiveSyncOptions;
  private readonly pending = new Map<string, KbChange['kind']>();
  private untracked = 0;
  private firstPendingAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private queued = false;
  private closed = false;
  private readonly counters = { events: 0, runs: 0, failures: 0 };

  constructor(options: LiveSyncOptions) {
    this.options = {
      maxWaitMs: Math.max(options.debounceMs * 10, 5_000),
      maxTrackedPaths: 1_000,
      ...options,
    };
  }

  /** Record one change; a run follows once the folder has been quiet for `debounceMs`. */
  notify(change: KbChange): void {
    if (this.closed) return;
    this.counters.events++;
    if (change.kind === 'root-gone') {
      this.options.log(
        'live sync: the knowledge base folder was deleted or moved; still serving the last index ' +
          '(restore the folder and restart `groove serve` to resume syncing)',
      );
      return;
    }
    if (this.pending.has(change.relPath) || this.pending.size < this.options.maxTrackedPaths) {
      this.pending.delete(change.relPath); // re-insert so the map keeps the latest kind
      this.pending.set(change.relPath, change.kind);
    } else {
      this.untracked++;
    }
    this.firstPendingAt ??= Date.now();
    this.schedule();
  }

  /** Run as soon as possible (startup catch-up, or after the rules changed). */
  syncNow(reason: string): void {
    if (this.closed) return;
    this.pending.set(`(${reason})`, 'rules');
    this.firstPendingAt ??= Date.now();
    this.clearTimer();
    this.flush();
  }

  stats(): LiveSyncStats {
    return { ...this.counters, pendingPaths: this.pending.size };
  }

  /** Stop scheduling; resolves after a run in flight has finished (so no write is cut off). */
  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    this.queued = false;
    await this.running;
  }

  private schedule(): void {
    this.clearTimer();
    const sinceFirst = Date.now() - (this.firstPendingAt ?? Date.now());
    const wait = Math.max(0, Math.min(this.options.debounceMs, this.options.maxWaitMs - sinceFirst));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private flush(): void {
    if (this.closed || this.pending.size === 0) return;
    if (this.running) {
      this.queued = true; // the one queued run: it will see every change made meanwhile
      return;
    }
    const paths = [...this.pending.keys()];
    const untracked = this.untracked;
    this.pending.clear();
    this.untracked = 0;
    this.firstPendingAt = null;
    this.running = this.execute(paths, untracked).finally(() => {
      this.running = null;
      if (this.queued) {
        this.queued = false;
        this.flush();
      }
    });
  }

  private async execute(paths: string[], untracked: number): Promise<void> {
    const total = paths.length + untracked;
    const sample = paths.slice(0, 3).join(', ') + (total > 3 ? `, … (${total} in all)` : '');
    this.options.log(`live sync: ${total} change${total === 1 ? '' : 's'} (${sample}); updating the index`);
    this.counters.runs++;
    try {
      const summary = await this.options.run();
      this.options.log(
        `live sync: ${summary.indexed} added, ${summary.updated} updated, ${summary.renamed} renamed, ` +
          `${summary.deleted} deleted, ${summary.skipped} skipped in ${summary.durationMs} ms`,
      );
    } catch (error) {
      this.counters.failures++;
      this.options.log(
        `live sync failed: ${describeError(error)}; still serving the last index (the next change retries)`,
      );
    }
  }
}

export interface StartLiveSyncOptions {
  kb: KnowledgeBase;
  runner: IndexRunner;
  debounceMs: number;
  log: (line: string) => void;
}

export interface LiveSyncHandle {
  /** Resolves when the watcher's initial scan is done. */
  ready: Promise<void>;
  stats(): LiveSyncStats;
  close(): Promise<void>;
}

/** Watch the KB, catch the index up once at start, and keep it following the folder. */
export function startLiveSync(options: StartLiveSyncOptions): LiveSyncHandle {
  const { kb, runner, log } = options;
  const sync = new LiveSync({
    debounceMs: options.debounceMs,
    run: () => runner.sync(logWarnings(log)),
    log,
  });
  const watcher = watchKnowledgeBase({
    root: kb.kbPath,
    extensions: kb.config.parsers.enabled,
    excludeDirs: kb.config.excludeDirs,
    onChange: (change) => sync.notify(change),
    onError: (error) => log(`live sync: watcher error: ${error.message}; serving continues`),
  });
  sync.syncNow('startup');
  void watcher.ready.then(() => log(`live sync: watching ${kb.kbPath} for changes`));
  return {
    ready: watcher.ready,
    stats: () => sync.stats(),
    async close() {
      await watcher.close();
      await sync.close();
    },
  };
}

/** Index events worth a log line while serving: warnings and skips, at most 20 per run. */
function logWarnings(log: (line: string) => void): (event: IndexEvent) => void {
  let logged = 0;
  return (event) => {
    if (event.kind !== 'warning' && event.kind !== 'skipped') return;
    if (logged++ < 20) log(`live sync: ${event.message}`);
  };
}
