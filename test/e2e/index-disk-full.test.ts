// A full disk for real: the index lives on a 2 MiB tmpfs and `node bin/groove.js` runs out of room in an
// incremental run, in `--force`, and in the lock write itself. Each run exits 1 with one line naming the disk
// and saying nothing was lost; the index stays intact and searchable, and no lock or rebuild file is left.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';
import { mountTmpfs, type Tmpfs, tmpfsUnavailable } from '../support/tmpfs.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const binPath = path.join(repoRoot, 'bin/groove.js');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const skipReason = !hasDist
  ? 'dist/ is missing: run `npm run build`'
  : tmpfsUnavailable
    ? `skipped: ${tmpfsUnavailable}`
    : 'a 2 MiB tmpfs';
if (hasDist && tmpfsUnavailable) console.warn(`index-disk-full: ${skipReason}`);

let kb: TempKb;
let disk: Tmpfs | null = null;
let dbPath = '';
beforeEach(() => {
  kb = createTempKb({ 'a.md': noteText('keepone'), 'b.md': noteText('keeptwo') });
});
afterEach(() => {
  disk?.unmount();
  disk = null;
  kb.cleanup();
});

function groove(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(
    process.execPath,
    [binPath, ...args, '--kb-path', kb.kbPath, '--db-path', dbPath],
    {
      cwd: kb.root,
      encoding: 'utf8',
      env: { ...process.env, GROOVE_OFFLINE: '1', GROOVE_DEBUG: '', ...env },
      timeout: 120_000,
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Notes whose index cannot fit in what is left of the disk. */
function writeManyNotes(count: number): void {
  const words = (n: number, s: number) =>
    Array.from({ length: 60 }, (_, w) => `word${n}x${s}x${w} filler${(n * 31 + s * 7 + w) % 997}`).join(' ');
  for (let n = 0; n < count; n++) {
    const sections = Array.from({ length: 6 }, (_, s) => `## Part ${s}\n\n${words(n, s)}\n`).join('\n');
    kb.write(`bulk/${String(n).padStart(4, '0')}.md`, `# Bulk ${n}\n\n${sections}`);
  }
}

/** Write a filler file until the disk refuses another byte. */
function fillDisk(dir: string): void {
  const fd = fs.openSync(path.join(dir, 'filler'), 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
}

function expectFullDiskError(run: { code: number | null; stdout: string; stderr: string }): void {
  expect(run.code).toBe(1);
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^groove: error: no room to write the index "[^"]+": the disk (is full|has no room left) /,
  );
  // The raw code is for GROOVE_DEBUG; the sentence is groove's own.
  expect(lines[0]).not.toMatch(/SQLITE|ENOSPC|EDQUOT|EFBIG/);
  expect(lines[0]).toContain(`free space on the disk holding "${disk!.dir}"`);
  expect(lines[0]).toContain('nothing was lost');
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

/** The index passes SQLite's integrity check, still holds the two original notes, and a search finds one. */
function expectIndexIntact(): void {
  const db = new Database(dbPath, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const paths = db.prepare('SELECT path FROM documents').pluck().all() as string[];
    expect(paths).toEqual(expect.arrayContaining(['a.md', 'b.md']));
  } finally {
    db.close();
  }
  const search = groove(['search', 'keeponealpha', '--format', 'json']);
  expect(search.stderr).not.toContain('error');
  expect(search.code).toBe(0);
  expect(search.stdout).toContain('"a.md"');
}

function expectNoLeftovers(): void {
  const left = fs.readdirSync(disk!.dir).filter((name) => name !== 'filler' && name !== 'index.db');
  expect(left.filter((name) => /\.lock|\.rebuild/.test(name))).toEqual([]);
}

describe.skipIf(!hasDist || tmpfsUnavailable !== null)(`a full disk (${skipReason})`, () => {
  beforeEach(() => {
    disk = mountTmpfs(2 * 1024 * 1024);
    dbPath = path.join(disk.dir, 'index.db');
    expect(groove(['index', '--model', 'none', '--quiet']).code).toBe(0);
  });

  it('an incremental run that runs out of room: STORAGE_FULL with the hint, the index intact', () => {
    writeManyNotes(400);
    expectFullDiskError(groove(['index', '--quiet']));
    expectNoLeftovers();
    expectIndexIntact();
  }, 120_000);

  it('GROOVE_DEBUG=1 adds the low-level code on a line of its own', () => {
    writeManyNotes(400);
    const run = groove(['index', '--quiet'], { GROOVE_DEBUG: '1' });
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines[0]).toMatch(/^groove: error: no room to write the index /);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^groove: debug: caused by (SQLITE_FULL|ENOSPC)\b/),
    ]);
  }, 120_000);

  it('a --force that runs out of room: the live index untouched, no rebuild file left', () => {
    writeManyNotes(400);
    const before = fs.readFileSync(dbPath);
    expectFullDiskError(groove(['index', '--force', '--model', 'none', '--quiet']));
    expectNoLeftovers();
    expect(fs.readFileSync(dbPath)).toEqual(before);
    expectIndexIntact();
  }, 120_000);

  it('no room even for the lock: a clear error and no empty lock file; runs again once there is room', () => {
    fillDisk(disk!.dir);
    for (const args of [['index'], ['index', '--force', '--model', 'none']]) {
      expectFullDiskError(groove(args));
      expectNoLeftovers();
    }
    // A few KiB left: too little for SQLite's shared-memory file, which search needs as much as index does.
    const filler = path.join(disk!.dir, 'filler');
    fs.truncateSync(filler, fs.statSync(filler).size - 8192);
    for (const args of [['index'], ['search', 'keeponealpha']]) expectFullDiskError(groove(args));
    fs.rmSync(filler);
    expectIndexIntact();
    expect(groove(['index', '--quiet']).code).toBe(0);
  }, 120_000);
});
