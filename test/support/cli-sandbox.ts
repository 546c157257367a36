// A sandbox for running the built CLI as a user would: a temp root, an unrelated working folder, and an
// environment whose groove folders (GROOVE_HOME, HOME, the model cache) all live inside the root, offline, with no
// running server answering for it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { binPath } from './run-bin.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliSandbox {
  root: string;
  /** The folder commands start in: inside the root, holding nothing of groove's. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `groove ARGS…` from `cwd` with `env`; a minute at most. */
  groove(args: readonly string[]): CliResult;
  remove(): void;
}

/**
 * No trace of the real home: this process's environment without GROOVE_* and XDG_*, with HOME, GROOVE_HOME and the
 * model cache inside `root`, offline, and no running server answering for it.
 */
export function isolatedEnv(root: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^(GROOVE_|XDG_)/.test(key)) env[key] = value;
  return {
    ...env,
    HOME: path.join(root, 'home'),
    GROOVE_HOME: path.join(root, 'groove'),
    GROOVE_OFFLINE: '1',
    GROOVE_NO_SERVER: '1',
    GROOVE_MODEL_DIR: path.join(root, 'models'),
  };
}

export function cliSandbox(prefix: string): CliSandbox {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const cwd = path.join(root, 'elsewhere');
  fs.mkdirSync(cwd);
  const env = isolatedEnv(root);
  return {
    root,
    cwd,
    env,
    groove(args) {
      const run = spawnSync(process.execPath, [binPath, ...args], {
        cwd,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { code: run.status, stdout: run.stdout, stderr: run.stderr };
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
