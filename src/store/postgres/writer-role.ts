// The writer role of one knowledge base across processes and hosts: whoever holds a session-level advisory lock
// on a key derived from the KB id. Others retry on an interval and take over when the lock frees. Fencing rule:
// every write goes through the lock-holding session, inside a transaction that first checks pg_locks — so a
// COMMIT can only succeed while this session holds the lock (a dead session's lock and open transaction end
// together on the server).
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { GrooveError } from '../../errors.js';
import {
  checkTimingMs,
  type DedicatedSession,
  openDedicatedSession,
  type SessionLoss,
} from './dedicated-session.js';

/** The first half of every groove advisory-lock key ('grov'), so groove's locks do not collide with others'. */
export const GROOVE_LOCK_NAMESPACE = 0x67726f76;

export type WriterState = 'standby' | 'writer' | 'stopped';
/** Why the role was given up: its session died, stopped answering, no longer held the lock, or stop() ran. */
export type WriterLossReason = 'connection-lost' | 'liveness-timeout' | 'lock-missing' | 'stopped';

export interface WriterLoss {
  reason: WriterLossReason;
  /** The underlying error, for logs that print codes only: it may carry raw driver text. */
  cause?: unknown;
}

export interface WriterRoleOptions {
  /** How to connect to the primary (`pg` client settings). Never logged. */
  connection: pg.ClientConfig;
  /** The knowledge base whose writer role this is. */
  kbId: string;
  /** How often a standby tries to take the lock. Default 2,000 ms; range 50–60,000. */
  retryIntervalMs?: number;
  /** How often the writer's session proves it is alive. Default 1,000 ms; range 50–60,000. */
  livenessIntervalMs?: number;
  /** How long that proof may take before the writer gives up the role. Default 5,000 ms; range 50–60,000. */
  livenessTimeoutMs?: number;
  /**
   * The server ends a session idle this long — in a transaction too — freeing a vanished or frozen host's lock.
   * A transaction must not wait on the client that long between its queries. Default 30,000 ms; range
   * 50–60,000 and more than twice livenessIntervalMs.
   */
  serverIdleTimeoutMs?: number;
  /** Called each time this process becomes the writer. */
  onBecameWriter?: () => void;
  /** Called each time this process stops being the writer; it is already a standby (or stopped) by then. */
  onLostWriter?: (loss: WriterLoss) => void;
}

export interface WriterRole {
  readonly state: WriterState;
  /** The advisory-lock key pair `(namespace, kb hash)`, as pg_locks shows it in classid and objid. */
  readonly lockKey: readonly [number, number];
  /** The writer session's backend pid while writer, else null. */
  readonly writerBackendPid: number | null;
  /**
   * Run `work` in one transaction on the lock-holding session and commit it. Refused with WRITER_ROLE_LOST
   * unless this process is the writer and the session still holds the lock; calls run one after another.
   * `work` must derive what it writes from the database as the transaction sees it, not from state read
   * before: a new writer redoes what a dead one may or may not have committed.
   */
  withWriterTransaction<T>(work: (client: pg.ClientBase) => Promise<T>): Promise<T>;
  /** Give up the role (unlock) or stop trying for it; no callback fires after this except the loss. */
  stop(): Promise<void>;
}

const DEFAULTS = {
  retryIntervalMs: 2_000,
  livenessIntervalMs: 1_000,
  livenessTimeoutMs: 5_000,
  serverIdleTimeoutMs: 30_000,
};

/** The advisory-lock key pair of a KB: groove's namespace and the first 31 bits of SHA-256(kbId). */
export function writerLockKey(kbId: string): readonly [number, number] {
  const digest = createHash('sha256').update(kbId, 'utf8').digest();
  return [GROOVE_LOCK_NAMESPACE, digest.readUInt32BE(0) & 0x7fffffff];
}

const HOLDS_LOCK_SQL = `SELECT EXISTS (
  SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
    AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 2) AS held`;

