// A reader's refresh loop: hear commits (commit-listener.ts), read what changed since the applied version, hand
// it to the snapshot's apply, mark it applied. One batch at a time; notices that arrive meanwhile fold into the
// next batch, so a burst of commits costs one read, not one per commit.
import { type CommitListener, type CommitListenerOptions, listenForCommits } from './commit-listener.js';
import { type ChangesSince, type Queryable, readChangesSince } from './commit-notices.js';

export interface CommitFollowerOptions extends Omit<CommitListenerOptions, 'onCommit'> {
  /** Where the changes are read: a pool on the primary (a replica once read URLs exist, docs/scale-out.md). */
  reads: Queryable;
  /**
   * Apply one batch to the in-memory snapshot: the chunks changed since the applied version, or `reload` when
   * the change log no longer reaches back that far. Never called twice at once.
   */
  apply: (batch: ChangesSince) => Promise<void>;
  /** A read or apply failed; the follower tries again after `reconnectIntervalMs` (default 1,000 ms). */
  onApplyError?: (error: unknown) => void;
}

export interface CommitFollower {
  readonly listener: CommitListener;
  stop(): Promise<void>;
}

/** Start following the KB's commits from `appliedVersion` (default 0). */
export function followCommits(options: CommitFollowerOptions): CommitFollower {
  const retryMs = options.reconnectIntervalMs ?? 1_000;
  let running = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  /** Read and apply until the applied version reaches the newest one heard of. */
  const pump = async () => {
    if (running || stopped) return;
    running = true;
    try {
      while (!stopped && listener.appliedVersion < listener.latestVersion) {
        const batch = await readChangesSince(options.reads, options.kbId, listener.appliedVersion);
        if (batch.toVersion <= listener.appliedVersion) {
          // The reads see an older state than the notice (a lagging replica): look again later.
          scheduleRetry();
          break;
        }
        await options.apply(batch);
        listener.markApplied(batch.toVersion);
      }
    } catch (error) {
      options.onApplyError?.(error);
      scheduleRetry();
    } finally {
      running = false;
    }
  };

  function scheduleRetry() {
    clearTimeout(retry);
    if (!stopped) retry = setTimeout(() => void pump(), retryMs);
  }

  const listener = listenForCommits({ ...options, onCommit: () => void pump() });
  return {
    listener,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await listener.stop();
    },
  };
}
