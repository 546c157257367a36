// One long-lived PostgreSQL session that notices its own death: the client's error and end events, and a
// periodic `SELECT 1` that must answer within a deadline (a half-open TCP connection never errors by itself).
// The writer role holds its advisory lock on one; the commit listener LISTENs on another.
import pg from 'pg';

export interface DedicatedSessionOptions {
  /** How to connect (`pg` client settings: connectionString, host, password…). Never logged. */
  connection: pg.ClientConfig;
  /** How often the session proves it is alive with `SELECT 1`. Range 50–60,000 ms. */
  livenessIntervalMs: number;
  /** How long that `SELECT 1` may take before the session counts as dead. Range 50–60,000 ms. */
  livenessTimeoutMs: number;
  /**
   * The server ends the session after this long idle (`idle_session_timeout`), so a session whose client
   * vanished without closing TCP (host died) frees its locks; the liveness query keeps a live one busy.
   */
  serverIdleTimeoutMs: number;
  /** Called once, when the session dies on its own (not after close()). */
  onLost: (cause: unknown) => void;
}

export interface DedicatedSession {
  readonly client: pg.Client;
  /** The server's process id for this session (`pg_backend_pid()`), as pg_locks and pg_stat_activity show it. */
  readonly backendPid: number;
  /** True until the session dies or is closed. */
  readonly alive: boolean;
  /** Run queries with the liveness check paused: a long transaction is its own proof of life. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** End the session without calling onLost. */
  close(): Promise<void>;
}

/** Connect, read the backend pid, set the idle timeout and start the liveness check. */
export async function openDedicatedSession(options: DedicatedSessionOptions): Promise<DedicatedSession> {
  const client = new pg.Client({ ...options.connection, keepAlive: true });
  // An error event with no listener would crash the process: until the session is up, it only fails connect().
  client.on('error', () => {});
  await client.connect();
  let alive = true;
  let busy = 0;
  let timer: NodeJS.Timeout | undefined;
  const finish = (cause: unknown, report: boolean) => {
    if (!alive) return;
    alive = false;
    clearInterval(timer);
    client.end().catch(() => {});
    if (report) options.onLost(cause);
  };
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pg_backend_pid() AS pid, set_config('idle_session_timeout', $1, false)`,
      [String(Math.round(options.serverIdleTimeoutMs))],
    );
    client.on('error', (error) => finish(error, true));
    client.on('end', () => finish(new Error('the session ended'), true));
    timer = setInterval(() => {
      if (busy === 0)
        void checkLiveness(client, options.livenessTimeoutMs).catch((error) => finish(error, true));
    }, options.livenessIntervalMs);
    timer.unref();
    return {
      client,
      backendPid: rows[0]!.pid,
      get alive() {
        return alive;
      },
      async exclusive(work) {
        busy += 1;
        try {
          return await work();
        } finally {
          busy -= 1;
        }
      },
      async close() {
        finish(null, false);
      },
    };
  } catch (error) {
    finish(error, false);
    throw error;
  }
}

async function checkLiveness(client: pg.Client, timeoutMs: number): Promise<void> {
  let deadline: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    deadline = setTimeout(() => reject(new Error(`no answer to SELECT 1 within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([client.query('SELECT 1'), timedOut]);
  } finally {
    clearTimeout(deadline);
  }
}
