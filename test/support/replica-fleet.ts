// Spawns writer-replica.ts processes and keeps every event they print, in arrival order, with the test's own
// kills in the same log, so a test can check who held the writer role when. Test-only.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export interface ReplicaEvent {
  event: string;
  pid: number;
  /** When it happened, by the replica's clock (same machine): stdout pipes may deliver lines out of order. */
  at: number;
  [detail: string]: unknown;
}

export interface Replica {
  pid: number;
  child: ChildProcess;
  exited: Promise<void>;
  /** Close stdin: it stops (unlocking) and exits. */
  stop(): Promise<void>;
  /** SIGKILL: no cleanup of any kind, as a crashed or OOM-killed replica. */
  kill(): Promise<void>;
}

const script = path.join(import.meta.dirname, 'writer-replica.ts');

/** Milliseconds since the epoch with sub-millisecond precision, comparable across processes. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

export class ReplicaFleet {
  readonly events: ReplicaEvent[] = [];
  readonly replicas: Replica[] = [];
  private waiters: Array<() => void> = [];

  constructor(
    private readonly mode: 'contend' | 'append' | 'append-unfenced',
    private readonly url: string,
    private readonly kbId: string,
    /** The replicas' serverIdleTimeoutMs; their default (30 s) when left out. */
    private readonly serverIdleTimeoutMs?: number,
  ) {}

  /** Start one replica and wait until it says it started. */
  async spawn(): Promise<Replica> {
    const args = [script, this.mode, this.url, this.kbId];
    if (this.serverIdleTimeoutMs !== undefined) args.push(String(this.serverIdleTimeoutMs));
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pid = child.pid ?? 0;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let pending = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.record(JSON.parse(line) as ReplicaEvent);
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const replica: Replica = {
      pid,
      child,
      exited,
      stop: async () => {
        child.stdin?.end();
        await exited;
      },
      kill: async () => {
        this.record({ event: 'killed', pid, at: now() });
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      },
    };
    this.replicas.push(replica);
    await Promise.race([
      this.waitFor((event) => event.event === 'started' && event.pid === pid, 60_000),
      exited.then(() => {
        throw new Error(`replica exited before starting: ${stderr}`);
      }),
    ]);
    return replica;
  }

  private record(event: ReplicaEvent): void {
    this.events.push(event);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolve with the first event (already seen or future) that matches; reject after `deadlineMs`. */
  async waitFor(match: (event: ReplicaEvent) => boolean, deadlineMs: number): Promise<ReplicaEvent> {
    const until = Date.now() + deadlineMs;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no matching replica event within ${deadlineMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The replicas that are writer now by the log: a 'writer' with no later lost/killed/stopped. */
  currentWriters(): number[] {
    const writers = new Set<number>();
    for (const event of [...this.events].sort((a, b) => a.at - b.at)) {
      if (event.event === 'writer') writers.add(event.pid);
      else if (['lost', 'killed', 'stopped'].includes(event.event)) writers.delete(event.pid);
    }
    return [...writers];
  }

  /** Walk the log in time order: the most processes that believed at one moment that they were writer. */
  mostWritersAtOnce(): number {
    const writers = new Set<number>();
    let most = 0;
    for (const event of [...this.events].sort((a, b) => a.at - b.at)) {
      if (event.event === 'writer') writers.add(event.pid);
      else if (['lost', 'killed', 'stopped'].includes(event.event)) writers.delete(event.pid);
      most = Math.max(most, writers.size);
    }
    return most;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => replica.stop()));
  }

  async killAll(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => replica.kill()));
  }
}
