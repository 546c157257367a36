// A reader's ear for one KB's commits: LISTEN on a dedicated session, and on every (re)connect read the version
// row, because a NOTIFY sent while the session was down is lost. Reports each newer version once, in order, and
// the lag between what was committed and what the reader says it applied (for /healthz).
import type pg from 'pg';
import { COMMIT_CHANNEL, readCommittedVersion } from './commit-notices.js';
import {
  checkTimingMs,
  type DedicatedSession,
  openDedicatedSession,
  type SessionLoss,
} from './dedicated-session.js';

export interface CommitNotice {
  kbId: string;
  version: number;
  /** 'notify': a NOTIFY arrived; 'catch-up': the version row, read after (re)connecting, was newer. */
  source: 'notify' | 'catch-up';
}

export interface CommitLag {
  /** Committed versions the reader has not applied yet (as of the last notice or catch-up read). */
  versions: number;
  /** How long the oldest unapplied commit has waited; 0 when caught up. */
  ms: number;
  /** False while the listening session is down: `versions` may then be understated. */
  listening: boolean;
}

export interface CommitListenerOptions {
  /** How to connect (a replica cannot LISTEN to the primary's NOTIFY: point this at the primary). Never logged. */
  connection: pg.ClientConfig;
  kbId: string;
  /** The version the reader's snapshot already holds. Default 0. */
  appliedVersion?: number;
  /** Wait between reconnect attempts. Default 1,000 ms; range 50–60,000. */
  reconnectIntervalMs?: number;
  /** Liveness check of the listening session. Default 1,000 ms; range 50–60,000. */
  livenessIntervalMs?: number;
  /** Default 5,000 ms; range 50–60,000. */
  livenessTimeoutMs?: number;
  /** Called for each version newer than any reported before, in commit order. */
  onCommit: (notice: CommitNotice) => void;
  /** Called when the listening session drops (it reconnects by itself). */
  onDisconnected?: (loss: SessionLoss) => void;
}

export interface CommitListener {
  /** The newest committed version this listener knows of. */
  readonly latestVersion: number;
  readonly appliedVersion: number;
  /** The reader applied everything up to `version` (it never moves backwards). */
  markApplied(version: number): void;
  lag(): CommitLag;
  /** The listening session's backend pid, or null while disconnected. */
  readonly backendPid: number | null;
  stop(): Promise<void>;
}

interface CommitPayload {
  kbId?: unknown;
  version?: unknown;
}

/** Start listening; the first connect (and its catch-up read) runs at once. */
export function listenForCommits(options: CommitListenerOptions): CommitListener {
  const reconnectMs = checkTimingMs('reconnectIntervalMs', options.reconnectIntervalMs ?? 1_000);
  const livenessIntervalMs = checkTimingMs('livenessIntervalMs', options.livenessIntervalMs ?? 1_000);
  const livenessTimeoutMs = checkTimingMs('livenessTimeoutMs', options.livenessTimeoutMs ?? 5_000);
  let latest = options.appliedVersion ?? 0;
  let applied = latest;
  let behindSinceMs: number | null = null;
  let session: DedicatedSession | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const report = (version: number, source: CommitNotice['source']) => {
    if (stopped || version <= latest) return;
    latest = version;
    behindSinceMs ??= Date.now();
    options.onCommit({ kbId: options.kbId, version, source });
  };

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== COMMIT_CHANNEL || !message.payload) return;
    let payload: CommitPayload;
    try {
      payload = JSON.parse(message.payload) as CommitPayload;
    } catch {
      return; // not groove's payload
    }
    if (payload.kbId === options.kbId && typeof payload.version === 'number')
      report(payload.version, 'notify');
  };

  const onLost = (loss: SessionLoss) => {
    session = null;
    options.onDisconnected?.(loss);
    scheduleConnect();
  };

  const connect = async () => {
    if (stopped) return;
    let opened: DedicatedSession | null = null;
    try {
      opened = await openDedicatedSession({
        connection: options.connection,
        livenessIntervalMs,
        livenessTimeoutMs,
        serverIdleTimeoutMs: 30_000,
        onLost,
      });
      opened.client.on('notification', onNotification);
      // LISTEN before reading the version: a commit in between shows up in both, and report() drops the repeat.
      const listening = opened;
      const version = await listening.exclusive(async () => {
        await listening.client.query(`LISTEN ${COMMIT_CHANNEL}`);
        return readCommittedVersion(listening.client, options.kbId);
      });
      if (stopped) return void (await opened.close());
      session = opened;
      report(version, 'catch-up');
    } catch {
      await opened?.close();
      scheduleConnect();
    }
  };

  function scheduleConnect() {
    clearTimeout(retry);
    if (!stopped) retry = setTimeout(() => void connect(), reconnectMs);
  }

  void connect();
  return {
    get latestVersion() {
      return latest;
    },
    get appliedVersion() {
      return applied;
    },
    get backendPid() {
      return session?.backendPid ?? null;
    },
    markApplied(version) {
      applied = Math.max(applied, version);
      if (applied >= latest) behindSinceMs = null;
    },
    lag() {
      return {
        versions: Math.max(0, latest - applied),
        ms: behindSinceMs === null ? 0 : Date.now() - behindSinceMs,
        listening: session !== null,
      };
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await session?.close();
      session = null;
    },
  };
}
