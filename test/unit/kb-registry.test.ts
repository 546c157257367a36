// The KB registry file: parsing, strict validation with line numbers, the text edits that keep comments, the
// config folder rule, and how `--kb NAME` layers its settings against groove.toml files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendKbTable, removeKbTable, renameKbTable } from '../../src/app/kbs/kb-registry-text.js';
import { grooveFolders } from '../../src/config/groove-folders.js';
import { parseKbRegistry, readKbRegistry, rootsOverlap } from '../../src/config/kb-registry.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import { lineOfTomlKey } from '../../src/core/toml-key-line.js';
import { GrooveError, isUsageError } from '../../src/errors.js';

let root: string;
let savedHome: string | undefined;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-kbs-')));
  savedHome = process.env.HOME;
  process.env.HOME = path.join(root, 'home');
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.HOME;
  else process.env.HOME = savedHome;
  fs.rmSync(root, { recursive: true, force: true });
});

const FILE = '/etc/groove/kbs.toml';

function errorOf(run: () => unknown): GrooveError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GrooveError);
    return error as GrooveError;
  }
  throw new Error('expected an error');
}

describe('parseKbRegistry', () => {
  it('reads every key, paths absolute against the file folder and ~', () => {
    const text = [
      '# my KBs',
      '[kb.notes]',
      'path = "~/notes"',
      'config = "notes.toml"',
      'model = "none"',
      'parsers = ["md", "pdf", "md"]',
      'db_path = "/var/idx/notes.db"',
      '',
      '[kb."work_2"]',
      'path = "../work"',
    ].join('\n');
    const [notes, work] = parseKbRegistry(text, FILE);
    expect(notes).toEqual({
      name: 'notes',
      root: path.join(os.homedir(), 'notes'),
      configFile: '/etc/groove/notes.toml',
      model: 'none',
      parsers: ['md', 'pdf'],
      dbPath: '/var/idx/notes.db',
      line: 2,
    });
    expect(work).toMatchObject({ name: 'work_2', root: '/etc/work', configFile: null, line: 9 });
  });

  it('an empty file is an empty registry', () => {
    expect(parseKbRegistry('# nothing yet\n', FILE)).toEqual([]);
  });

  it.each([
    [
      'an unknown key in an entry',
      '[kb.notes]\npath = "/n"\nmodle = "none"\n',
      3,
      'unknown key "kb.notes.modle"',
    ],
    [
      'an unknown top-level table',
      '[kb.notes]\npath = "/n"\n\n[kbs.work]\npath = "/w"\n',
      4,
      'unknown key "kbs"',
    ],
    ['a missing path', '[kb.notes]\nmodel = "none"\n', 1, 'key "kb.notes.path"'],
    ['a wrong type', '[kb.notes]\npath = "/n"\nparsers = "md"\n', 3, 'key "kb.notes.parsers"'],
    ['an unknown parser', '[kb.notes]\npath = "/n"\nparsers = ["md", "odt"]\n', 3, 'kb.notes.parsers'],
    ['a name with capitals', '# x\n[kb.Notes]\npath = "/n"\n', 2, '"Notes" is not a valid KB name'],
    ['a name with a dot', '[kb."a.b"]\npath = "/n"\n', 1, '"a.b" is not a valid KB name'],
    ['a name too long', `[kb.${'a'.repeat(64)}]\npath = "/n"\n`, 1, 'is not a valid KB name'],
    ['broken TOML', '[kb.notes]\npath = "/n\n', 2, 'not valid TOML'],
    ['a duplicate table', '[kb.a]\npath = "/a"\n[kb.a]\npath = "/b"\n', 3, 'not valid TOML'],
  ])('refuses %s, naming the file and line', (_what, text, line, words) => {
    const error = errorOf(() => parseKbRegistry(text, FILE));
    expect(error.code).toBe('KB_REGISTRY_INVALID');
    expect(error.message).toContain(`KB registry "${FILE}" line ${line}:`);
    expect(error.message).toContain(words);
  });

  it('accepts the longest name and the name rule edges', () => {
    const name = `a${'b'.repeat(62)}`;
    const text = `[kb.${name}]\npath = "/a"\n[kb.0_x-y]\npath = "/b"\n`;
    expect(parseKbRegistry(text, FILE).map((entry) => entry.name)).toEqual([name, '0_x-y']);
    expect(() => parseKbRegistry('[kb._x]\npath = "/a"\n', FILE)).toThrow(/not a valid KB name/);
    expect(() => parseKbRegistry('[kb.-x]\npath = "/a"\n', FILE)).toThrow(/not a valid KB name/);
  });

  it('refuses two KBs whose folders overlap, naming both lines', () => {
    const text = '[kb.notes]\npath = "/data/notes"\n\n[kb.inner]\npath = "/data/notes/projects"\n';
    const error = errorOf(() => parseKbRegistry(text, FILE));
    expect(error.code).toBe('KB_REGISTRY_INVALID');
    expect(error.message).toContain('line 4:');
    expect(error.message).toContain('KB "notes" (line 1)');
    expect(() => parseKbRegistry('[kb.a]\npath = "/x"\n[kb.b]\npath = "/x/"\n', FILE)).toThrow(/overlaps/);
  });

  it('siblings whose names share a prefix do not overlap; a symlink to a KB folder does', () => {
    expect(rootsOverlap('/data/notes', '/data/notes-old')).toBe(false);
    const real = path.join(root, 'real');
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(root, 'link'));
    expect(rootsOverlap(real, path.join(root, 'link'))).toBe(true);
  });

  it('reads a missing registry file as empty, and refuses a folder in its place', () => {
    expect(readKbRegistry(path.join(root, 'kbs.toml'))).toEqual({
      file: path.join(root, 'kbs.toml'),
      text: null,
      entries: [],
    });
    fs.mkdirSync(path.join(root, 'dir.toml'));
    expect(errorOf(() => readKbRegistry(path.join(root, 'dir.toml'))).code).toBe('KB_REGISTRY_INVALID');
  });
});

