// Spawn test/support/hold-lock.ts as a real second process and wait until it holds the lock; and a pid whose
// process is gone. Test-only.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

export interface LockHolder {
  pid: number;
  /** Close its stdin: it releases the lock and exits. */
  release(): Promise<void>;
  /** SIGKILL it while it holds the lock. */
  kill(): Promise<void>;
}

const script = path.join(import.meta.dirname, 'hold-lock.ts');

export async function holdLock(kind: 'index' | 'gate', target: string): Promise<LockHolder> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind, target], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('held')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`lock holder exited with ${code} before holding: ${err}`)));
  });
  return {
    pid: child.pid ?? 0,
    release: async () => {
      child.stdin?.end();
      await exited;
    },
    kill: async () => {
      kill(child);
      await exited;
    },
  };
}

function kill(child: ChildProcess): void {
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** The pid of a process that has exited (a short-lived child, waited for). */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not start a child process');
  return child.pid;
}