/** Start contending for the KB's writer role: the first attempt runs at once, then every retry interval. */
export function startWriterRole(options: WriterRoleOptions): WriterRole {
  const settings = checkedSettings(options);
  const key = writerLockKey(options.kbId);
  let state: WriterState = 'standby';
  let session: DedicatedSession | null = null;
  let retry: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const loseRole = (loss: WriterLoss) => {
    const wasWriter = state === 'writer';
    if (state !== 'stopped') state = 'standby';
    const dying = session;
    session = null;
    // Told before the session closes: closing frees the lock if the server still counted it as held.
    if (wasWriter) emit(() => options.onLostWriter?.(loss));
    void dying?.close();
    if (state === 'standby') scheduleAttempt();
  };

  const onSessionLost = (loss: SessionLoss) => loseRole(loss);

  let attempting = false;
  const attempt = async () => {
    if (state !== 'standby' || attempting) return; // one attempt at a time: never two contending sessions
    attempting = true;
    try {
      await tryToTakeLock();
    } finally {
      attempting = false;
    }
  };

  const tryToTakeLock = async () => {
    try {
      session ??= await openDedicatedSession({
        ...settings,
        connection: options.connection,
        onLost: onSessionLost,
      });
      const contender = session;
      const { rows } = await contender.exclusive(() =>
        contender.client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [...key]),
      );
      if ((state as WriterState) === 'stopped') {
        // stop() ran meanwhile and saw no session: this one (and any lock it just took) ends here
        if (session === contender) session = null;
        await contender.close();
        return;
      }
      if (rows[0]?.got) {
        state = 'writer';
        emit(options.onBecameWriter);
        return;
      }
    } catch {
      // server unreachable or the session died mid-query: drop it and try again on the next tick
      const dead = session;
      session = null;
      await dead?.close();
    }
    scheduleAttempt();
  };

  function scheduleAttempt() {
    clearTimeout(retry);
    retry = setTimeout(() => void attempt(), settings.retryIntervalMs);
  }

  const runTransaction = async <T>(work: (client: pg.ClientBase) => Promise<T>): Promise<T> => {
    const current = session;
    if (state !== 'writer' || current === null || !current.alive) throw notWriter(options.kbId);
    return current.exclusive(async () => {
      const client = current.client;
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ held: boolean }>(HOLDS_LOCK_SQL, [...key]);
        if (!rows[0]?.held) {
          await client.query('ROLLBACK');
          loseRole({ reason: 'lock-missing' });
          throw notWriter(options.kbId);
        }
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        if (error instanceof GrooveError && error.code === 'WRITER_ROLE_LOST') throw error;
        const rolledBack = await client.query('ROLLBACK').then(
          () => true,
          () => false,
        );
        if (rolledBack && current.alive) throw error;
        // The session cannot even roll back: it is gone, and with it the lock and this transaction.
        if (session === current) loseRole({ reason: 'connection-lost', cause: error });
        throw notWriter(options.kbId, error);
      }
    });
  };

  void attempt();
  return {
    get state() {
      return state;
    },
    lockKey: key,
    get writerBackendPid() {
      return state === 'writer' ? (session?.backendPid ?? null) : null;
    },
    withWriterTransaction(work) {
      const run = queue.then(() => runTransaction(work));
      queue = run.catch(() => {});
      return run;
    },
    async stop() {
      clearTimeout(retry);
      await queue;
      const wasWriter = state === 'writer';
      const held = session;
      state = 'stopped';
      session = null;
      // Announce the loss before unlocking: once the lock is free another replica may already be writer.
      if (wasWriter) emit(() => options.onLostWriter?.({ reason: 'stopped' }));
      const unlock = () => held!.client.query('SELECT pg_advisory_unlock($1, $2)', [...key]);
      if (held && wasWriter) await held.exclusive(unlock).catch(() => {});
      await held?.close();
    },
  };
}

function notWriter(kbId: string, cause?: unknown): GrooveError {
  return new GrooveError('WRITER_ROLE_LOST', `this process is not the writer of knowledge base "${kbId}"`, {
    hint: 'the write was not committed; the replica holding the writer role does it',
    cause,
  });
}

/** The options' timings over the defaults, each checked against SESSION_TIMING_RANGE_MS. */
function checkedSettings(options: WriterRoleOptions): typeof DEFAULTS {
  const settings = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    settings[name] = checkTimingMs(name, options[name] ?? DEFAULTS[name]);
  }
  // The liveness query is what keeps a live session from counting as idle on the server.
  if (settings.serverIdleTimeoutMs <= 2 * settings.livenessIntervalMs) {
    throw new GrooveError('INVALID_ARGUMENT', 'serverIdleTimeoutMs must exceed twice livenessIntervalMs', {
      hint: `with livenessIntervalMs ${settings.livenessIntervalMs}, pass more than ${2 * settings.livenessIntervalMs}`,
    });
  }
  return settings;
}

/** Run an event handler; one that throws does not change the role: its error is rethrown on its own tick. */
function emit(handler: (() => void) | undefined): void {
  try {
    handler?.();
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}
