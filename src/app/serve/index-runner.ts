// One index run at a time per knowledge base inside this process: the lock file keeps other processes out but
// not a second run in this one. rebuild_index calls are refused while one is pending; watcher syncs queue.
// The runner remembers its last few runs (what ran, when, how it ended) for the status page.
import { GrooveError, isGrooveError } from '../../errors.js';
import type { IndexEventSink, IndexSummary } from '../indexing/index.js';
import type { IndexOptions } from '../knowledge-base.js';

/** What the runner drives: the facade's `index` (an interface so tests can count runs). */
export interface IndexTarget {
  index(options: IndexOptions): Promise<IndexSummary>;
}

export type IndexRunKind = 'rebuild' | 'sync';

/** How many finished runs the runner remembers. */
export const RECENT_RUNS_KEPT = 10;

/** One finished run: a summary when it completed, the error's code and message when it did not. */
export interface IndexRunRecord {
  kind: IndexRunKind;
  force: boolean;
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs: number;
  summary: IndexSummary | null;
  error: { code: string; message: string } | null;
}

export interface IndexRunnerStatus {
  /** The run in progress, if any; `embedding` once it is embedding its queue: chunks done of the queue. */
  active: {
    kind: IndexRunKind;
    force: boolean;
    runningMs: number;
    embedding: { done: number; total: number } | null;
  } | null;
  /** Runs finished (completed or failed) since the runner was created. */
  completedRuns: number;
  /** The last RECENT_RUNS_KEPT finished runs, newest first. */
  recentRuns: IndexRunRecord[];
}

export class IndexRunner {
  private readonly target: IndexTarget;
  private readonly now: () => number;
  private tail: Promise<unknown> = Promise.resolve();
  private rebuildRequestedAt: number | null = null;
  private active: {
    kind: IndexRunKind;
    force: boolean;
    startedAt: number;
    embedding: { done: number; total: number } | null;
  } | null = null;
  private completed = 0;
  /** Runs queued behind the active one: the active run stops embedding between batches to let them in. */
  private waiting = 0;
  private readonly recent: IndexRunRecord[] = [];

  constructor(target: IndexTarget, options: { now?: () => number } = {}) {
    this.target = target;
    this.now = options.now ?? Date.now;
  }

  /** The rebuild_index tool: one at a time; a second call is refused with how long the first has run. */
  async rebuild(options: { force: boolean; onEvent?: IndexEventSink }): Promise<IndexSummary> {
    if (this.rebuildRequestedAt !== null) {
      const seconds = ((this.now() - this.rebuildRequestedAt) / 1000).toFixed(1);
      throw new GrooveError('INDEX_BUSY', `a rebuild_index call has been running for ${seconds} s`, {
        hint: 'wait for it to finish (searches keep answering meanwhile), then call rebuild_index again if needed',
      });
    }
    this.rebuildRequestedAt = this.now();
    try {
      return await this.enqueue('rebuild', options.force, options.onEvent);
    } finally {
      this.rebuildRequestedAt = null;
    }
  }

  /**
   * An incremental run for the watcher; waits behind whatever is running. `hasNewChanges` is asked between
   * embedding batches: true ends the run with the rest of its queue left for the run that follows.
   */
  sync(
    onEvent?: IndexEventSink,
    hasNewChanges?: () => boolean,
    paths?: readonly string[],
  ): Promise<IndexSummary> {
    return this.enqueue('sync', false, onEvent, hasNewChanges, paths);
  }

  status(): IndexRunnerStatus {
    const active = this.active;
    return {
      active: active && {
        kind: active.kind,
        force: active.force,
        runningMs: this.now() - active.startedAt,
        embedding: active.embedding && { ...active.embedding },
      },
      completedRuns: this.completed,
      recentRuns: this.recent.map((run) => ({ ...run })),
    };
  }

  /** Resolves once every queued run has settled (used on shutdown so no write is cut off). */
  async drain(): Promise<void> {
    let seen: Promise<unknown> | null = null;
    while (seen !== this.tail) {
      seen = this.tail;
      await seen;
    }
  }

  private enqueue(
    kind: IndexRunKind,
    force: boolean,
    onEvent?: IndexEventSink,
    hasNewChanges?: () => boolean,
    paths?: readonly string[],
  ): Promise<IndexSummary> {
    this.waiting++;
    const run = this.tail.then(async () => {
      this.waiting--;
      const startedAt = this.now();
      const active: NonNullable<IndexRunner['active']> = { kind, force, startedAt, embedding: null };
      this.active = active;
      const track: IndexEventSink = (event) => {
        if (event.kind === 'embed-start') active.embedding = { done: 0, total: event.total };
        if (event.kind === 'embedded') active.embedding = { done: event.done, total: event.total };
        onEvent?.(event);
      };
      let summary: IndexSummary | null = null;
      let error: IndexRunRecord['error'] = null;
      try {
        summary = await this.target.index({
          force,
          onEvent: track,
          shouldPauseEmbedding: () => this.waiting > 0 || (hasNewChanges?.() ?? false),
          paths,
          // The watcher keeps serving: documents that settings not chosen for this KB would drop are kept (and
          // logged); the rebuild_index tool refuses them like `groove index`.
          settingsDrops: kind === 'sync' ? 'keep' : 'refuse',
          // A file change is indexed while the model is unavailable; the server's model retry embeds later.
          keepTextWithoutModel: kind === 'sync',
        });
        return summary;
      } catch (thrown) {
        error = {
          code: isGrooveError(thrown) ? thrown.code : 'INTERNAL',
          message: thrown instanceof Error ? thrown.message : String(thrown),
        };
        throw thrown;
      } finally {
        this.active = null;
        this.completed++;
        this.remember({ kind, force, startedAt, durationMs: this.now() - startedAt, summary, error });
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  private remember(record: IndexRunRecord): void {
    this.recent.unshift(record);
    this.recent.length = Math.min(this.recent.length, RECENT_RUNS_KEPT);
  }
}