describe('lineOfTomlKey', () => {
  const text = [
    '[kb]', // 1
    'notes = { path = "/n", bad = 1 }', // 2
    'work.path = "/w"', // 3
    '[kb."odd name"]', // 4
    "path = '/o' # comment", // 5
    '[other]', // 6
    'path = 1', // 7
  ].join('\n');

  it('finds keys under headers, dotted keys, quoted names and inline tables', () => {
    expect(lineOfTomlKey(text, ['kb', 'notes', 'bad'])).toBe(2);
    expect(lineOfTomlKey(text, ['kb', 'work'])).toBe(3);
    expect(lineOfTomlKey(text, ['kb', 'work', 'path'])).toBe(3);
    expect(lineOfTomlKey(text, ['kb', 'odd name', 'path'])).toBe(5);
    expect(lineOfTomlKey(text, ['other', 'path'])).toBe(7);
    expect(lineOfTomlKey(text, ['missing'])).toBeNull();
  });
});

describe('registry text edits', () => {
  const original = [
    '# my knowledge bases',
    '',
    '[kb.notes] # the vault',
    'path = "/n"',
    '',
    '# work things',
    '[kb.work]',
    'path = "/w"',
    '',
  ].join('\n');

  it('append adds a table and keeps the comments', () => {
    const text = appendKbTable(original, 'docs', { path: '/d "q"', parsers: ['md', 'pdf'], model: 'none' });
    expect(text.startsWith(original.trimEnd())).toBe(true);
    expect(parseKbRegistry(text, FILE).map((entry) => [entry.name, entry.root, entry.parsers])).toEqual([
      ['notes', '/n', null],
      ['work', '/w', null],
      ['docs', '/d "q"', ['md', 'pdf']],
    ]);
    expect(appendKbTable('', 'a', { path: '/a' })).toBe('[kb.a]\npath = "/a"\n');
  });

  it('rename changes the header only, keeping its comment', () => {
    const text = renameKbTable(original, 'notes', 'vault')!;
    expect(text).toBe(original.replace('[kb.notes] # the vault', '[kb.vault] # the vault'));
    expect(renameKbTable(original, 'nope', 'x')).toBeNull();
  });

  it('remove cuts the table out and leaves the next table its comment', () => {
    expect(removeKbTable(original, 'notes')).toBe(
      '# my knowledge bases\n# work things\n[kb.work]\npath = "/w"\n',
    );
    expect(removeKbTable(original, 'work')).toBe(
      '# my knowledge bases\n\n[kb.notes] # the vault\npath = "/n"\n',
    );
    expect(removeKbTable('[kb]\nnotes = { path = "/n" }\n', 'notes')).toBeNull();
  });
});

