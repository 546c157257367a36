// A `groove index --force` SIGKILLed mid-rebuild leaves `<db>.rebuild` and its WAL/SHM beside the index; the
// next writer of any kind (here a plain incremental `groove index`) removes them once it holds the lock.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const binPath = path.join(repoRoot, 'bin/groove.js');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({ 'keep.md': noteText('keep') });
});
afterEach(() => kb.cleanup());

const args = (...extra: string[]) => ['index', '--kb-path', kb.kbPath, '--db-path', kb.dbPath, ...extra];
const rebuildFiles = () =>
  fs.readdirSync(kb.root).filter((name) => name.startsWith(`${path.basename(kb.dbPath)}.rebuild`));

function groove(argv: string[]) {
  const result = spawnSync(process.execPath, [binPath, ...argv], {
    cwd: kb.root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(!hasDist)('leftovers of a killed --force (needs `npm run build`)', () => {
  it('are removed by the next plain `groove index`', async () => {
    expect(groove(args('--model', 'none', '--quiet')).code).toBe(0);
    for (let n = 0; n < 1500; n++) kb.write(`bulk/${String(n).padStart(4, '0')}.md`, noteText(`bulk${n}`));

    const child = spawn(process.execPath, [binPath, ...args('--force', '--model', 'none', '--quiet')], {
      cwd: kb.root,
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // Kill once the rebuild's WAL holds data: the run is mid-way, well before the swap.
    const deadline = Date.now() + 30_000;
    while ((fs.statSync(`${kb.dbPath}.rebuild-wal`, { throwIfNoEntry: false })?.size ?? 0) === 0) {
      if (Date.now() > deadline) throw new Error('the rebuild never started writing');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(rebuildFiles()).toEqual(
      expect.arrayContaining(['index.groove.db.rebuild', 'index.groove.db.rebuild-wal']),
    );

    const next = groove(args('--quiet', '--format', 'json'));
    expect(next.stderr).not.toMatch(/error/);
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ indexed: 1500, unchanged: 1, documents: 1501 });
    expect(rebuildFiles()).toEqual([]);
    expect(fs.existsSync(`${kb.dbPath}.lock`)).toBe(false);
  }, 120_000);
});
