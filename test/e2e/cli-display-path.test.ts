import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBin } from '../support/run-bin.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const canNameFreely = process.platform !== 'win32';

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({ 'plain.md': noteText('plain') });
});
afterEach(() => kb.cleanup());

const groove = (args: string[]) => runBin(args, kb.root);

const kbArgs = () => ['--kb-path', kb.kbPath, '--db-path', kb.dbPath];
/** Raw C0/C1 controls (but the line breaks between lines), DEL, bidi controls and line separators. */
const RAW_UNPRINTABLE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

const FORGED = 'a.md\n  indexed: forged.md (1 chunks)\n\u001b]0;pwned\u0007b.md';
const FORGED_SHOWN = 'a.md\\n  indexed: forged.md (1 chunks)\\n\\x1b]0;pwned\\x07b.md';
const BIDI = 'invoice-\u202egnp.md';
const BIDI_SHOWN = 'invoice-\\u202egnp.md';

describe.skipIf(!hasDist || !canNameFreely)('paths printed by bin/groove.js', () => {
  it('index escapes a name that would forge a line, and one with a bidi override', () => {
    kb.write(FORGED, noteText('forged'));
    kb.write(BIDI, noteText('bidiname'));
    kb.write('esc\u001b[2Jdir/inside.md', noteText('inside'));
    const run = groove(['index', ...kbArgs(), '--model', 'none']);
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n');
    expect(lines.filter((l) => l.includes('forged.md'))).toHaveLength(1);
    expect(lines.some((l) => /^\s*indexed: forged\.md/.test(l))).toBe(false);
    expect(run.stderr).not.toMatch(RAW_UNPRINTABLE);
    expect(run.stderr).toContain(
      `warning: skipped ${FORGED_SHOWN}: the file name contains control characters`,
    );
    expect(run.stderr).toContain(
      'warning: skipped esc\\x1b[2Jdir: the folder name contains control characters',
    );
    expect(run.stderr).toContain(`  indexed: ${BIDI_SHOWN} (2 chunks)`);
    expect([...kb.documents().keys()].sort()).toEqual([BIDI, 'plain.md']);
  });

  it('search text shows the escaped path; search JSON keeps the real one', () => {
    kb.write(BIDI, noteText('bidiname'));
    expect(groove(['index', ...kbArgs(), '--model', 'none', '--quiet']).code).toBe(0);
    const text = groove(['search', 'bidinamealpha', ...kbArgs(), '--format', 'text']);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(RAW_UNPRINTABLE);
    expect(text.stdout).toContain(BIDI_SHOWN);
    const json = groove(['search', 'bidinamealpha', ...kbArgs(), '--format', 'json']);
    expect(json.code).toBe(0);
    const paths = (JSON.parse(json.stdout) as { results: { path: string }[] }).results.map((r) => r.path);
    expect(paths).toContain(BIDI);
  });

  it('status and errors escape the KB and index paths they quote', () => {
    const oddKb = path.join(kb.root, 'kb\nKB:            forged');
    fs.mkdirSync(oddKb);
    fs.writeFileSync(path.join(oddKb, 'note.md'), noteText('odd'));
    const odd = ['--kb-path', oddKb, '--db-path', path.join(kb.root, 'odd.db')];
    expect(groove(['index', ...odd, '--model', 'none', '--quiet']).code).toBe(0);
    const status = groove(['status', ...odd, '--format', 'text']);
    expect(status.code).toBe(0);
    expect(status.stdout.split('\n').filter((l) => l.startsWith('KB:'))).toHaveLength(1);
    expect(status.stdout).toContain('kb\\nKB:            forged');

    const missing = groove([
      'index',
      '--kb-path',
      path.join(kb.root, 'no\nsuch\u001b[31m'),
      '--model',
      'none',
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('no\\nsuch\\x1b[31m');
  });
});
