// Live sync for `groove serve`: watcher events are coalesced by path and debounced, then ONE incremental index run
// (the same indexer; its stat fast path makes unchanged files cheap) brings the index up to date. At most one run
// is in flight and one queued; memory stays bounded whatever the burst. A run that fails or is refused puts its
// paths back and is retried on its own, with backoff: while another process holds the writer lock (INDEX_BUSY)
// every 0.5–2 s until it is done, after any other failure 1 s doubling up to a minute, each one logged.
// Composition root: binds the watcher.
import { describeError, isGrooveError } from '../../errors.js';
import { type KbChange, watchKnowledgeBase } from '../../fs/watch-kb.js';
import type { IndexEvent, IndexSummary } from '../indexing/index.js';
import type { KnowledgeBase } from '../knowledge-base.js';
import type { IndexRunner } from './index-runner.js';

export interface LiveSyncOptions {
  /** Quiet time after the last change before a run starts (`[watch] debounce_ms`, 0 – 60000). */
  debounceMs: number;
  /** A folder that never goes quiet still gets a run this long after its first pending change. */
  maxWaitMs?: number;
  /** Paths remembered for the log line; later ones in the same batch are only counted. Default 1000. */
  maxTrackedPaths?: number;
  /**
   * One incremental index run: over `paths` only (the files that changed), or every file when undefined
   * (startup, rules or folders changed, more changes than were tracked).
   */
  run: (paths: readonly string[] | undefined) => Promise<IndexSummary>;
  /** Wait before retry number `attempt` (1, 2, …) of a failed run; `busy` when another writer held the lock. */
  retryDelayMs?: (attempt: number, busy: boolean) => number;
  log: (line: string) => void;
}

/** What live sync is doing: nothing to do, waiting for quiet, running, or waiting to retry a failed run. */
export type LiveSyncPhase = 'idle' | 'debouncing' | 'running' | 'retrying';

export interface LiveSyncStats {
  phase: LiveSyncPhase;
  /** Set while runs are refused because another process holds the writer lock. */
  waitingForWriter: boolean;
  /** Why the last run failed or was refused; null once a run succeeded. */
  lastFailure: string | null;
  events: number;
  runs: number;
  failures: number;
  /** Runs refused because another process held the writer lock (each is retried). */
  refused: number;
  /** Paths waiting for the next run (bounded by maxTrackedPaths). */
  pendingPaths: number;
}

/** The debounced, coalescing queue between watcher events and index runs. */
export class LiveSync {
  private readonly options: Required<Omit<LiveSyncOptions, 'run' | 'log'>> & LiveSyncOptions;
  /** Failed runs in a row, and when the next attempt may start (null: no backoff). */
  private failedAttempts = 0;
  private retryAt: number | null = null;
  /** Set while runs are refused because another process holds the writer lock. */
  private busySince: number | null = null;
  private readonly pending = new Map<string, KbChange['kind']>();
  private untracked = 0;
  private firstPendingAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private queued = false;
  private closed = false;
  private readonly counters = { events: 0, runs: 0, failures: 0, refused: 0 };
  private lastFailure: string | null = null;

