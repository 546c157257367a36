// `groove kb add/list/show/rename/remove` in-process on real folders, real indexes and a real registry file
// under a temp GROOVE_HOME, and the --kb flag's usage errors on the commands that take it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGroove } from '../support/run-cli.js';

let root: string;
let env: Record<string, string>;
let registry: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-kbcmd-')));
  env = {
    GROOVE_OFFLINE: '1',
    GROOVE_HOME: path.join(root, 'groove'),
    GROOVE_MODEL_DIR: path.join(root, 'cache'),
    HOME: path.join(root, 'home'),
  };
  registry = path.join(root, 'groove', 'config', 'kbs.toml');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A folder of notes at `<root>/<parent>/<name>` (each KB its own parent, so each its own default index). */
function notes(parent: string, name: string, files: Record<string, string> = {}): string {
  const dir = path.join(root, parent, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

function groove(...args: string[]) {
  return runGroove(args, { cwd: root, env });
}

async function listJson(): Promise<Array<Record<string, unknown>>> {
  const run = await groove('kb', 'list', '--format', 'json');
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { kbs: Array<Record<string, unknown>> }).kbs;
}

describe('groove kb', () => {
  it('add, index by name, list, show', async () => {
    const dir = notes('a', 'notes', { 'backup.md': '# Backup\n\nRestic runs nightly.\n' });
    const added = await groove('kb', 'add', 'notes', dir, '--model', 'none', '--parsers', 'md,txt');
    expect(added.code, added.stderr).toBe(0);
    expect(fs.readFileSync(registry, 'utf8')).toContain('[kb.notes]');
    expect(await listJson()).toEqual([
      expect.objectContaining({ name: 'notes', path: dir, health: 'no index yet', documents: null }),
    ]);

    const indexed = await groove('index', '--kb', 'notes');
    expect(indexed.code, indexed.stderr).toBe(0);
    const [entry] = await listJson();
    expect(entry).toMatchObject({ name: 'notes', health: 'ok', documents: 1, chunks: 1, model: 'none' });
    expect(entry!.size_bytes).toBeGreaterThan(0);
    expect(entry!.last_indexed_at).toEqual(expect.any(String));
    expect(entry!.parsers).toEqual(['md', 'txt']);

    const text = await groove('kb', 'list');
    expect(text.stdout).toMatch(/^NAME\s+PATH\s+DOCS\s+CHUNKS\s+MODEL\s+LAST INDEXED\s+SIZE\s+HEALTH$/m);
    expect(text.stdout).toMatch(/^notes\s+\S+\s+1\s+1\s+none\s+\S+\s+[\d.]+ KiB\s+ok$/m);
    const show = await groove('kb', 'show', 'notes');
    expect(show.stdout).toContain('Parsers:       md, txt (set in the registry)');
    expect(show.stdout).toContain('Documents:     1');
    expect(JSON.parse((await groove('kb', 'show', 'notes', '--format', 'json')).stdout)).toMatchObject({
      name: 'notes',
      health: 'ok',
      entry: { model: 'none', parsers: ['md', 'txt'], line: 3 },
    });
    expect((await groove('kb', 'show', 'nope')).code).toBe(2);
  });

  it('stores a relative PATH and --config as absolute paths; a KB whose config file vanished shows the error', async () => {
    notes('a', 'notes');
    fs.writeFileSync(path.join(root, 'a', 'notes.toml'), 'model = "none"\n');
    const added = await groove('kb', 'add', 'notes', 'a/notes', '--config', 'a/notes.toml');
    expect(added.code, added.stderr).toBe(0);
    const text = fs.readFileSync(registry, 'utf8');
    expect(text).toContain(`path = "${path.join(root, 'a', 'notes')}"`);
    expect(text).toContain(`config = "${path.join(root, 'a', 'notes.toml')}"`);
    fs.rmSync(path.join(root, 'a', 'notes.toml'));
    const show = await groove('kb', 'show', 'notes', '--format', 'json');
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({
      health: 'error',
      problem: expect.stringContaining('notes.toml'),
    });
    const listed = await groove('kb', 'list');
    expect(listed.stdout).toMatch(/error: config file .*notes\.toml" of KB "notes" does not exist/);
  });

  it('refuses a taken name, an overlapping folder, a bad name, a missing folder and an unknown parser', async () => {
    const dir = notes('a', 'notes');
    expect((await groove('kb', 'add', 'notes', dir)).code).toBe(0);
    const before = fs.readFileSync(registry, 'utf8');
    const cases: Array<[string[], number, string]> = [
      [['notes', notes('b', 'other')], 2, 'already registered'],
      [['inner', notes('a', 'notes/projects')], 2, 'overlaps the folder'],
      [['outer', path.join(root, 'a')], 2, 'overlaps the folder'],
      [['Notes', notes('c', 'x')], 2, 'not a valid KB name'],
      [['ghost', path.join(root, 'nowhere')], 1, 'is not a directory'],
      [['p', notes('d', 'p'), '--parsers', 'md,odt'], 2, 'unknown parser "odt"'],
      [['m', notes('e', 'm'), '--model', 'e5-smal'], 2, 'Unknown embedding model "e5-smal"'],
    ];
    for (const [args, code, words] of cases) {
      const run = await groove('kb', 'add', ...args);
      expect(run.code, args.join(' ')).toBe(code);
      expect(run.stderr).toContain(words);
    }
    expect(fs.readFileSync(registry, 'utf8')).toBe(before);
  });

  it('rename keeps the folder, settings, index and comments; the old name is then unknown', async () => {
    const dir = notes('a', 'notes', { 'a.md': '# A\n\nalpha\n' });
    await groove('kb', 'add', 'notes', dir, '--model', 'none');
    fs.appendFileSync(registry, '# a comment of mine\n');
    expect((await groove('index', '--kb', 'notes')).code).toBe(0);
    const renamed = await groove('kb', 'rename', 'notes', 'vault');
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(fs.readFileSync(registry, 'utf8')).toContain('# a comment of mine');
    expect(await listJson()).toEqual([
      expect.objectContaining({ name: 'vault', documents: 1, model: 'none' }),
    ]);
    const old = await groove('status', '--kb', 'notes');
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('registered: vault');
    expect((await groove('kb', 'rename', 'vault', 'Bad!')).code).toBe(2);
    expect((await groove('kb', 'rename', 'nope', 'x')).code).toBe(2);
  });

  it('remove keeps the index unless --delete-index, and never deletes an index another KB uses', async () => {
    const dir = notes('a', 'notes', { 'a.md': '# A\n\nalpha\n' });
    await groove('kb', 'add', 'notes', dir, '--model', 'none');
    await groove('index', '--kb', 'notes');
    const dbPath = (await listJson())[0]!.db_path as string;
    expect(fs.existsSync(dbPath)).toBe(true);

    expect((await groove('kb', 'remove', 'notes')).code).toBe(0);
    expect(await listJson()).toEqual([]);
    expect(fs.existsSync(dbPath)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'a.md'))).toBe(true);

    // A second KB registered with the same index file: --delete-index is refused.
    await groove('kb', 'add', 'notes', dir, '--model', 'none');
    await groove('kb', 'add', 'sibling', notes('a', 'sibling'), '--model', 'none');
    fs.appendFileSync(registry, `db_path = ${JSON.stringify(dbPath)}\n`);
    const before = fs.readFileSync(registry, 'utf8');
    const shared = await groove('kb', 'remove', 'notes', '--delete-index');
    expect(shared.code).toBe(2);
    expect(shared.stderr).toContain('KB "sibling" uses the same index');
    expect(fs.readFileSync(registry, 'utf8')).toBe(before);
    expect(fs.existsSync(dbPath)).toBe(true);

    expect((await groove('kb', 'remove', 'sibling')).code).toBe(0);
    const deleted = await groove('kb', 'remove', 'notes', '--delete-index');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`deleted ${dbPath}`);
    expect(fs.existsSync(dbPath)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'a.md'))).toBe(true);
  });

  it('a KB folder that vanished is listed as missing and its index is kept', async () => {
    const dir = notes('a', 'notes', { 'a.md': '# A\n\nalpha\n' });
    await groove('kb', 'add', 'notes', dir, '--model', 'none');
    await groove('index', '--kb', 'notes');
    fs.rmSync(dir, { recursive: true });
    const [entry] = await listJson();
    expect(entry).toMatchObject({ name: 'notes', health: 'folder missing' });
    expect(entry!.size_bytes).toBeGreaterThan(0);
    expect(fs.existsSync(entry!.db_path as string)).toBe(true);
    expect((await groove('kb', 'list')).stdout).toMatch(/folder missing$/m);
    const search = await groove('search', 'alpha', '--kb', 'notes');
    expect(search.code).toBe(1);
    expect(search.stderr).toContain('(KB "notes") is not a directory');
    expect(search.stderr).toContain('its index is kept');
    expect(fs.existsSync(entry!.db_path as string)).toBe(true);
  });

  it('a hand-broken registry is an error naming file and line, and nothing rewrites it', async () => {
    const dir = notes('a', 'notes');
    await groove('kb', 'add', 'notes', dir);
    fs.appendFileSync(registry, '\n[kb.work]\npath = "/w"\nmodle = "none"\n');
    const broken = fs.readFileSync(registry);
    const line = broken.toString().split('\n').indexOf('modle = "none"') + 1;
    for (const args of [
      ['kb', 'add', 'other', notes('b', 'other')],
      ['kb', 'rename', 'notes', 'x'],
      ['kb', 'remove', 'notes'],
      ['kb', 'list'],
      ['status', '--kb', 'notes'],
    ]) {
      const run = await groove(...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toContain(`KB registry "${registry}" line ${line}: unknown key "kb.work.modle"`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(fs.readFileSync(registry).equals(broken)).toBe(true);
  });
});

describe('--kb on the commands', () => {
  it('unknown names, several --kb and --kb with --kb-path are usage errors', async () => {
    await groove('kb', 'add', 'notes', notes('a', 'notes'));
    await groove('kb', 'add', 'work', notes('b', 'work'));
    for (const command of [['status'], ['search', 'q'], ['validate'], ['doctor'], ['index'], ['eval']]) {
      const unknown = await groove(...command, '--kb', 'nope');
      expect(unknown.code, command[0]).toBe(2);
      expect(unknown.stderr).toContain('no KB named "nope"');
      expect(unknown.stderr).toContain('registered: notes, work');
      const both = await groove(...command, '--kb', 'notes', '--kb-path', root);
      expect(both.code, command[0]).toBe(2);
      expect(both.stderr).toContain('--kb notes and --kb-path');
      const several = await groove(...command, '--kb', 'notes', '--kb', 'work');
      const takesSeveral = ['status', 'search', 'eval'].includes(command[0]!);
      if (!takesSeveral) {
        expect(several.code, command[0]).toBe(2);
        expect(several.stderr).toContain('--kb was given 2 times');
        continue;
      }
      const unknownAmong = await groove(...command, '--kb', 'notes', '--kb', 'nope');
      expect(unknownAmong.code, command[0]).toBe(2);
      expect(unknownAmong.stderr).toContain('registered: notes, work');
      const withPath = await groove(...command, '--kb', 'notes', '--kb', 'work', '--kb-path', root);
      expect(withPath.code, command[0]).toBe(2);
      expect(withPath.stderr).toContain('cannot be used with several --kb');
      const twice = await groove(...command, '--kb', 'notes', '--kb', 'notes');
      expect(twice.code, command[0]).toBe(2);
      expect(twice.stderr).toContain('--kb notes was given twice');
    }
  });
});
