// Several `groove eval` processes at once on one knowledge base: each one's run must be in the history
// afterwards (none may overwrite another's save with a history read before it). Real processes of the built CLI;
// skipped when dist/ has not been built (`npm test` builds first).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evalHistoryIn, kbOwnFolderFor } from '../support/kb-own-folder.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repoRoot, 'bin/groove.js');
const built = fs.existsSync(path.join(repoRoot, 'dist/src/cli/cmd-eval.js'));
const childEnv = { ...process.env, GROOVE_OFFLINE: '1' } as Record<string, string>;

const TRIALS = 4;
const AT_ONCE = 4;

const GOLDEN = `queries:
  - id: reset
    query: "forgot password recovery link"
    expected:
      - path: guides/password-reset.md
  - id: backup
    query: "pg_restore restore database"
    expected:
      - path: ops/backup-runbook.md
`;

let root: string;
let kb: string;
beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
  kb = path.join(root, 'kb');
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb, { recursive: true });
  fs.writeFileSync(path.join(kb, '.groove-eval.yml'), GOLDEN);
  await run(process.execPath, [bin, 'index', '--kb-path', kb, '--model', 'none', '--quiet'], {
    env: childEnv,
  });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe.skipIf(!built)('concurrent groove eval runs', () => {
  it('each save their run in the history', async () => {
    const historyPath = evalHistoryIn(kbOwnFolderFor(kb, childEnv));
    const kept: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      fs.rmSync(historyPath, { force: true });
      const outputs = await Promise.all(
        Array.from({ length: AT_ONCE }, () =>
          run(process.execPath, [bin, 'eval', '--kb-path', kb, '--format', 'json'], { env: childEnv }),
        ),
      );
      for (const { stderr } of outputs) expect(stderr).not.toMatch(/\n\s+at /);
      const history = JSON.parse(fs.readFileSync(historyPath, 'utf8')) as { runs: unknown[] };
      kept.push(history.runs.length);
    }
    expect(kept).toEqual(Array.from({ length: TRIALS }, () => AT_ONCE));
  }, 120_000);
});
