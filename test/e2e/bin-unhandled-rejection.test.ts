// The bin shim's last line of defence: a promise rejected with nobody to handle it ends the real process with
// one `groove: error:` line and a non-zero exit — no stack unless GROOVE_DEBUG is set.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { binPath } from '../support/run-bin.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const preload = path.join(repoRoot, 'test/support/reject-unhandled.mjs');

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb();
});
afterEach(() => kb.cleanup());

/**
 * `groove serve` over stdio with its stdin held open, so the command is still running when the preload's
 * rejection fires; resolves with the exit code and stderr once the process ends (or is killed after 20 s).
 */
function serveUntilExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--import', preload, binPath, 'serve', '--kb-path', kb.kbPath, '--model', 'none', '--no-watch'],
    { cwd: kb.root, env: { ...process.env, GROOVE_OFFLINE: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe.skipIf(!hasDist)('bin/groove.js and unhandled rejections (needs npm run build)', () => {
  it('prints one error line and exits 1', async () => {
    const run = await serveUntilExit({ GROOVE_DEBUG: '' });
    expect(run.code).toBe(1);
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('groove: error:'));
    expect(errors).toEqual(['groove: error: a rejection nobody handled (second line of the message)']);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('adds the stack with GROOVE_DEBUG=1', async () => {
    const run = await serveUntilExit({ GROOVE_DEBUG: '1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('groove: error: a rejection nobody handled');
    expect(run.stderr).toMatch(/\n\s+at /);
  });
});
