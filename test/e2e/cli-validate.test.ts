// `groove validate` through runCli in-process: a temp KB with good and bad notes and a schema that uses every
// rule; each violation once with its file and line, --strict, the three formats, and schemas that cannot be used.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/main.js';
import { binPath } from '../support/run-bin.js';
import { type TempKb, useTempKbs } from '../support/temp-kb.js';

const makeKb = useTempKbs();

async function groove(kb: TempKb, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: kb.root,
  };
  const code = await runCli(['validate', '--kb-path', kb.kbPath, ...args], io);
  return { code, stdout, stderr };
}

const SCHEMA = `
[fields.title]
required = true
type = "string"
min_length = 3
max_length = 40

[fields.date]
required = true
type = "date"

[fields.summary]
required = true
allow_empty = true

[fields.tags]
type = "list"
min_length = 1
max_length = 3
pattern = "^[a-z0-9-]+$"

[fields.status]
type = "string"
enum = ["draft", "published"]

[fields.priority]
type = "integer"
enum = [1, 2, 3]

[fields.score]
type = "number"

[fields.draft]
type = "boolean"

[fields.owner]
required = true
type = "string"
`;

const GOOD = `---
title: A good note
date: 2024-02-29
summary:
tags: [ops, backup]
status: draft
priority: 2
score: 0.5
draft: false
owner: ann
---
# Body
`;

const BAD = `---
title: 42
date: 2023-02-29
tags:
  - Ops
  - 7
  - a
  - b
status: done
priority: 1.5
score: high
draft: "yes"
owner: ""
---
# Body
`;

function notes(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'groove-schema.toml': SCHEMA,
    'notes/good.md': GOOD,
    'notes/bad.md': BAD,
    'notes/short.md': GOOD.replace('title: A good note', 'title: ab').replace(
      'tags: [ops, backup]',
      'tags: []',
    ),
    'notes/broken.md': '---\ntitle: [unclosed\n---\n# Body\n',
    'notes/plain.md': '# No frontmatter at all\n',
    'notes/extra.md': GOOD.replace('owner: ann', 'owner: ann\nreviewer: bob'),
    ...extra,
  };
}

/** `path:line kind field` of every violation in a JSON report. */
function listed(stdout: string): string[] {
  const json = JSON.parse(stdout) as {
    files: {
      path: string;
      violations: { line: number; kind: string; field: string | null; index?: number }[];
    }[];
  };
  return json.files.flatMap((file) =>
    file.violations.map(
      (v) => `${file.path}:${v.line} ${v.kind} ${v.field}${v.index === undefined ? '' : `[${v.index}]`}`,
    ),
  );
}

const EXPECTED = [
  'notes/bad.md:1 missing_required summary',
  'notes/bad.md:2 type_mismatch title',
  'notes/bad.md:3 type_mismatch date',
  'notes/bad.md:4 length_out_of_range tags',
  'notes/bad.md:5 pattern_mismatch tags[0]',
  'notes/bad.md:6 type_mismatch tags[1]',
  'notes/bad.md:9 not_in_enum status',
  'notes/bad.md:10 type_mismatch priority',
  'notes/bad.md:11 type_mismatch score',
  'notes/bad.md:12 type_mismatch draft',
  'notes/bad.md:13 missing_required owner',
  'notes/broken.md:3 frontmatter_unparsed null',
  'notes/plain.md:1 missing_required title',
  'notes/plain.md:1 missing_required date',
  'notes/plain.md:1 missing_required summary',
  'notes/plain.md:1 missing_required owner',
  'notes/short.md:2 length_out_of_range title',
];

