// One long-lived PostgreSQL session that notices its own death: the client's error and end events, and a
// periodic `SELECT 1` that must answer within a deadline (a half-open TCP connection never errors by itself).
// The writer role holds its advisory lock on one; the commit listener LISTENs on another.
import pg from 'pg';
import { GrooveError } from '../../errors.js';

/** Why a session died on its own: an error or end event, or no answer to the liveness query in time. */
export interface SessionLoss {
  reason: 'connection-lost' | 'liveness-timeout';
  /** The driver's error, for code-only logging: its text may quote the server. */
  cause: unknown;
}

/** The range every interval and timeout of the coordination sessions accepts, in milliseconds. */
export const SESSION_TIMING_RANGE_MS = { min: 50, max: 60_000 } as const;

/** Refuse an interval or timeout outside SESSION_TIMING_RANGE_MS (INVALID_ARGUMENT), naming the option. */
export function checkTimingMs(name: string, value: number): number {
  const { min, max } = SESSION_TIMING_RANGE_MS;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new GrooveError('INVALID_ARGUMENT', `${name} must be between ${min} and ${max} ms, not ${value}`, {
      hint: `pass ${name} in milliseconds within that range, or leave it out for the default`,
    });
  }
  return value;
}

export interface DedicatedSessionOptions {
  /** How to connect (`pg` client settings: connectionString, host, password…). Never logged. */
  connection: pg.ClientConfig;
  /** How often the session proves it is alive with `SELECT 1`. Range 50–60,000 ms. */
  livenessIntervalMs: number;
  /** How long that `SELECT 1` may take before the session counts as dead. Range 50–60,000 ms. */
  livenessTimeoutMs: number;
  /**
   * The server ends the session after this long idle, inside a transaction or not (`idle_session_timeout`,
   * `idle_in_transaction_session_timeout`), so a session whose client vanished without closing TCP (host died,
   * process frozen) frees its locks; the liveness query keeps a live one busy. Work in a transaction must not
   * leave it waiting on the client that long: compute first, then write.
   */
  serverIdleTimeoutMs: number;
  /** Called once, when the session dies on its own (not after close()). */
  onLost: (loss: SessionLoss) => void;
}

export interface DedicatedSession {
  readonly client: pg.Client;
  /** The server's process id for this session (`pg_backend_pid()`), as pg_locks and pg_stat_activity show it. */
  readonly backendPid: number;
  /** True until the session dies or is closed. */
  readonly alive: boolean;
  /**
   * Run `work` alone on the session, after any work before it; the liveness check waits meanwhile (a long
   * transaction is its own proof of life). Every query on the session goes through here.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** End the session without calling onLost. */
  close(): Promise<void>;
}

/** Connect, read the backend pid, set the idle timeout and start the liveness check. */
export async function openDedicatedSession(options: DedicatedSessionOptions): Promise<DedicatedSession> {
  // TCP keepalive after 10 s idle instead of the OS default of two hours. Node sets only that delay; the OS's
  // probe interval and count (75 s × 9 on Linux by default) decide the rest, so work stuck on a half-open
  // connection is caught by the probe below, not by TCP.
  const client = new pg.Client({
    ...options.connection,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An error event with no listener would crash the process: until the session is up, it only fails connect().
  client.on('error', () => {});
  await client.connect();
  let alive = true;
  let busy = 0;
  let tail: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  // One piece of work at a time on the session: pg queues overlapping queries but is dropping that in pg 9.
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    busy += 1;
    const run = tail.then(work).finally(() => {
      busy -= 1;
    });
    tail = run.catch(() => {});
    return run;
  };
  const finish = (loss: SessionLoss | null) => {
    if (!alive) return;
    alive = false;
    clearInterval(timer);
    client.end().catch(() => {});
    // A session that died on its own may sit on a half-open connection where a polite end never completes:
    // drop the socket, so a query still waiting on it fails now and the work queued behind it can go on.
    if (loss) client.connection.stream.destroy();
    if (loss) options.onLost(loss);
  };
  let lastHeardAt = Date.now();
  client.connection.on('message', () => {
    lastHeardAt = Date.now();
  });
  let probing = false;
  /**
   * Work in progress does not prove the session alive: on a cut link its query waits for an answer that never
   * comes, and TCP notices only after minutes. Once the server has been silent for the liveness timeout during
   * work, ask it on a second connection whether this session's backend still exists.
   */
  const checkWhileBusy = (backendPid: number) => {
    if (probing || Date.now() - lastHeardAt < options.livenessTimeoutMs) return;
    probing = true;
    void probeBackend(options.connection, backendPid, options.livenessTimeoutMs).then((found) => {
      probing = false;
      if (found === 'gone') finish({ reason: 'connection-lost', cause: null });
      else if (found === 'unreachable') finish({ reason: 'liveness-timeout', cause: null });
    });
  };
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pg_backend_pid() AS pid, set_config('idle_session_timeout', $1, false),
         set_config('idle_in_transaction_session_timeout', $1, false)`,
      [String(Math.round(options.serverIdleTimeoutMs))],
    );
    client.on('error', (cause) => finish({ reason: 'connection-lost', cause }));
    client.on('end', () => finish({ reason: 'connection-lost', cause: null }));
    const backendPid = rows[0]!.pid;
    timer = setInterval(() => {
      if (busy > 0) {
        checkWhileBusy(backendPid);
        return;
      }
      exclusive(() => checkLiveness(client, options.livenessTimeoutMs)).then(
        (answered) => answered || finish({ reason: 'liveness-timeout', cause: null }),
        (cause) => finish({ reason: 'connection-lost', cause }),
      );
    }, options.livenessIntervalMs);
    timer.unref();
    return {
      client,
      backendPid,
      get alive() {
        return alive;
      },
      exclusive,
      async close() {
        finish(null);
      },
    };
  } catch (error) {
    finish(null);
    throw error;
  }
}

/** True when `SELECT 1` answered within the timeout, false when it did not; rejects when it failed. */
async function checkLiveness(client: pg.Client, timeoutMs: number): Promise<boolean> {
  let deadline: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    deadline = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([client.query('SELECT 1').then(() => true as const), timedOut]);
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * Whether the backend `pid` still exists, asked on a short-lived connection that must answer within
 * `timeoutMs`: `unreachable` when it cannot (the server or the link is down), `unknown` when the server answered
 * with an error (it is reachable, so the session may be working).
 */
async function probeBackend(
  connection: pg.ClientConfig,
  pid: number,
  timeoutMs: number,
): Promise<'present' | 'gone' | 'unreachable' | 'unknown'> {
  const probe = new pg.Client({
    ...connection,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  probe.on('error', () => {});
  let deadline: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'unreachable'>((resolve) => {
    deadline = setTimeout(() => resolve('unreachable'), timeoutMs * 2);
  });
  const asked = (async () => {
    await probe.connect();
    const { rows } = await probe.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
    return rows.length > 0 ? ('present' as const) : ('gone' as const);
  })().catch((error: unknown) =>
    typeof (error as { code?: unknown }).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as { code: string }).code)
      ? ('unknown' as const)
      : ('unreachable' as const),
  );
  try {
    return await Promise.race([asked, timedOut]);
  } finally {
    clearTimeout(deadline);
    probe.end().catch(() => {});
  }
}
