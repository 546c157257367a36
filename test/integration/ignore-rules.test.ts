import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileIgnoreRules, loadIgnoreRules, MAX_IGNORE_PATTERNS } from '../../src/fs/ignore-rules.js';
import { walkKnowledgeBase } from '../../src/fs/walk-kb.js';

let kb: string;
beforeEach(() => {
  kb = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-'));
});
afterEach(() => {
  fs.rmSync(kb, { recursive: true, force: true });
});

const writeIgnore = (content: string | Uint8Array) =>
  fs.writeFileSync(path.join(kb, '.grooveignore'), content);

describe('compileIgnoreRules', () => {
  const rules = compileIgnoreRules(
    [
      '# comment lines and blank lines are not patterns',
      '',
      '*.tmp.md',
      '!keep.tmp.md',
      'drafts/',
      '/top.md',
      'secret?.md',
      '[a-c]x.md',
      '**/private/**',
    ].join('\n'),
  );

  it('counts only pattern lines', () => {
    expect(rules.patternCount).toBe(7);
    expect(rules.warnings).toEqual([]);
  });

  it('matches wildcards, character classes and ** at any depth', () => {
    expect(rules.isIgnored('a/b/note.tmp.md', false)).toBe(true);
    expect(rules.isIgnored('secret1.md', false)).toBe(true);
    expect(rules.isIgnored('secret12.md', false)).toBe(false);
    expect(rules.isIgnored('bx.md', false)).toBe(true);
    expect(rules.isIgnored('dx.md', false)).toBe(false);
    expect(rules.isIgnored('x/private/y/z.md', false)).toBe(true);
    expect(rules.isIgnored('x/public/z.md', false)).toBe(false);
  });

  it('re-includes with ! only what earlier lines excluded', () => {
    expect(rules.isIgnored('keep.tmp.md', false)).toBe(false);
    const later = compileIgnoreRules('!a.md\na.md');
    expect(later.isIgnored('a.md', false)).toBe(true);
  });

  it('anchors a leading / to the root', () => {
    expect(rules.isIgnored('top.md', false)).toBe(true);
    expect(rules.isIgnored('sub/top.md', false)).toBe(false);
  });

  it('applies a trailing / to folders only, and to everything under them', () => {
    expect(rules.isIgnored('drafts', true)).toBe(true);
    expect(rules.isIgnored('a/drafts', true)).toBe(true);
    expect(rules.isIgnored('drafts', false)).toBe(false);
    expect(rules.isIgnored('drafts/idea.md', false)).toBe(true);
  });

  it('matches case-insensitively', () => {
    expect(rules.isIgnored('DRAFTS', true)).toBe(true);
    expect(rules.isIgnored('Notes.TMP.MD', false)).toBe(true);
    expect(rules.isIgnored('SECRET1.md', false)).toBe(true);
  });

  it('handles CRLF line ends and a byte-order mark', () => {
    const crlf = compileIgnoreRules('\uFEFFfirst.md\r\nsecond.md\r\n');
    expect(crlf.isIgnored('first.md', false)).toBe(true);
    expect(crlf.isIgnored('second.md', false)).toBe(true);
  });

  it('keeps the first 1000 patterns and warns about the rest', () => {
    const lines = Array.from({ length: MAX_IGNORE_PATTERNS + 5 }, (_, i) => `p${i}.md`);
    const capped = compileIgnoreRules(['# header', ...lines].join('\n'));
    expect(capped.patternCount).toBe(MAX_IGNORE_PATTERNS);
    expect(capped.isIgnored(`p${MAX_IGNORE_PATTERNS - 1}.md`, false)).toBe(true);
    expect(capped.isIgnored(`p${MAX_IGNORE_PATTERNS}.md`, false)).toBe(false);
    expect(capped.warnings).toHaveLength(1);
    expect(capped.warnings[0]).toContain('1005 patterns');
  });

  it('survives malformed patterns', () => {
    const odd = compileIgnoreRules('[z-a].md\n[unclosed\n\\\nok.md');
    expect(odd.isIgnored('ok.md', false)).toBe(true);
    expect(odd.isIgnored('b.md', false)).toBe(false);
  });
});

describe('loadIgnoreRules', () => {
  it('has no rules and no warnings without a .grooveignore', () => {
    const rules = loadIgnoreRules(kb);
    expect(rules.warnings).toEqual([]);
    expect(rules.isIgnored('anything.md', false)).toBe(false);
  });

  it('reads the root file only', () => {
    writeIgnore('root-rule.md\n');
    fs.mkdirSync(path.join(kb, 'sub'));
    fs.writeFileSync(path.join(kb, 'sub', '.grooveignore'), 'nested-rule.md\n');
    const rules = loadIgnoreRules(kb);
    expect(rules.isIgnored('root-rule.md', false)).toBe(true);
    expect(rules.isIgnored('sub/nested-rule.md', false)).toBe(false);
  });

  const refused: [string, () => void, string][] = [
    ['a file over 64 KiB', () => writeIgnore(`${'x'.repeat(70_000)}\n`), 'over the 65536-byte cap'],
    ['invalid UTF-8', () => writeIgnore(Buffer.from([0x61, 0x0a, 0xff, 0x0a])), 'not valid UTF-8'],
    ['a binary file', () => writeIgnore(Buffer.from([0x61, 0x00, 0x62])), 'NUL byte'],
    ['a folder', () => fs.mkdirSync(path.join(kb, '.grooveignore')), 'directory'],
    [
      'a hard link',
      () => {
        fs.writeFileSync(path.join(kb, 'rules.txt'), 'a.md\n');
        fs.linkSync(path.join(kb, 'rules.txt'), path.join(kb, '.grooveignore'));
      },
      'hard links',
    ],
    [
      'a symlink',
      () => {
        fs.writeFileSync(path.join(kb, 'rules.txt'), 'a.md\n');
        fs.symlinkSync(path.join(kb, 'rules.txt'), path.join(kb, '.grooveignore'));
      },
      'symbolic link',
    ],
  ];

  // Creating symlinks on Windows needs a privilege CI runners may lack.
  const cases = process.platform === 'win32' ? refused.filter(([label]) => label !== 'a symlink') : refused;
  it.each(cases)('refuses %s with a warning and applies no rules', (_label, setup, expected) => {
    setup();
    const rules = loadIgnoreRules(kb);
    expect(rules.patternCount).toBe(0);
    expect(rules.isIgnored('a.md', false)).toBe(false);
    expect(rules.warnings).toHaveLength(1);
    expect(rules.warnings[0]).toContain('.grooveignore');
    expect(rules.warnings[0]).toContain(expected);
    expect(rules.warnings[0]).toContain('continues without ignore rules');
  });

  it('does not stop the walk when the ignore file is refused', () => {
    writeIgnore(Buffer.from([0xff, 0xfe]));
    fs.writeFileSync(path.join(kb, 'note.md'), 'x');
    const result = walkKnowledgeBase({ root: kb, extensions: ['md'] });
    expect(result.files.map((f) => f.relPath)).toEqual(['note.md']);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('skipped .grooveignore');
  });
});
