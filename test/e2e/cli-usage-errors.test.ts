// Usage errors end to end: every command-line mistake — a bad query, an impossible date, an out-of-range --k —
// exits 2 with one line naming the flag and the bound, through the real bin and in-process; eval's text report
// keeps its columns apart for any k.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repoRoot, 'bin/groove.js');

let root: string;
let kb: string;

async function groove(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd: root,
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-usage-')));
  kb = path.join(root, 'kb');
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb, { recursive: true });
  fs.writeFileSync(
    path.join(kb, '.groove-eval.yml'),
    'queries:\n  - query: "forgot password recovery link"\n    expected:\n      - path: guides/password-reset.md\n',
  );
  const indexed = await groove(['index', '--kb-path', kb, '--model', 'none', '--quiet']);
  expect(indexed.code, indexed.stderr).toBe(0);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('a database URL that does not parse is a config error, exit 2, before any server is asked', () => {
  it.each([
    ['postgres://groove@127.0.0.1:notaport/kbs', 'the port is not a number'],
    ['postgres://groove@[::1/kbs', 'the IPv6 address opened with "[" is not closed with "]"'],
    ['postgres://groove:s3cret@127.0.0.1:99999/kbs', 'the port is not from 1 to 65535'],
  ])('%s', async (url, problem) => {
    const config = path.join(root, `storage-${problem.length}.toml`);
    fs.writeFileSync(config, `[storage]\nbackend = "postgres"\nurl = "${url}"\n`);
    for (const command of ['index', 'status']) {
      const run = await groove([command, '--kb-path', kb, '--config', config]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(
        `groove: error: [storage] url in "${config}" is not a valid database URL: ${problem} (write it as postgres://user:password@host:5432/database, percent-encoding special characters in the password; no server was contacted)\n`,
      );
    }
  });

  it('names GROOVE_DATABASE_URL when the URL came from there', () => {
    const config = path.join(root, 'storage-env.toml');
    fs.writeFileSync(config, '[storage]\nbackend = "postgres"\nurl = "postgres://file@h/db"\n');
    const run = spawnSync(process.execPath, [bin, 'status', '--kb-path', kb, '--config', config], {
      encoding: 'utf8',
      cwd: root,
      env: { PATH: process.env.PATH, HOME: root, GROOVE_DATABASE_URL: 'postgres://u:hunter2@h:port/db' },
    });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /^groove: error: GROOVE_DATABASE_URL is not a valid database URL: the port is not a number/,
    );
    expect(run.stderr).not.toContain('hunter2');
  });
});

describe('usage errors exit 2', () => {
  it('through the real bin: a query of exclusions only and an impossible date', () => {
    for (const args of [
      ['search', '--kb-path', kb, '--', '-draft'],
      ['search', 'backup', '--kb-path', kb, '--date-from', '2026-02-30'],
    ]) {
      const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: root });
      expect(run.status, `${args.join(' ')}\n${run.stderr}`).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    }
  });

  it.each([
    [['search', 'backup', '--date-to', '2026-04-31'], /date_to must be a calendar date/],
    [
      ['search', 'backup', '--date-from', '2026-03-02', '--date-to', '2026-03-01'],
      /date_from .* is after date_to/,
    ],
    [['search', '--', '-"draft notes" -wip'], /exclu/i],
    [['search', 'backup', '--model', 'no-such-model'], /Unknown embedding model "no-such-model"/],
    [['eval', '--k', '1,1000000000'], /--k "1000000000" must be a whole number from 1 to 1000/],
    [['eval', '--k', '0'], /--k "0" must be a whole number from 1 to 1000/],
    [['eval', '--k', '5,5'], /--k "5,5" lists 5 twice/],
    [['eval', '--limit', '5000'], /--limit "5000" must be a whole number from 1 to 1000/],
    [['tune', '--k', '1,2000'], /--k "2000" must be a whole number from 1 to 1000/],
  ])('%j', async (args, message) => {
    const [command, ...rest] = args;
    const run = await groove([command!, '--kb-path', kb, ...rest]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});

describe('usage errors win over a missing index', () => {
  it('refuses an unsearchable query or an impossible date with exit 2 before looking for the index', async () => {
    const empty = path.join(root, 'elsewhere', 'empty-kb');
    fs.mkdirSync(empty, { recursive: true });
    const noIndex = ['--kb-path', empty, '--db-path', path.join(root, 'elsewhere', 'none.db')];
    for (const args of [
      ['search', ...noIndex, '--', '-draft'],
      ['search', 'backup', ...noIndex, '--date-from', '2026-02-30'],
    ]) {
      const run = await groove(args);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).not.toMatch(/no index/);
    }
    const missing = await groove(['search', 'backup', ...noIndex]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no index/);
  });
});

describe('eval text report', () => {
  it('keeps the label and value columns apart for a four-digit k', async () => {
    const run = await groove(['eval', '--kb-path', kb, '--k', '1,1000', '--limit', '1000', '--no-history']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\n {2}recall@1000 {2}\d\.\d{3}\n/);
    expect(run.stdout).toMatch(/\n {2}nDCG@1000 {4}\d\.\d{3}\n/);
  });
});
