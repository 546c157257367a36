// `groove index` / `groove status` through runCli in-process: the bad-input KB from the issue, output modes,
// JSON shapes, and the one-line errors for a missing KB path, a missing KB and a corrupt index.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/main.js';
import { damageIndex } from '../support/damage-index.js';
import { createOverlongTree, removeDeepTree } from '../support/overlong-path.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

const hasMkfifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).error === undefined;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({ 'good-one.md': noteText('goodone'), 'notes/good-two.md': noteText('goodtwo') });
});
afterEach(() => kb.cleanup());

async function groove(args: string[], options: { cwd?: string } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: options.cwd ?? kb.root,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

const kbArgs = () => ['--kb-path', kb.kbPath, '--db-path', kb.dbPath];
const indexArgs = (...extra: string[]) => ['index', ...kbArgs(), '--model', 'none', ...extra];
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

/** One line on stderr, no stack frames, and it names what to do. */
function expectOneLineError(run: CliRun, ...mustContain: string[]): void {
  expect(run.code).not.toBe(0);
  expect(run.stdout).toBe('');
  expect(lines(run.stderr)).toHaveLength(1);
  expect(run.stderr).toMatch(/^groove: error: /);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  for (const text of mustContain) expect(run.stderr).toContain(text);
}

describe('groove index on a KB full of bad input', () => {
  it('exits 0, indexes the good files, names every bad one, and keeps what was indexed before', async () => {
    kb.write('victim-binary.md', noteText('victimone'));
    kb.write('victim-link.md', noteText('victimtwo'));
    expect((await groove(indexArgs('--quiet'))).code).toBe(0);

    // Break two indexed files, and add one bad file of every kind.
    kb.write('victim-binary.md', Buffer.from('# now binary\n\u0000\u0001\u0002'));
    kb.remove('victim-link.md');
    fs.symlinkSync(kb.abs('good-one.md'), kb.abs('victim-link.md'));
    fs.symlinkSync(kb.abs('good-one.md'), kb.abs('link.md'));
    const outside = path.join(kb.root, 'outside.md');
    fs.writeFileSync(outside, noteText('hardlinked'));
    fs.linkSync(outside, kb.abs('hard-link.md'));
    const big = kb.write('big.md', '');
    fs.truncateSync(big, 60 * 1024 * 1024); // sparse: fast to create, still 60 MB by stat
    kb.write('binary.md', Buffer.from([0x23, 0x20, 0x68, 0x69, 0x00, 0xff, 0x00, 0x10]));
    // A NUL far past the first 8 KiB is still binary: the whole file is checked.
    kb.write(
      'late-nul.md',
      Buffer.concat([Buffer.from(noteText('latenul').repeat(40)), Buffer.from('\0tail')]),
    );
    kb.write('latin1.md', Buffer.from('# Caf\xe9 cr\xe8me\n\nNot UTF-8 at all.\n', 'latin1'));
    kb.write(
      'broken-frontmatter.md',
      '---\ntitle: [oops\n---\n# Still here\n\nThe brokenfmbody text is indexed.\n',
    );
    kb.write('empty.md', '');
    if (hasMkfifo) spawnSync('mkfifo', [kb.abs('pipe.md')]);

    const run = await groove(indexArgs());
    expect(run.code).toBe(0);
    const bad = {
      'link.md': 'symbolic link',
      'victim-link.md': 'symbolic link',
      'hard-link.md': 'hard link',
      'big.md': 'max_file_size',
      'binary.md': 'binary',
      'late-nul.md': 'binary',
      'latin1.md': 'UTF-8',
      'victim-binary.md': 'binary',
      'broken-frontmatter.md': 'frontmatter',
      'empty.md': 'no text',
      ...(hasMkfifo ? { 'pipe.md': 'FIFO' } : {}),
    };
    const stderrLines = lines(run.stderr);
    for (const [file, reason] of Object.entries(bad)) {
      const line = stderrLines.find((l) => l.includes(`warning:`) && l.includes(file) && l.includes(reason));
      expect(line, `a warning naming ${file} (${reason})`).toBeDefined();
    }
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toContain('Frontmatter not parsed in 1 files');

    const docs = kb.documents();
    expect([...docs.keys()].sort()).toEqual([
      'broken-frontmatter.md',
      'good-one.md',
      'notes/good-two.md',
      'victim-binary.md',
      'victim-link.md',
    ]);
    // The two broken files keep their earlier, good content.
    expect(kb.ftsMatches('victimonealpha').words).toBe(1);
    expect(kb.ftsMatches('victimtwoalpha').words).toBe(1);
    expect(kb.ftsMatches('brokenfmbody').words).toBe(1);
  });
});

describe('groove index and .grooveignore', () => {
  it('never indexes a folder ignored by a pattern past the 1000th', async () => {
    const patterns = Array.from({ length: 1500 }, (_, i) => `unused-${i}/`);
    patterns[1200] = 'secret/';
    kb.write('.grooveignore', `${patterns.join('\n')}\n`);
    kb.write('secret/plan.md', noteText('hiddenplan'));
    const run = await groove(indexArgs());
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('patterns');
    expect([...kb.documents().keys()].sort()).toEqual(['good-one.md', 'notes/good-two.md']);
    const search = await groove(['search', 'hiddenplanalpha', ...kbArgs(), '--format', 'json']);
    expect(JSON.parse(search.stdout).results).toEqual([]);
  });

  it('refuses to index at all when .grooveignore cannot be used', async () => {
    kb.write('.grooveignore', Buffer.from('secret/\n\xff\n', 'latin1'));
    kb.write('secret/plan.md', noteText('hiddenplan'));
    const run = await groove(indexArgs());
    expectOneLineError(run, '.grooveignore', 'not valid UTF-8', 'nothing was indexed');
    expect(fs.existsSync(kb.dbPath) ? [...kb.documents().keys()] : []).toEqual([]);
  });
});

describe('groove index with a path over PATH_MAX', () => {
  it.skipIf(process.platform === 'win32')(
    'skips that file with the reason and indexes the rest',
    async () => {
      const name = `${'n'.repeat(240)}.md`;
      createOverlongTree(kb.kbPath, name, noteText('toodeep'));
      try {
        const run = await groove(indexArgs());
        expect(run.code).toBe(0);
        expect(run.stderr).toMatch(
          new RegExp(`warning: skipped long/.*/${name}: its absolute path is longer`),
        );
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect([...kb.documents().keys()].sort()).toEqual(['good-one.md', 'notes/good-two.md']);
        const again = await groove(indexArgs('--quiet'));
        expect(again.code).toBe(0);
      } finally {
        removeDeepTree(path.join(kb.kbPath, 'long'));
      }
    },
  );
});

describe('groove index output', () => {
  it('--format json prints one object with the documented snake_case keys', async () => {
    const run = await groove(indexArgs('--format', 'json'));
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(1);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    for (const key of [
      'indexed',
      'updated',
      'renamed',
      'deleted',
      'skipped',
      'unchanged',
      'documents',
      'chunks',
    ]) {
      expect(typeof summary[key], key).toBe('number');
    }
    expect(summary).toMatchObject({ indexed: 2, documents: 2, chunks: 4, unchanged: 0 });
    expect(Number.isInteger(summary.duration_ms)).toBe(true);
    expect(Object.keys(summary).every((key) => /^[a-z0-9_]+$/.test(key))).toBe(true);
  });

  it('default prints the first 20 files then a count; --verbose every file; --quiet only warnings; --progress a line per 5% when not a TTY', async () => {
    const manyFiles = 60;
    for (let i = 0; i < manyFiles; i++) kb.write(`bulk/n${i}.md`, noteText(`n${i}`));
    fs.symlinkSync(kb.abs('good-one.md'), kb.abs('linked.md'));
    const total = manyFiles + 3;

    const normal = await groove(indexArgs());
    expect(lines(normal.stderr).filter((l) => l.includes('indexed: '))).toHaveLength(20);
    expect(normal.stderr).toMatch(/\(1 chunk\)|\(2 chunks\)/);
    expect(normal.stderr).not.toContain('(1 chunks)');
    expect(lines(normal.stderr).at(-1)).toBe(
      '  … and 42 more files (groove index --verbose prints every line)',
    );
    expect(normal.stderr).toContain('linked.md'); // warnings are not held back with the file lines
    expect(normal.stdout).toMatch(/^Indexed 62, updated 0, renamed 0, deleted 0, skipped 1, unchanged 0 in /);

    const verbose = await groove(indexArgs('--verbose', '--force'));
    expect(lines(verbose.stderr).filter((l) => l.includes('indexed: '))).toHaveLength(manyFiles + 2);
    expect(verbose.stderr).not.toContain('more files');

    kb.write('good-one.md', noteText('goodone').replace('goodonealpha', 'changed'));
    const quiet = await groove(indexArgs('--quiet'));
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('updated: ');
    expect(lines(quiet.stderr)).toEqual([
      expect.stringMatching(/warning: skipped linked\.md: it is a symbolic link/),
    ]);
    expect(quiet.stdout).toContain('updated 1');

    const progress = await groove(indexArgs('--progress', '--force'));
    expect(progress.code).toBe(0);
    const progressLines = lines(progress.stderr).filter((l) => l.startsWith('Files: '));
    expect(progressLines.length).toBeGreaterThanOrEqual(2);
    expect(progressLines.length).toBeLessThanOrEqual(21);
    expect(progressLines.at(-1)).toMatch(
      new RegExp(`^Files: ${total}/${total} \\(100%\\)(, [\\d.]+ files/s)?$`),
    );
    for (const line of progressLines) expect(Number(/\((\d+)%\)/.exec(line)![1])).toBeLessThanOrEqual(100);
    expect(progress.stderr).not.toContain('indexed: ');
    expect(progress.stderr).not.toContain('\r');
  });

  it('refuses --quiet with --progress as a usage error', async () => {
    const run = await groove(indexArgs('--quiet', '--progress'));
    expect(run.code).toBe(2);
    expectOneLineError(run, '--quiet and --progress');
  });
});

describe('groove status', () => {
  it('prints snake_case JSON and a readable text report', async () => {
    await groove(indexArgs('--quiet'));
    const json = await groove(['status', ...kbArgs(), '--format', 'json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(report).every((key) => /^[a-z0-9_]+$/.test(key))).toBe(true);
    expect(report).toMatchObject({
      kb_path: kb.kbPath,
      db_path: kb.dbPath,
      documents: 2,
      chunks: 4,
      vectors: 0,
      model: 'none',
      context_mode: 'off',
      frontmatter_errors: 0,
      links: 0,
      dangling_links: 0,
    });
    expect(report.db_size_bytes).toBeGreaterThan(0);
    expect(typeof report.last_indexed_at).toBe('string');

    const text = await groove(['status', ...kbArgs()]);
    expect(text.stdout).toMatch(/Documents:\s+2\n/);
    expect(text.stdout).toMatch(/Links:\s+0\n/);
    expect(text.stdout).toContain('none (lexical-only)');
  });
});

describe('one-line errors with the fix', () => {
  it('a missing --kb-path', async () => {
    const run = await groove(['index', '--model', 'none']);
    expectOneLineError(run, '--kb-path', 'kb_path');
  });

  it('a KB folder that does not exist', async () => {
    const missing = path.join(kb.root, 'nope');
    const run = await groove(['index', '--kb-path', missing, '--model', 'none']);
    expectOneLineError(run, `"${missing}"`, '--kb-path');
    expect(fs.existsSync(path.join(kb.root, '.groove.db'))).toBe(false);
  });

  it('status before any index', async () => {
    expectOneLineError(await groove(['status', ...kbArgs()]), 'groove index');
  });

  it('a file that is not an index: refused by index, status and --force, and left as it was', async () => {
    const garbage = Buffer.from('this is not a database, just some garbage bytes\n'.repeat(200));
    fs.writeFileSync(kb.dbPath, garbage);
    for (const args of [indexArgs(), ['status', ...kbArgs()], indexArgs('--force')])
      expectOneLineError(await groove(args), kb.dbPath, 'not a groove index', '--db-path');
    expect(fs.readFileSync(kb.dbPath)).toEqual(garbage);
  });

  it('a damaged index file, for index and status, until --force replaces it', async () => {
    expect((await groove(indexArgs('--quiet'))).code).toBe(0);
    damageIndex(kb.dbPath);
    expectOneLineError(await groove(indexArgs()), kb.dbPath, '--force');
    expectOneLineError(await groove(['status', ...kbArgs()]), kb.dbPath, '--force');
    const rebuilt = await groove(indexArgs('--force', '--quiet'));
    expect(rebuilt.code).toBe(0);
    expect((await groove(['status', ...kbArgs(), '--format', 'json'])).stdout).toContain('"documents":2');
  });

  it('a --db-path that is a folder or inside the KB: every command exits 2 before any work', async () => {
    const folder = path.join(kb.root, 'a-folder');
    fs.mkdirSync(folder);
    const commands = [['index', '--force'], ['search', 'goodone'], ['status'], ['eval'], ['tune']];
    for (const [dbPath, says] of [
      [folder, 'is a folder'],
      [kb.abs('good-one.md'), 'inside the knowledge base'],
    ] as const) {
      for (const command of commands) {
        const run = await groove([...command, '--kb-path', kb.kbPath, '--db-path', dbPath]);
        expectOneLineError(run, dbPath, says, '--db-path');
        expect(run.code).toBe(2);
      }
    }
    expect(fs.readdirSync(kb.root).filter((name) => name.startsWith('a-folder'))).toEqual(['a-folder']);
    expect(fs.readFileSync(kb.abs('good-one.md'), 'utf8')).toBe(noteText('goodone'));
  });

  it('an invalid groove.toml names the file', async () => {
    fs.writeFileSync(path.join(kb.root, 'groove.toml'), 'kb_path = "kb"\nsurprise = 1\n');
    expectOneLineError(
      await groove(['index', '--model', 'none']),
      'surprise',
      path.join(kb.root, 'groove.toml'),
    );
  });
});