describe('the registry folder', () => {
  const configDir = (env: Record<string, string>) => grooveFolders(env, '/h', '/cwd').configDir;
  it('GROOVE_HOME wins (a relative one taken against the current folder), then an absolute XDG_CONFIG_HOME', () => {
    expect(configDir({ GROOVE_HOME: '/g', XDG_CONFIG_HOME: '/x' })).toBe('/g/config');
    expect(configDir({ GROOVE_HOME: 'rel' })).toBe('/cwd/rel/config');
    expect(configDir({ XDG_CONFIG_HOME: '/x' })).toBe('/x/groove');
    expect(configDir({ XDG_CONFIG_HOME: 'rel' })).toBe('/h/.config/groove');
    expect(configDir({})).toBe('/h/.config/groove');
  });
});

describe('resolveConfig with --kb NAME', () => {
  let env: Record<string, string>;
  let kbDir: string;
  let cwd: string;

  beforeEach(() => {
    env = { GROOVE_HOME: path.join(root, 'groove') };
    kbDir = path.join(root, 'notes');
    cwd = path.join(root, 'project', 'sub');
    fs.mkdirSync(kbDir, { recursive: true });
    fs.mkdirSync(cwd, { recursive: true });
    // A groove.toml in the folder the command starts from, and one at its git root above it.
    fs.writeFileSync(path.join(cwd, 'groove.toml'), 'model = "from-cwd"\nkb_path = "/elsewhere"\n');
    fs.mkdirSync(path.join(root, 'project', '.git'));
    fs.writeFileSync(path.join(root, 'project', 'groove.toml'), '[parsers]\nenabled = ["txt"]\n');
  });

  function register(text: string): void {
    fs.mkdirSync(path.join(env.GROOVE_HOME!, 'config'), { recursive: true });
    fs.writeFileSync(path.join(env.GROOVE_HOME!, 'config', 'kbs.toml'), text);
  }

  it('ignores a groove.toml in the current folder and up the git walk', () => {
    register(`[kb.notes]\npath = "${kbDir}"\n`);
    const config = resolveConfig({ kb: 'notes', cwd, env });
    expect(config.kbPath).toBe(kbDir);
    expect(config.kbName).toBe('notes');
    expect(config.configPath).toBeNull();
    expect(config.model).not.toBe('from-cwd');
    expect(config.parsers.enabled).not.toEqual(['txt']);
    // The same command without --kb does read the folder's file (unchanged behaviour).
    expect(resolveConfig({ cwd, env }).model).toBe('from-cwd');
    const sub = path.join(cwd, 'deeper');
    fs.mkdirSync(sub);
    expect(resolveConfig({ cwd: sub, env }).parsers.enabled).toEqual(['txt']);
  });

  it('names its KB in a shared database after the registered name unless a config file names one', () => {
    const shared = path.join(root, 'shared.toml');
    fs.writeFileSync(shared, '[storage]\nbackend = "postgres"\nurl = "postgres://groove@db:5432/groove"\n');
    const named = path.join(root, 'named.toml');
    fs.writeFileSync(
      named,
      '[storage]\nbackend = "postgres"\nurl = "postgres://groove@db:5432/groove"\nkb = "team"\n',
    );
    register(`[kb.notes]\npath = "${kbDir}"\nconfig = "${shared}"\n`);
    expect(resolveConfig({ kb: 'notes', cwd, env }).storage.kb).toBe('notes');
    expect(resolveConfig({ kb: 'notes', cwd, env, configPath: named }).storage.kb).toBe('team');
    register(`[kb.notes]\npath = "${kbDir}"\nconfig = "${named}"\n`);
    expect(resolveConfig({ kb: 'notes', cwd, env }).storage.kb).toBe('team');
  });

  it('gives the same settings from any folder', () => {
    register(`[kb.notes]\npath = "${kbDir}"\nmodel = "none"\nparsers = ["md", "pdf"]\n`);
    const here = resolveConfig({ kb: 'notes', cwd, env });
    const there = resolveConfig({ kb: 'notes', cwd: root, env });
    expect(here).toEqual(there);
    expect(here.parsers.extensions).toContain('pdf');
  });

  it("layers: its config file < its entry < an explicit --config; the folder is always the entry's", () => {
    const kbToml = path.join(root, 'kb.toml');
    fs.writeFileSync(
      kbToml,
      'model = "none"\nkb_path = "/other"\n[chunking]\nmax_chunk_bytes = 1234\n[parsers]\nenabled = ["txt"]\n',
    );
    register(`[kb.notes]\npath = "${kbDir}"\nconfig = "${kbToml}"\nparsers = ["md"]\n`);
    const fromEntry = resolveConfig({ kb: 'notes', cwd, env });
    expect(fromEntry.configPath).toBe(kbToml);
    expect(fromEntry.chunking.maxChunkBytes).toBe(1234);
    expect(fromEntry.model).toBe('none');
    expect(fromEntry.parsers.enabled).toEqual(['md']);
    expect(fromEntry.kbPath).toBe(kbDir);

    const explicit = path.join(root, 'explicit.toml');
    fs.writeFileSync(explicit, 'kb_path = "/other"\n[parsers]\nenabled = ["md", "txt"]\n');
    const withConfig = resolveConfig({ kb: 'notes', cwd, env, configPath: explicit });
    expect(withConfig.configPath).toBe(explicit);
    expect(withConfig.parsers.enabled).toEqual(['md', 'txt']);
    expect(withConfig.chunking.maxChunkBytes).toBe(1234);
    expect(withConfig.kbPath).toBe(kbDir);
    // Flags still win over everything.
    expect(resolveConfig({ kb: 'notes', cwd, env, overrides: { model: 'bge-m3' } }).model).toBe('bge-m3');
  });

  it('an entry db_path names the index; without one the default applies', () => {
    register(`[kb.a]\npath = "${kbDir}"\ndb_path = "idx/a.db"\n`);
    expect(resolveConfig({ kb: 'a', cwd, env }).dbPath).toBe(
      path.join(env.GROOVE_HOME!, 'config', 'idx', 'a.db'),
    );
  });

  it('an unknown name is a usage error listing the registered ones', () => {
    register(`[kb.notes]\npath = "${kbDir}"\n[kb.work]\npath = "${root}/work"\n`);
    const error = errorOf(() => resolveConfig({ kb: 'nope', cwd, env }));
    expect(error.code).toBe('KB_UNKNOWN');
    expect(isUsageError(error)).toBe(true);
    expect(error.message).toContain('registered: notes, work');
    const none = errorOf(() =>
      resolveConfig({ kb: 'x', cwd, env: { GROOVE_HOME: path.join(root, 'empty') } }),
    );
    expect(none.message).toContain('no KB is registered');
    expect(errorOf(() => resolveConfig({ kb: 'Bad Name', cwd, env })).code).toBe('INVALID_ARGUMENT');
  });

  it('a config file the entry names that is gone is an error naming the KB', () => {
    register(`[kb.notes]\npath = "${kbDir}"\nconfig = "${root}/gone.toml"\n`);
    const error = errorOf(() => resolveConfig({ kb: 'notes', cwd, env }));
    expect(error.code).toBe('CONFIG_NOT_FOUND');
    expect(error.message).toContain('of KB "notes"');
  });
});
