// groove.toml discovery, CLI > env > file > defaults precedence, strict keys, `~` expansion and size strings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import {
  expandPath,
  findConfigFile,
  parseByteSize,
  type ResolveConfigOptions,
  resolveConfig,
} from '../../src/config/resolve-config.js';
import { GrooveError } from '../../src/errors.js';

let root: string;
let savedHome: string | undefined;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
  savedHome = process.env.HOME;
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.HOME;
  else process.env.HOME = savedHome;
  fs.rmSync(root, { recursive: true, force: true });
});

function write(relPath: string, text: string): string {
  const file = path.join(root, relPath);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

function mkdir(relPath: string): string {
  const dir = path.join(root, relPath);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function resolve(options: Partial<ResolveConfigOptions> = {}) {
  return resolveConfig({ cwd: root, env: {}, ...options });
}

/** The GrooveError a call throws (fails the test when it does not throw one). */
function thrownBy(fn: () => unknown): GrooveError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(GrooveError);
    return error as GrooveError;
  }
  throw new Error('expected a GrooveError, nothing was thrown');
}

describe('findConfigFile discovery order', () => {
  it('prefers --config over ./groove.toml and the git root', () => {
    mkdir('.git');
    write('groove.toml', 'model = "none"\n');
    const explicit = write('elsewhere/custom.toml', 'model = "none"\n');
    expect(findConfigFile({ configPath: 'elsewhere/custom.toml', cwd: root })).toBe(explicit);
  });

  it('refuses a --config path that does not exist, naming it', () => {
    const error = thrownBy(() => findConfigFile({ configPath: 'missing.toml', cwd: root }));
    expect(error.code).toBe('CONFIG_NOT_FOUND');
    expect(error.message).toContain(path.join(root, 'missing.toml'));
    expect(error.hint).toContain('--config');
  });

  it('uses ./groove.toml before walking to the git root', () => {
    mkdir('.git');
    write('groove.toml', '');
    const local = write('sub/groove.toml', '');
    expect(findConfigFile({ cwd: path.join(root, 'sub') })).toBe(local);
  });

  it('walks up to the directory holding .git and uses its groove.toml', () => {
    mkdir('repo/.git');
    const atRoot = write('repo/groove.toml', '');
    const cwd = mkdir('repo/a/b/c');
    expect(findConfigFile({ cwd })).toBe(atRoot);
  });

  it('stops at the git root even when it has no groove.toml', () => {
    write('groove.toml', ''); // above the repository: must not be picked up
    mkdir('repo/.git');
    const cwd = mkdir('repo/src');
    expect(findConfigFile({ cwd })).toBeNull();
  });

  it('looks at 20 directories (the cwd and 19 ancestors), no more', () => {
    mkdir('.git');
    const atRoot = write('groove.toml', '');
    const levels = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`).join('/');
    expect(findConfigFile({ cwd: mkdir(levels(19)) })).toBe(atRoot);
    expect(findConfigFile({ cwd: mkdir(levels(20)) })).toBeNull();
  });

  it('finds nothing outside a repository without a local groove.toml', () => {
    const config = resolve({ cwd: mkdir('plain') });
    expect(config.configPath).toBeNull();
    expect(config.model).toBe(DEFAULTS.model);
  });
});

describe('resolveConfig precedence', () => {
  it('file values win over defaults and resolve relative paths against the file folder', () => {
    const file = write(
      'conf/groove.toml',
      [
        'kb_path = "../notes"',
        'model = "none"',
        'exclude_dirs = ["drafts"]',
        'reranker_max_batch_tokens = 2048',
        '[chunking]',
        'max_heading_level = 2',
        '[search]',
        'limit = 7',
      ].join('\n'),
    );
    const config = resolve({ configPath: file, cwd: mkdir('somewhere/else') });
    expect(config.configPath).toBe(file);
    expect(config.kbPath).toBe(path.join(root, 'notes'));
    // No index path named: the app derives it (the KB's own folder under groove's data folder).
    expect(config.dbPath).toBeNull();
    expect(config.settingsSource).toBe('explicit');
    expect(config.model).toBe('none');
    expect(config.embedding.provider).toBe('none');
    expect(config.excludeDirs).toEqual(['drafts']);
    expect(config.chunking.maxHeadingLevel).toBe(2);
    expect(config.chunking.maxChunkBytes).toBe(DEFAULTS.chunking.maxChunkBytes);
    expect(config.search.limit).toBe(7);
    expect(config.rerankerMaxBatchTokens).toBe(2048);
    expect(config.modelExplicit).toBe(true);
  });

  it('CLI overrides win over the file, and paths from the CLI resolve against the cwd', () => {
    write('groove.toml', 'kb_path = "file-kb"\nmodel = "multilingual-e5-small"\ndb_path = "file.db"\n');
    const cwd = root;
    const config = resolve({
      cwd,
      overrides: { kbPath: 'cli-kb', model: 'none', dbPath: 'out/cli.db', offline: true },
    });
    expect(config.kbPath).toBe(path.join(cwd, 'cli-kb'));
    expect(config.dbPath).toBe(path.join(cwd, 'out/cli.db'));
    expect(config.model).toBe('none');
    expect(config.embedding.provider).toBe('none');
    expect(config.offline).toBe(true);
  });

  it('a local folder setup comes from [embedding] and the flags win field by field', () => {
    write('groove.toml', '[embedding]\npooling = "cls"\nquery_prefix = "query: "\npassage_prefix = ""\n');
    expect(resolve().embedding).toMatchObject({ pooling: 'cls', queryPrefix: 'query: ', passagePrefix: '' });
    const flags = resolve({ overrides: { pooling: 'mean', queryPrefix: '' } });
    expect(flags.embedding).toMatchObject({ pooling: 'mean', queryPrefix: '', passagePrefix: '' });
    expect(flags.modelExplicit).toBe(false);
    fs.rmSync(path.join(root, 'groove.toml'));
    expect(resolve().embedding).toMatchObject({ pooling: null, queryPrefix: null, passagePrefix: null });
    write('groove.toml', '[embedding]\npooling = "max"\n');
    expect(thrownBy(() => resolve()).message).toContain('embedding.pooling');
  });

  it('env settings apply over the file', () => {
    write('groove.toml', 'offline = false\n');
    const config = resolve({ env: { GROOVE_OFFLINE: '1', GROOVE_MODEL_DIR: 'models' } });
    expect(config.offline).toBe(true);
    expect(config.modelCacheDir).toBe(path.join(root, 'models'));
  });

  it('says where the settings came from: --config, a file found from the cwd, or the defaults', () => {
    expect(resolve().settingsSource).toBe('defaults');
    write('groove.toml', 'offline = false\n');
    expect(resolve().settingsSource).toBe('found');
    expect(resolve({ configPath: path.join(root, 'groove.toml') }).settingsSource).toBe('explicit');
  });

  it('puts groove folders under GROOVE_HOME, or the XDG folders', () => {
    const home = resolve({ env: { GROOVE_HOME: 'portable' } }).folders;
    expect(home.dataDir).toBe(path.join(root, 'portable', 'data'));
    const xdg = resolve({ env: { XDG_DATA_HOME: '/x/data', XDG_CACHE_HOME: 'relative' } }).folders;
    expect(xdg.dataDir).toBe('/x/data/groove');
    expect(xdg.cacheDir).toBe(path.join(os.homedir(), '.cache', 'groove'));
  });

  it('a model chosen nowhere is not explicit (commands then follow the index)', () => {
    const config = resolve({ overrides: { kbPath: 'kb' } });
    expect(config.modelExplicit).toBe(false);
    expect(resolve({ overrides: { modelDir: 'm' } }).modelExplicit).toBe(true);
  });

  it('does not leak one resolution into the built-in defaults', () => {
    write('groove.toml', 'exclude_dirs = ["only-this"]\n[parsers]\nenabled = ["md", "txt"]\n');
    const first = resolve();
    first.excludeHeadings.push('mutated');
    fs.rmSync(path.join(root, 'groove.toml'));
    const second = resolve();
    expect(second.excludeDirs).toEqual(DEFAULTS.excludeDirs);
    expect(second.parsers.enabled).toEqual(['md']);
    expect(second.excludeHeadings).toEqual([]);
  });
});

describe('resolveConfig: [parsers]', () => {
  it('derives the extensions the enabled parsers claim, code by its languages', () => {
    expect(resolve().parsers.extensions).toEqual(['md']);
    write(
      'groove.toml',
      '[parsers]\nenabled = ["md", "pdf", "docx", "code"]\ntimeout_seconds = 5\nmax_decompressed_size = "10MiB"\n' +
        '[parsers.code]\nlanguages = ["python", "kotlin"]\n',
    );
    const config = resolve();
    expect(config.parsers.extensions).toEqual(['md', 'pdf', 'docx', 'py', 'pyi', 'kt', 'kts']);
    expect(config.parsers).toMatchObject({ timeoutSeconds: 5, maxDecompressedBytes: 10 * 1024 * 1024 });
    expect(config.parsers.maxPages).toBe(DEFAULTS.parsers.maxPages);
  });

  it('reads the extraction memory bound as a size, 768MiB unless set', () => {
    expect(resolve().parsers.maxMemoryBytes).toBe(768 * 1024 * 1024);
    write('groove.toml', '[parsers]\nmax_memory = "1GiB"\n');
    expect(resolve().parsers.maxMemoryBytes).toBe(1024 * 1024 * 1024);
  });

  it('rejects an unknown parser id, an empty list and an unknown language', () => {
    for (const toml of [
      '[parsers]\nenabled = ["md", "xls"]\n',
      '[parsers]\nenabled = []\n',
      '[parsers]\nenabled = ["code"]\n[parsers.code]\nlanguages = ["cobol"]\n',
      '[parsers]\ntimeout_seconds = 0\n',
      '[parsers]\nmax_memory = "64MiB"\n',
      '[parsers]\nmax_memory = "lots"\n',
    ]) {
      write('groove.toml', toml);
      expect(() => resolve(), toml).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    }
  });
});

describe('resolveConfig validation', () => {
  it('rejects an unknown top-level key, naming the key and the file', () => {
    const file = write('groove.toml', 'kb_path = "kb"\ncolour = "blue"\n');
    const error = thrownBy(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('"colour"');
    expect(error.message).toContain(file);
  });

  it('rejects an unknown nested key with its dotted path', () => {
    const file = write('groove.toml', '[search.fusion]\nrrf_kk = 10.0\n');
    const error = thrownBy(() => resolve());
    expect(error.message).toContain('"search.fusion.rrf_kk"');
    expect(error.message).toContain(file);
  });

  it('refuses the retired [search] min_confidence_ratio, naming what replaced it', () => {
    write('groove.toml', '[search]\nmin_confidence_ratio = 1.5\n');
    const error = thrownBy(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('"search.min_confidence_ratio" was replaced by [search] min_confidence');
  });

  it('reads [search] min_confidence in [0, 1]', () => {
    write('groove.toml', '[search]\nmin_confidence = 0.45\n');
    expect(resolve().search.minConfidence).toBe(0.45);
    write('groove.toml', '[search]\nmin_confidence = 1.5\n');
    expect(thrownBy(() => resolve()).message).toContain('search.min_confidence');
  });

  it('names the key and file for a value out of range', () => {
    const file = write('groove.toml', '[chunking]\nmax_heading_level = 9\n');
    const error = thrownBy(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('chunking.max_heading_level');
    expect(error.message).toContain(file);
  });

  it('refuses deeply nested TOML with CONFIG_INVALID, not a stack overflow', () => {
    write('groove.toml', `a = ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`);
    const error = thrownBy(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).not.toMatch(/call stack/i);
    expect(error.message).not.toContain('\n');
  });

  it('reports invalid TOML with the file and a one-line reason', () => {
    const file = write('groove.toml', 'kb_path = "unterminated\n');
    const error = thrownBy(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(file);
    expect(error.message).toContain('not valid TOML');
    expect(error.message).not.toContain('\n');
  });

  it('cross-checks [search.parent_retriever]: max_expanded_tokens must exceed the threshold', () => {
    const file = write(
      'groove.toml',
      '[search.parent_retriever]\nwhole_doc_threshold_tokens = 300\nmax_expanded_tokens = 300\n',
    );
    const error = thrownBy(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('max_expanded_tokens (300)');
    expect(error.message).toContain('whole_doc_threshold_tokens (300)');
    expect(error.message).toContain(file);
    // Lowering only the limit below the default threshold (100) is caught as well.
    write('groove.toml', '[search.parent_retriever]\nmax_expanded_tokens = 50\n');
    expect(thrownBy(() => resolve()).code).toBe('CONFIG_INVALID');
    write(
      'groove.toml',
      '[search.parent_retriever]\nwhole_doc_threshold_tokens = 300\nmax_expanded_tokens = 301\n',
    );
    expect(resolve().search.parentRetriever).toMatchObject({
      wholeDocThresholdTokens: 300,
      maxExpandedTokens: 301,
    });
  });
});

describe('~ expansion', () => {
  it('expands a leading ~ in file paths, CLI paths and --config', () => {
    const home = mkdir('home');
    process.env.HOME = home;
    expect(os.homedir()).toBe(home);
    const file = write('home/.config/groove.toml', 'kb_path = "~/notes"\ndb_path = "~/idx/kb.db"\n');
    const config = resolve({ configPath: '~/.config/groove.toml' });
    expect(config.configPath).toBe(file);
    expect(config.kbPath).toBe(path.join(home, 'notes'));
    expect(config.dbPath).toBe(path.join(home, 'idx/kb.db'));
    expect(resolve({ overrides: { kbPath: '~' } }).kbPath).toBe(home);
    expect(resolve({ overrides: { modelDir: '~/m' } }).localModelDir).toBe(path.join(home, 'm'));
  });

  it('leaves ~user and ~ in the middle alone', () => {
    expect(expandPath('~other/x', '/base')).toBe(path.resolve('/base', '~other/x'));
    expect(expandPath('a/~/b', '/base')).toBe(path.resolve('/base', 'a/~/b'));
  });
});

describe('size strings', () => {
  it('parses byte counts with decimal and binary units, case-insensitively', () => {
    expect(parseByteSize(1234)).toBe(1234);
    expect(parseByteSize('1234')).toBe(1234);
    expect(parseByteSize('50MiB')).toBe(50 * 1024 * 1024);
    expect(parseByteSize('20MB')).toBe(20_000_000);
    expect(parseByteSize('1 kib')).toBe(1024);
    expect(parseByteSize('2GB')).toBe(2e9);
    expect(() => parseByteSize('1.5MB')).toThrow(GrooveError);
    expect(() => parseByteSize('5 parsecs')).toThrow(/"5 parsecs"/);
  });

  it('applies [index] max_file_size from the file and rejects a bad one by key', () => {
    write('groove.toml', '[index]\nmax_file_size = "2MiB"\n');
    expect(resolve().index.maxFileBytes).toBe(2 * 1024 * 1024);
    write('groove.toml', '[index]\nmax_file_size = 4096\n');
    expect(resolve().index.maxFileBytes).toBe(4096);
    write('groove.toml', '[index]\nmax_file_size = "lots"\n');
    const error = thrownBy(() => resolve());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('index.max_file_size');
    write('groove.toml', '[index]\nmax_file_size = 0\n');
    expect(thrownBy(() => resolve()).message).toContain('index.max_file_size');
  });
});
