// Runs the shipped CLI (`node bin/groove.js`, built into dist/) as a user would, offline, and collects its exit
// code and output. Test-only.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

export const binPath = path.resolve(import.meta.dirname, '../../bin/groove.js');

export interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `groove <args>` in `cwd`, with GROOVE_OFFLINE=1 so no model download can start; `env` adds variables. */
export function runBin(args: string[], cwd: string, env: Record<string, string> = {}): BinRun {
  const result = spawnSync(process.execPath, [binPath, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GROOVE_OFFLINE: '1', ...env },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `groove <args>` in `cwd`, offline, SIGKILLed as soon as its stderr so far satisfies `killWhen`; resolves with
 * the signal it ended by (null when it exited first) and its stderr.
 */
export function killBinWhen(
  args: string[],
  cwd: string,
  killWhen: (stderr: string) => boolean,
  env: Record<string, string> = {},
): Promise<{ signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [binPath, ...args], {
    cwd,
    env: { ...process.env, GROOVE_OFFLINE: '1', ...env },
  });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => {
    stderr += data.toString();
    if (killWhen(stderr)) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.on('exit', (_code, signal) => resolve({ signal, stderr })));
}