  constructor(options: LiveSyncOptions) {
    this.options = {
      maxWaitMs: Math.max(options.debounceMs * 10, 5_000),
      maxTrackedPaths: 1_000,
      retryDelayMs: defaultRetryDelay,
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

  /** Whether changes are waiting for the next run (the running one stops embedding to let them in). */
  hasPendingChanges(): boolean {
    return this.pending.size > 0;
  }

  stats(): LiveSyncStats {
    return {
      phase: this.phase(),
      waitingForWriter: this.busySince !== null,
      lastFailure: this.lastFailure,
      ...this.counters,
      pendingPaths: this.pending.size,
    };
  }

  private phase(): LiveSyncPhase {
    if (this.running) return 'running';
    if (this.retryAt !== null) return 'retrying';
    return this.pending.size > 0 ? 'debouncing' : 'idle';
  }

  /** Stop scheduling; resolves after a run in flight has finished (so no write is cut off). */
  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    this.queued = false;
    await this.running;
  }

  private schedule(): void {
    const sinceFirst = Date.now() - (this.firstPendingAt ?? Date.now());
    const wait = Math.max(0, Math.min(this.options.debounceMs, this.options.maxWaitMs - sinceFirst));
    this.arm(Math.max(wait, this.backoffLeft()));
  }

  private arm(wait: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  /** Milliseconds until a failed run may be retried (0 when not backing off). */
  private backoffLeft(): number {
    return this.retryAt === null ? 0 : Math.max(0, this.retryAt - Date.now());
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
    const backoff = this.backoffLeft();
    if (backoff > 0) {
      this.arm(backoff); // a change during the backoff joins the retry instead of hastening it
      return;
    }
    const batch = [...this.pending.entries()];
    const untracked = this.untracked;
    this.pending.clear();
    this.untracked = 0;
    this.firstPendingAt = null;
    this.running = this.execute(batch, untracked).finally(() => {
      this.running = null;
      if (this.queued) {
        this.queued = false;
        this.flush();
      }
    });
  }

  private async execute(batch: [string, KbChange['kind']][], untracked: number): Promise<void> {
    // Retries while another writer holds the lock stay quiet; the line saying so was logged once.
    if (this.busySince === null)
      this.options.log(`live sync: ${describeBatch(batch, untracked)}; updating the index`);
    this.counters.runs++;
    try {
      const summary = await this.options.run(scopeOf(batch, untracked));
      const waited =
        this.busySince === null
          ? ''
          : ` (after waiting ${seconds(Date.now() - this.busySince)} s for the other writer)`;
      this.failedAttempts = 0;
      this.retryAt = null;
      this.busySince = null;
      this.lastFailure = null;
      this.options.log(
        `live sync: ${summary.indexed} added, ${summary.updated} updated, ${summary.renamed} renamed, ` +
          `${summary.deleted} deleted, ${summary.skipped} skipped${embeddedNote(summary)} in ${summary.durationMs} ms${waited}`,
      );
      // A run that stopped embedding to let changes in leaves the rest of its queue to the next run.
      if (summary.pendingEmbeddings > 0 && this.pending.size === 0) this.syncNow('embedding the rest');
    } catch (error) {
      const busy = isGrooveError(error) && error.code === 'INDEX_BUSY' ? error : null;
      if (busy) this.counters.refused++;
      else this.counters.failures++;
      this.lastFailure = describeError(error);
      this.putBack(batch, untracked);
      if (this.closed) return;
      // The backoff starts over when the kind of failure changes (busy → failing, or back).
      if ((busy !== null) !== (this.busySince !== null)) this.failedAttempts = 0;
      this.failedAttempts++;
      const delay = this.options.retryDelayMs(this.failedAttempts, busy !== null);
      this.retryAt = Date.now() + delay;
      if (busy) {
        if (this.busySince === null) {
          this.options.log(
            `live sync: ${busy.message}; still serving the last index, retrying every few seconds until that writer is done`,
          );
        }
        this.busySince ??= Date.now();
      } else {
        this.busySince = null;
        this.options.log(
          `live sync failed: ${describeError(error)}; still serving the last index (retry ${this.failedAttempts} in ${seconds(delay)} s)`,
        );
      }
      this.arm(delay);
    }
  }

  /** Return a failed batch to the queue; a change queued meanwhile is newer and keeps its place and kind. */
  private putBack(batch: [string, KbChange['kind']][], untracked: number): void {
    const merged = new Map<string, KbChange['kind']>();
    let dropped = untracked;
    for (const [relPath, kind] of batch) {
      if (this.pending.has(relPath)) continue;
      if (merged.size + this.pending.size < this.options.maxTrackedPaths) merged.set(relPath, kind);
      else dropped++;
    }
    for (const [relPath, kind] of this.pending) merged.set(relPath, kind);
    this.pending.clear();
    for (const [relPath, kind] of merged) this.pending.set(relPath, kind);
    this.untracked += dropped;
    this.firstPendingAt ??= Date.now();
  }
}

/**
 * The files a run must look at: the changed files, or every file (undefined) when a change may concern files
 * the watcher did not name — a folder added, removed or renamed, the ignore rules, a run asked for by name, or
 * changes past the tracking limit.
 */
function scopeOf(batch: readonly [string, KbChange['kind']][], untracked: number): string[] | undefined {
  const fileKinds: readonly KbChange['kind'][] = ['add', 'change', 'unlink'];
  if (untracked > 0 || batch.some(([, kind]) => !fileKinds.includes(kind))) return undefined;
  return batch.map(([relPath]) => relPath);
}

/** INDEX_BUSY: 0.5, 1, 2, 2, … s (the other writer may finish any moment); other failures: 1, 2, 4, … 60 s. */
function defaultRetryDelay(attempt: number, busy: boolean): number {
  const [first, cap] = busy ? [500, 2_000] : [1_000, 60_000];
  return Math.min(cap, first * 2 ** Math.min(attempt - 1, 16));
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 1 : 0);
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

function embeddedNote(summary: IndexSummary): string {
  if (summary.embeddedChunks === 0 && summary.pendingEmbeddings === 0) return '';
  const pending = summary.pendingEmbeddings > 0 ? ` (${summary.pendingEmbeddings} still to embed)` : '';
  return `, ${summary.embeddedChunks} chunks embedded${pending}`;
}

/** Watch the KB, catch the index up once at start, and keep it following the folder. */
export function startLiveSync(options: StartLiveSyncOptions): LiveSyncHandle {
  const { kb, runner, log } = options;
  const warned = new Set<string>();
  const sync: LiveSync = new LiveSync({
    debounceMs: options.debounceMs,
    run: (paths) => runner.sync(logEvents(log, warned), () => sync.hasPendingChanges(), paths),
    log,
  });
  const watcher = watchKnowledgeBase({
    root: kb.kbPath,
    extensions: kb.config.parsers.extensions,
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

/** Distinct warnings a live sync remembers so as not to repeat them; past this it forgets them all. */
const MAX_REMEMBERED_WARNINGS = 200;

/**
 * Index events worth a log line while serving: skips (at most 20 per run), a warning once per live sync (the same
 * warning from a later run is not repeated), embedding per 10%.
 */
export function logEvents(log: (line: string) => void, warned: Set<string>): (event: IndexEvent) => void {
  let logged = 0;
  let lastTenth = -1;
  return (event) => {
    if (event.kind === 'embed-start') {
      log(`live sync: embedding ${event.total} chunks; searches use the vectors stored so far`);
      lastTenth = 0;
    }
    if (event.kind === 'embedded') {
      const tenth = Math.floor((event.done / Math.max(1, event.total)) * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      const rate =
        event.elapsedMs > 0 ? `, ${((event.done * 1000) / event.elapsedMs).toFixed(1)} chunks/s` : '';
      log(`live sync: embedded ${event.done}/${event.total} chunks${rate}`);
    }
    if (event.kind === 'warning') {
      if (warned.has(event.message)) return;
      if (warned.size >= MAX_REMEMBERED_WARNINGS) warned.clear();
      warned.add(event.message);
    } else if (event.kind !== 'skipped') return;
    if (logged++ < 20) log(`live sync: ${event.message}`);
  };
}

/** `3 changes (a.md, b.md, c.md)`, or the reason of a run no file change started: `startup`. */
function describeBatch(batch: readonly [string, KbChange['kind']][], untracked: number): string {
  const files = batch.map(([relPath]) => relPath).filter((key) => !isReason(key));
  const reasons = batch.map(([key]) => key).filter(isReason);
  const total = files.length + untracked;
  if (total === 0) return reasons.map((key) => key.slice(1, -1)).join(', ');
  const more = total > 3 ? `, … (${total} in all)` : '';
  const sample = files.length > 0 ? ` (${files.slice(0, 3).join(', ')}${more})` : '';
  return `${total} change${total === 1 ? '' : 's'}${sample}`;
}

/** syncNow's entries are its reason in parentheses, which no relative file path is. */
function isReason(key: string): boolean {
  return key.startsWith('(') && key.endsWith(')');
}