describe('groove validate: rules', () => {
  it('reports each violation once, with its file and line, and exits 1', async () => {
    const kb = makeKb(notes());
    const result = await groove(kb, ['--format', 'json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(listed(result.stdout)).toEqual(EXPECTED);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ schema_found: true, strict: false, scanned: 6, violated: 4, ok: 2 });
  });

  it('--strict adds undeclared keys; allow_unknown_fields = false does the same', async () => {
    const kb = makeKb(notes());
    const strict = listed((await groove(kb, ['--format', 'json', '--strict'])).stdout);
    expect(strict.filter((line) => !EXPECTED.includes(line))).toEqual([
      'notes/extra.md:11 undeclared_field reviewer',
    ]);
    kb.write('groove-schema.toml', `[options]\nallow_unknown_fields = false\n${SCHEMA}`);
    const closed = await groove(kb, ['--format', 'json']);
    expect(JSON.parse(closed.stdout).strict).toBe(true);
    expect(listed(closed.stdout)).toEqual(strict);
  });

  it('exits 0 on a KB whose notes all pass, and says so', async () => {
    const kb = makeKb({ 'groove-schema.toml': SCHEMA, 'a.md': GOOD, 'b/c.md': GOOD });
    const result = await groove(kb, []);
    expect(result).toEqual({
      code: 0,
      stdout: 'checked 2 files against kb/groove-schema.toml: no violations\n',
      stderr: '',
    });
  });

  it('reads what the indexer reads: ignore rules, excluded folders, enabled parsers, checked reads', async () => {
    const kb = makeKb({
      'groove-schema.toml': SCHEMA,
      'a.md': GOOD,
      '.grooveignore': 'drafts/\n',
      'drafts/wip.md': '# no frontmatter\n',
      'node_modules/pkg/readme.md': '# no frontmatter\n',
      'archive/old.md': '# no frontmatter\n',
      'notes.txt': 'plain text has no frontmatter\n',
      'binary.md': 'a\u0000b',
    });
    fs.symlinkSync(kb.abs('a.md'), kb.abs('link.md'));
    kb.config({ toml: 'exclude_dirs = ["archive"]\n[parsers]\nenabled = ["md", "txt"]\n' });
    const result = await groove(kb, ['--config', path.join(kb.root, 'groove.toml'), '--format', 'json']);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.scanned).toBe(1);
    expect(json.skipped.map((s: { path: string }) => s.path)).toEqual(['binary.md', 'link.md']);
    expect(result.stderr).toContain('groove validate: warning: skipped link.md: it is a symbolic link');
    expect(result.stderr).toContain('groove validate: warning: skipped binary.md: it contains a NUL byte');
  });
});

describe('groove validate: formats', () => {
  it('text: one path:line: message [kind] line per violation, then the summary', async () => {
    const kb = makeKb(notes());
    const { code, stdout } = await groove(kb, []);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(EXPECTED.length + 1);
    expect(lines[1]).toBe(
      'kb/notes/bad.md:2: "title": expected string, got number (put the value in quotes to make it text) [type_mismatch]',
    );
    expect(lines.at(-1)).toBe('checked 6 files against kb/groove-schema.toml: 17 violations in 4 files');
  });

  it('github: ::error with file and line, properties and message escaped for a hostile file name and value', async () => {
    const kb = makeKb({
      'groove-schema.toml': SCHEMA,
      'notes/a,b:c%25.md': GOOD.replace('status: draft', 'status: "50%\\r\\nx"'),
    });
    const { code, stdout } = await groove(kb, ['--format', 'github']);
    expect(code).toBe(1);
    expect(stdout).toBe(
      '::error file=kb/notes/a%2Cb%3Ac%2525.md,line=6,title=groove validate%3A not_in_enum::' +
        '"status": "50%25\\r\\nx" is not one of "draft", "published"\n' +
        'checked 1 file against kb/groove-schema.toml: 1 violation in 1 file\n',
    );
  });

  it('json: the report shape, with per-kind details', async () => {
    const kb = makeKb(notes());
    const json = JSON.parse((await groove(kb, ['--format', 'json'])).stdout);
    expect(Object.keys(json)).toEqual([
      'kb_path',
      'schema',
      'schema_found',
      'strict',
      'scanned',
      'violated',
      'ok',
      'files',
      'skipped',
      'warnings',
    ]);
    expect(json.kb_path).toBe(kb.kbPath);
    expect(json.schema).toBe(path.join(kb.kbPath, 'groove-schema.toml'));
    const bad = json.files.find((file: { path: string }) => file.path === 'notes/bad.md').violations;
    expect(bad[4]).toEqual({
      kind: 'pattern_mismatch',
      field: 'tags',
      line: 5,
      index: 0,
      actual: 'Ops',
      pattern: '^[a-z0-9-]+$',
      message: '"tags" item 1: "Ops" does not match the pattern "^[a-z0-9-]+$"',
    });
    expect(bad[6]).toMatchObject({ kind: 'not_in_enum', actual: 'done', allowed: ['draft', 'published'] });
    expect(bad[3]).toMatchObject({ kind: 'length_out_of_range', actual: 4, min: 1, max: 3 });
    expect(bad[1]).toMatchObject({ kind: 'type_mismatch', expected: 'string', actual: 'number' });
  });
});

/** A run that could not validate: exit 2, one `groove: error:` line naming the problem, no stack trace. */
async function expectRefusal(kb: TempKb, args: string[], message: RegExp): Promise<void> {
  const result = await groove(kb, args);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^groove: error: [^\n]+\n$/);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).toMatch(message);
}

