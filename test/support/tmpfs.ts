// A small real file system for tests of full and read-only disks: a tmpfs mounted on a temp folder. Needs
// Linux and the right to mount (root); `tmpfsUnavailable` says why not, for `it.skipIf`. Test-only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Tmpfs {
  dir: string;
  /** Mount it read-only (`ro`) or writable again, keeping its files. */
  remount(mode: 'ro' | 'rw'): void;
  unmount(): void;
}

function run(args: string[]): string | null {
  const result = spawnSync('mount', args, { encoding: 'utf8' });
  if (result.error) return result.error.message;
  return result.status === 0 ? null : result.stderr.trim() || `mount exited ${result.status}`;
}

/** Mount a tmpfs of `sizeBytes` on a new temp folder. */
export function mountTmpfs(sizeBytes: number): Tmpfs {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-tmpfs-'));
  const failure = run(['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir]);
  if (failure) {
    fs.rmdirSync(dir);
    throw new Error(`cannot mount a tmpfs: ${failure}`);
  }
  return {
    dir,
    remount(mode) {
      const error = run(['-o', `remount,${mode}`, dir]);
      if (error) throw new Error(`cannot remount ${dir} ${mode}: ${error}`);
    },
    unmount() {
      spawnSync('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why this machine cannot mount a tmpfs for a test, or null when it can. */
export const tmpfsUnavailable: string | null = (() => {
  if (process.platform !== 'linux') return 'tmpfs tests need Linux';
  try {
    mountTmpfs(1024 * 1024).unmount();
    return null;
  } catch (error) {
    return `${(error as Error).message} (run the tests as root to include them)`;
  }
})();
