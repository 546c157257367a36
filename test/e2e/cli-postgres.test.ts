// The CLI on [storage] backend = "postgres" (PGlite over a socket): index, status (naming the backend, password
// masked), search and eval answer as on SQLite; serve's and doctor's refusals are clear; an unreachable server
// names host:port. In-process through runCli.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePgliteServer } from '../support/pglite-server.js';
import { runGroove } from '../support/run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** Two queries on examples/sample-kb, one a miss-prone paraphrase. */
const GOLDEN =
  'queries:\n  - query: "how do I restore a backup"\n    expected:\n      - path: ops/backup-runbook.md\n' +
  '  - query: "reset my password"\n    expected:\n      - path: guides/password-reset.md\n';

const pgServer = usePgliteServer({ withVector: false });
let root: string;
let kb: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
  kb = path.join(root, 'kb');
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb, { recursive: true });
  fs.writeFileSync(path.join(kb, '.groove-eval.yml'), GOLDEN);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const env = () => ({ GROOVE_OFFLINE: '1', GROOVE_DATABASE_URL: pgServer().url });
const STORAGE = '[storage]\nbackend = "postgres"\nkb = "sample"\n';

/** Run groove in a folder whose groove.toml selects the postgres backend. */
async function groove(args: string[], folder = 'pg') {
  const cwd = path.join(root, folder);
  fs.mkdirSync(cwd, { recursive: true });
  fs.writeFileSync(path.join(cwd, 'groove.toml'), folder === 'pg' ? STORAGE : '');
  return runGroove(args, { cwd, env: env() });
}

describe('groove on the postgres backend', () => {
  it('indexes, reports status, searches and evaluates exactly as on SQLite', async () => {
    const indexed = await groove(['index', '--kb-path', kb, '--model', 'none']);
    expect(indexed.code, indexed.stderr).toBe(0);
    const status = await groove(['status', '--kb-path', kb]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(
      `Backend:       postgres postgres://postgres:***@127.0.0.1:${pgServer().port}/postgres (kb "sample")`,
    );
    expect(status.stdout).not.toContain('not-a-secret');
    const json = JSON.parse((await groove(['status', '--kb-path', kb, '--format', 'json'])).stdout);
    expect(json).toMatchObject({ backend: 'postgres', model: 'none' });
    expect(json.documents).toBeGreaterThan(5);

    const lite = await groove(
      ['index', '--kb-path', kb, '--model', 'none', '--db-path', path.join(root, 'lite.db')],
      'lite',
    );
    expect(lite.code, lite.stderr).toBe(0);
    const liteStatus = JSON.parse(
      (
        await groove(
          ['status', '--kb-path', kb, '--db-path', path.join(root, 'lite.db'), '--format', 'json'],
          'lite',
        )
      ).stdout,
    );
    expect(liteStatus).toMatchObject({ backend: 'sqlite', documents: json.documents, chunks: json.chunks });

    const search = ['search', 'reset password', '--kb-path', kb, '--format', 'json'];
    const pgSearch = await groove(search);
    expect(pgSearch.code, pgSearch.stderr).toBe(0);
    const liteSearch = await groove([...search, '--db-path', path.join(root, 'lite.db')], 'lite');
    expect(JSON.parse(pgSearch.stdout).results).toEqual(JSON.parse(liteSearch.stdout).results);

    const evaluate = ['eval', '--kb-path', kb, '--format', 'json', '--no-history'];
    const pgEval = await groove(evaluate);
    expect(pgEval.code, pgEval.stderr).toBe(0);
    const liteEval = await groove([...evaluate, '--db-path', path.join(root, 'lite.db')], 'lite');
    expect(JSON.parse(pgEval.stdout).aggregate).toEqual(JSON.parse(liteEval.stdout).aggregate);
  });

  it('refuses doctor plainly (cannot run: exit 2)', async () => {
    const refused = await groove(['doctor', '--kb-path', kb]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '`groove doctor` is not supported yet with [storage] backend = "postgres"',
    );
  });

  it('names host:port and the fix when the server is not there', async () => {
    const cwd = path.join(root, 'down');
    fs.mkdirSync(cwd, { recursive: true });
    fs.writeFileSync(path.join(cwd, 'groove.toml'), STORAGE);
    const down = await runGroove(['status', '--kb-path', kb], {
      cwd,
      env: { GROOVE_OFFLINE: '1', GROOVE_DATABASE_URL: 'postgres://groove:pw-42@127.0.0.1:1/groove' },
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot reach PostgreSQL at 127.0.0.1:1');
    expect(down.stderr).toContain('postgres://groove:***@127.0.0.1:1/groove');
    expect(down.stderr).not.toContain('pw-42');
  });
});