describe('groove validate: schemas that cannot be used', () => {
  it('malformed TOML, an unknown key and an invalid regex are refused by key', async () => {
    const kb = makeKb({ 'a.md': GOOD });
    kb.write('groove-schema.toml', '[fields.title\n');
    await expectRefusal(kb, [], /schema ".*groove-schema.toml": not valid TOML at line 1: /);
    kb.write('groove-schema.toml', '[fields.title]\nrequird = true\n');
    await expectRefusal(kb, [], /unknown key "fields.title.requird"/);
    kb.write('groove-schema.toml', '[fields.slug]\ntype = "string"\npattern = "([a-z"\n');
    await expectRefusal(kb, [], /key "fields.slug.pattern" \(line 3\) is not a valid regular expression/);
  });

  it('a schema is read like any KB file: a symlink, a hard link, binary or over 1 MiB is refused', async () => {
    const kb = makeKb({ 'a.md': GOOD, 'real.toml': SCHEMA });
    fs.symlinkSync(kb.abs('real.toml'), kb.abs('groove-schema.toml'));
    await expectRefusal(kb, [], /cannot be used: it is a symbolic link/);
    fs.rmSync(kb.abs('groove-schema.toml'));
    fs.linkSync(kb.abs('real.toml'), kb.abs('groove-schema.toml'));
    await expectRefusal(kb, [], /cannot be used: it has 2 hard links/);
    fs.rmSync(kb.abs('groove-schema.toml'));
    kb.write('groove-schema.toml', Buffer.from([0x5b, 0x00, 0x5d]));
    await expectRefusal(kb, [], /cannot be used: it contains a NUL byte at offset 1/);
    kb.write('groove-schema.toml', `# ${'x'.repeat(1024 * 1024)}\n`);
    await expectRefusal(kb, [], /cannot be used: file is \d+ bytes, over the 1048576-byte cap/);
    fs.mkdirSync(path.join(kb.root, 'dir.toml'));
    await expectRefusal(kb, ['--schema', 'dir.toml'], /cannot be used: it is a directory/);
  });

  it('--schema that does not exist is exit 2; no schema at the default path is exit 0', async () => {
    const kb = makeKb({ 'a.md': '# no frontmatter\n' });
    await expectRefusal(kb, ['--schema', 'missing.toml'], /schema ".*missing.toml" does not exist/);
    const none = await groove(kb, []);
    expect(none).toEqual({
      code: 0,
      stdout: 'no schema found at kb/groove-schema.toml; nothing to validate\n',
      stderr: '',
    });
    const json = JSON.parse((await groove(kb, ['--format', 'json'])).stdout);
    expect(json).toMatchObject({ schema_found: false, scanned: 0, files: [] });
  });

  it('--schema outside the KB is resolved against the working folder', async () => {
    const kb = makeKb({ 'a.md': GOOD });
    fs.writeFileSync(
      path.join(kb.root, 'ci-schema.toml'),
      '[fields.owner]\nenum = ["bob"]\ntype = "string"\n',
    );
    const result = await groove(kb, ['--schema', 'ci-schema.toml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('kb/a.md:10: "owner": "ann" is not one of "bob" [not_in_enum]');
  });

  it('a KB that does not exist is exit 2, not a violation', async () => {
    const kb = makeKb({});
    const result = await groove(kb, ['--kb-path', path.join(kb.root, 'nope')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^groove: error: knowledge base folder ".*nope" does not exist/);
  });
});

describe('groove validate: patterns that backtrack catastrophically elsewhere', () => {
  // Each pattern needs exponential time on a backtracking engine for a value that almost matches; the values
  // are 30–40 characters. The built CLI runs in a child process, so a hang is a timeout, not a stuck test.
  const PATTERNS: Record<string, [pattern: string, value: string]> = {
    slug: ['^([a-z0-9]+-?)*$', `${'ab-cd-'.repeat(6)}x!`],
    nested: ['^(a+)+$', `${'a'.repeat(36)}b`],
    alternation: ['(a|aa)*b', 'a'.repeat(40)],
    words: ['^(\\w+\\s?)*$', `${'word '.repeat(7)}!`],
    optional: ['^(a|a?)+$', `${'a'.repeat(32)}b`],
    email: ['^([a-zA-Z0-9])(([-.]|[_]+)?([a-zA-Z0-9]+))*(@)', 'a'.repeat(38)],
  };

  it('each is checked in linear time and reported as a mismatch', () => {
    const schema = Object.entries(PATTERNS)
      .map(([field, [pattern]]) => `[fields.${field}]\ntype = "string"\npattern = '${pattern}'\n`)
      .join('\n');
    const frontmatter = Object.entries(PATTERNS)
      .map(([field, [, value]]) => `${field}: "${value}"\n`)
      .join('');
    const kb = makeKb({ 'groove-schema.toml': schema, 'note.md': `---\n${frontmatter}---\n# Note\n` });
    const started = Date.now();
    const run = spawnSync(process.execPath, [binPath, 'validate', '--kb-path', kb.kbPath], {
      cwd: kb.root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: kb.root, GROOVE_OFFLINE: '1' },
      timeout: 20_000,
    });
    expect(run.signal, 'validate did not finish within 20 s').toBeNull();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.status, run.stderr).toBe(1);
    const mismatched = [...run.stdout.matchAll(/"(\w+)": .* does not match the pattern/g)].map((m) => m[1]);
    expect(mismatched.sort()).toEqual(Object.keys(PATTERNS).sort());
  }, 30_000);
});
