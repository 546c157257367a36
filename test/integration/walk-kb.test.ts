import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import { readCheckedFile } from '../../src/fs/checked-read.js';
import { isAddressablePath, type WalkResult, walkKnowledgeBase, walkPaths } from '../../src/fs/walk-kb.js';
import { createOverlongTree, removeDeepTree } from '../support/overlong-path.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hasMkfifo = spawnSync('mkfifo', ['--version']).error === undefined;
const isWindows = process.platform === 'win32';

let kb: string;
beforeEach(() => {
  kb = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-'));
});
afterEach(() => {
  fs.rmSync(kb, { recursive: true, force: true });
});

function touch(...relPaths: string[]): void {
  for (const relPath of relPaths) {
    const file = path.join(kb, ...relPath.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `# ${relPath}\n`);
  }
}

const walk = (extra: { excludeDirs?: string[]; extensions?: string[] } = {}): WalkResult =>
  walkKnowledgeBase({ root: kb, extensions: extra.extensions ?? ['md'], excludeDirs: extra.excludeDirs });
const paths = (result: WalkResult) => result.files.map((f) => f.relPath);

/** Walk `kb` in a child process; root ignores permission bits, so as root the child runs as nobody. */
function walkAsUnprivileged(): WalkResult {
  const asRoot = process.getuid?.() === 0;
  const script = `import { walkKnowledgeBase } from ${JSON.stringify(path.join(repoRoot, 'src/fs/walk-kb.ts'))};
    process.stdout.write(JSON.stringify(walkKnowledgeBase({ root: ${JSON.stringify(kb)}, extensions: ['md'] })));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: repoRoot,
    encoding: 'utf8',
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as WalkResult;
}

describe('walkKnowledgeBase', () => {
  it('collects wanted extensions case-insensitively, with / paths, sorted by code unit', () => {
    touch('b.md', 'a.md', 'a-b.md', 'a/z.md', 'Z.MD', 'notes/deep/er/x.Md', 'c.txt', 'noext', 'img.png');
    const result = walk();
    expect(paths(result)).toEqual(['Z.MD', 'a-b.md', 'a.md', 'a/z.md', 'b.md', 'notes/deep/er/x.Md']);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(paths(walk({ extensions: ['.TXT', 'md'] }))).toContain('c.txt');
  });

  it('walks Japanese names', () => {
    touch('日本語/メモ.md', '日本語/ノート.md', 'アーカイブ/古い.md');
    expect(paths(walk())).toEqual(['アーカイブ/古い.md', '日本語/ノート.md', '日本語/メモ.md']);
  });

  it('carries absolute path, size and mtime from lstat', () => {
    touch('notes/a.md');
    const [file] = walk().files;
    const stat = fs.lstatSync(path.join(kb, 'notes', 'a.md'));
    expect(file).toEqual({
      relPath: 'notes/a.md',
      absPath: path.join(kb, 'notes', 'a.md'),
      sizeBytes: stat.size,
      mtimeMs: stat.mtimeMs,
    });
  });

  it('always excludes .git, .svn and node_modules, whatever the case', () => {
    touch('.git/x.md', '.SVN/x.md', 'Node_Modules/pkg/readme.md', 'node_modules2/kept.md', 'my.git/kept.md');
    expect(paths(walk({ excludeDirs: [] }))).toEqual(['my.git/kept.md', 'node_modules2/kept.md']);
  });

  it('matches exclude_dirs as whole basenames, case-insensitively, at any depth', () => {
    touch('.Obsidian/x.md', 'a/TARGET/x.md', 'targets/kept.md', 'a/target.md', 'ΛΌΓΟΣ/x.md', 'ΛΌΓΟΙ/kept.md');
    // 'ΛΌΓΟΣ' lowercases to 'λόγος' (final sigma); folding ς to σ lets 'λόγοσ' match it too.
    const result = walk({ excludeDirs: ['.obsidian', 'target', 'λόγοσ'] });
    expect(paths(result)).toEqual(['a/target.md', 'targets/kept.md', 'ΛΌΓΟΙ/kept.md']);
  });

  it('skips Office lock files', () => {
    touch('~$report.md', 'report.md');
    expect(paths(walk())).toEqual(['report.md']);
  });

  it.skipIf(isWindows)('never follows symlinks and names the ones it skipped', () => {
    touch('real/a.md', 'image.png');
    fs.symlinkSync(path.join(kb, 'real', 'a.md'), path.join(kb, 'link.md'));
    fs.symlinkSync(path.join(kb, 'real'), path.join(kb, 'linkdir'));
    fs.symlinkSync(path.join(kb, 'image.png'), path.join(kb, 'linked.png'));
    fs.symlinkSync(path.join(kb, 'nowhere.md'), path.join(kb, 'dangling.md'));
    const result = walk();
    expect(paths(result)).toEqual(['real/a.md']);
    expect(result.skipped).toEqual([
      { relPath: 'dangling.md', reason: 'symlink', detail: 'it is a symbolic link' },
      { relPath: 'link.md', reason: 'symlink', detail: 'it is a symbolic link' },
      { relPath: 'linkdir', reason: 'symlink', detail: 'it is a symbolic link to a folder' },
    ]);
  });

  it.skipIf(!hasMkfifo)('reports a FIFO with a wanted extension as not regular', () => {
    touch('a.md');
    execFileSync('mkfifo', [path.join(kb, 'pipe.md')]);
    execFileSync('mkfifo', [path.join(kb, 'pipe.bin')]);
    const result = walk();
    expect(paths(result)).toEqual(['a.md']);
    expect(result.skipped.map((s) => [s.relPath, s.reason])).toEqual([['pipe.md', 'not-regular']]);
  });

  it.skipIf(isWindows)('reports names with control characters as unaddressable', () => {
    touch('ok.md', 'bad\nname.md', 'tab\tdir/x.md');
    const result = walk();
    expect(paths(result)).toEqual(['ok.md']);
    expect(result.skipped.map((s) => [s.relPath, s.reason])).toEqual([
      ['bad\nname.md', 'unaddressable'],
      ['tab\tdir', 'unaddressable'],
    ]);
  });

  it.skipIf(isWindows)('skips a file whose absolute path is over PATH_MAX, and walks everything else', () => {
    touch('a.md', 'z/b.md');
    const deepDir = createOverlongTree(kb, `${'n'.repeat(240)}.md`, '# too deep\n');
    try {
      const result = walk();
      expect(paths(result)).toEqual(['a.md', 'z/b.md']);
      expect(result.skipped).toEqual([
        {
          relPath: `${deepDir}/${'n'.repeat(240)}.md`,
          reason: 'path-too-long',
          detail: 'its absolute path is longer than this system allows (ENAMETOOLONG)',
        },
      ]);
      // The folder below it cannot even be listed: a warning, and its rows are kept, never a failed run.
      expect(result.unreadableDirs).toEqual([`${deepDir}/${'d'.repeat(200)}`]);
      expect(result.warnings).toEqual([
        expect.stringMatching(/^skipped folder long\/.*: its absolute path .*ENAMETOOLONG.*shorten/),
      ]);
    } finally {
      removeDeepTree(path.join(kb, 'long'));
    }
  });

  it.skipIf(isWindows)('skips a file it cannot lstat (EACCES) instead of failing the walk', () => {
    touch('a.md', 'locked/secret.md');
    // Listable but not searchable: readdir works, every lstat inside it fails with EACCES.
    fs.chmodSync(path.join(kb, 'locked'), 0o444);
    fs.chmodSync(kb, 0o755);
    const result = walkAsUnprivileged();
    fs.chmodSync(path.join(kb, 'locked'), 0o755);
    expect(paths(result)).toEqual(['a.md']);
    expect(result.skipped).toEqual([
      {
        relPath: 'locked/secret.md',
        reason: 'unreadable',
        detail: 'lstat failed: EACCES (permission denied)',
      },
    ]);
  });

  it('leaves a file deleted after the walk to the checked read, which calls it vanished', () => {
    touch('a.md', 'b.md');
    const result = walk();
    fs.rmSync(path.join(kb, 'b.md'));
    const reads = result.files.map((f) => readCheckedFile(f.absPath, { maxBytes: 1024 }));
    expect(reads.map((r) => (r.ok ? 'ok' : r.reason))).toEqual(['ok', 'vanished']);
  });

  it('applies .grooveignore as a union with exclude_dirs', () => {
    touch(
      'top.md',
      'sub/top.md',
      'drafts/idea.md',
      'drafts/keep.md',
      'notes/x.tmp.md',
      'notes/keep.tmp.md',
      'Archive/keep.md',
      'notes/real.md',
    );
    fs.writeFileSync(
      path.join(kb, '.grooveignore'),
      ['/top.md', 'drafts/', '!drafts/keep.md', '*.tmp.md', '!keep.tmp.md', '!archive/keep.md'].join('\n'),
    );
    const result = walk({ excludeDirs: ['archive'] });
    // An excluded or ignored folder cannot be re-included from inside; `!` works on files it did not exclude.
    expect(paths(result)).toEqual(['notes/keep.tmp.md', 'notes/real.md', 'sub/top.md']);
    expect(result.warnings).toEqual([]);
  });

  it('uses ignore rules passed in instead of reading the file', () => {
    touch('a.md', 'b.md');
    fs.writeFileSync(path.join(kb, '.grooveignore'), 'a.md\n');
    const rules = { isIgnored: (rel: string) => rel === 'b.md', patternCount: 1, warnings: ['not repeated'] };
    const result = walkKnowledgeBase({ root: kb, extensions: ['md'], ignoreRules: rules });
    expect(paths(result)).toEqual(['a.md']);
    expect(result.warnings).toEqual([]);
  });

  it.skipIf(isWindows)('warns about an unreadable folder, keeps going and lists it', () => {
    touch('open/a.md', 'locked/b.md', 'c.md');
    fs.chmodSync(path.join(kb, 'locked'), 0o000);
    fs.chmodSync(kb, 0o755);
    const result = walkAsUnprivileged();
    fs.chmodSync(path.join(kb, 'locked'), 0o755);
    expect(paths(result)).toEqual(['c.md', 'open/a.md']);
    expect(result.unreadableDirs).toEqual(['locked']);
    expect(result.warnings).toEqual([
      'skipped folder locked: readdir failed: EACCES (permission denied); its files keep their indexed state ' +
        '(check its permissions)',
    ]);
  });

  it('throws KB_NOT_FOUND for a missing root or a root that is a file', () => {
    const missing = path.join(kb, 'missing');
    expect(() => walkKnowledgeBase({ root: missing, extensions: ['md'] })).toThrow(GrooveError);
    touch('file.md');
    try {
      walkKnowledgeBase({ root: path.join(kb, 'file.md'), extensions: ['md'] });
      expect.unreachable();
    } catch (error) {
      expect((error as GrooveError).code).toBe('KB_NOT_FOUND');
      expect((error as GrooveError).message).toContain('is not a folder');
    }
  });
});

describe('isAddressablePath', () => {
  it.each([
    ['notes/a.md', true],
    ['日本語/メモ.md', true],
    ['.hidden/a.md', true],
    ['what?.md', true],
    ['', false],
    ['/etc/passwd', false],
    ['a//b.md', false],
    ['a/', false],
    ['./a.md', false],
    ['a/../../b.md', false],
    ['..', false],
    ['a\u0000b.md', false],
    ['a\nb.md', false],
    ['a\u007fb.md', false],
    ['bad\ufffd.md', false],
  ])('%j on POSIX → %s', (relPath, expected) => {
    expect(isAddressablePath(relPath, 'linux')).toBe(expected);
  });

  it.each([
    ['notes/a.md', true],
    ['what?.md', false],
    ['a:b.md', false],
    ['C:/x.md', false],
    ['a\\b.md', false],
    ['CON', false],
    ['notes/nul.md', false],
    ['lpt1.txt', false],
    ['console.md', true],
    ['trailing./a.md', false],
    ['trailing /a.md', false],
  ])('%j on Windows → %s', (relPath, expected) => {
    expect(isAddressablePath(relPath, 'win32')).toBe(expected);
  });
});

describe('walkPaths (the walk for some paths only)', () => {
  it('lists a path exactly when the whole walk would, with the same skips', () => {
    const files = [
      'a.md',
      'notes/b.md',
      'notes/deep/c.md',
      'node_modules/x.md',
      'drafts/d.md',
      'notes/e.txt',
      '~$lock.md',
    ];
    touch(...files);
    fs.writeFileSync(path.join(kb, '.grooveignore'), 'drafts/\n');
    fs.symlinkSync(path.join(kb, 'a.md'), path.join(kb, 'link.md'));
    fs.symlinkSync(path.join(kb, 'notes'), path.join(kb, 'linked-notes'));
    fs.mkdirSync(path.join(kb, 'folder.md'));
    const whole = walk();
    const asked = [...files, 'link.md', 'linked-notes/b.md', 'folder.md', 'gone.md', 'gone-folder/f.md'];
    const some = walkPaths({ root: kb, extensions: ['md'], paths: asked });
    const wanted = new Set(asked);
    expect(paths(some)).toEqual(paths(whole).filter((p) => wanted.has(p)));
    expect(some.files.map((f) => [f.relPath, f.sizeBytes, f.mtimeMs])).toEqual(
      whole.files.filter((f) => wanted.has(f.relPath)).map((f) => [f.relPath, f.sizeBytes, f.mtimeMs]),
    );
    expect(some.skipped).toEqual(whole.skipped.filter((s) => wanted.has(s.relPath)));
    expect(paths(some)).toEqual(['a.md', 'notes/b.md', 'notes/deep/c.md']);
    expect(some.skipped.map((s) => s.relPath)).toEqual(['link.md']);
  });
});
