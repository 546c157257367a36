// Run `groove <args>` in-process with captured stdout and stderr (no network: GROOVE_OFFLINE is set unless the
// caller passes its own env).
import path from 'node:path';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The env tests use by default: offline, with the model cache and groove's own folders inside the test's folder. */
export function offlineEnv(workDir: string): Record<string, string> {
  return {
    GROOVE_OFFLINE: '1',
    GROOVE_MODEL_DIR: path.join(workDir, 'cache'),
    GROOVE_HOME: path.join(workDir, 'groove-home'),
  };
}

export async function runGroove(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: options.env ?? offlineEnv(options.cwd),
    cwd: options.cwd,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}
