// Each knowledge base owns its index, whatever folder a command is started from, through the built CLI: sibling
// KBs with default paths keep separate indexes, an index is refused for a KB it does not belong to, a run started
// from another folder never drops documents an earlier run's settings indexed, and eval writes nothing in the KB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDocx } from '../support/office-files.js';
import { killBinWhen, runBin } from '../support/run-bin.js';

let root: string;
let env: Record<string, string>;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-kbs-')));
  // No groove.toml anywhere above `elsewhere`, and groove's own folders in the temp folder.
  env = { GROOVE_HOME: path.join(root, 'groove-home') };
  fs.mkdirSync(path.join(root, 'elsewhere'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function write(relPath: string, content: string | Buffer): string {
  const file = path.join(root, relPath);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/** `groove …` started from `cwd` (default: a folder with no groove.toml). */
/** A KB folder of five notes: `note` plus four fillers, so the lexical statistics rank a one-word query. */
function writeKb(relDir: string, fileName: string, text: string): string {
  write(`${relDir}/${fileName}`, text);
  for (const [i, word] of ['kettle', 'lantern', 'meadow', 'nickel'].entries()) {
    write(`${relDir}/filler-${i}.md`, `# Filler ${word}\n\nNotes about the ${word} and nothing else.\n`);
  }
  return path.join(root, relDir);
}

function groove(args: string[], cwd = path.join(root, 'elsewhere')) {
  return runBin(args, cwd, env);
}

function status(kb: string, ...extra: string[]): { db_path: string; documents: number; kb_path: string } {
  const run = groove(['status', '--kb-path', kb, '--format', 'json', ...extra]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

function storedPaths(dbPath: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT path FROM documents ORDER BY path').pluck().all() as string[];
  } finally {
    db.close();
  }
}

function searchPaths(kb: string, query: string, ...extra: string[]): string[] {
  const run = groove(['search', query, '--kb-path', kb, '--format', 'json', '--no-server', ...extra]);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { results: { path: string }[] }).results.map((hit) => hit.path);
}

function listTree(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
}

describe('sibling knowledge bases with default paths', () => {
  it('keep one index each, outside the KB folders, and never take over each other', () => {
    const a = path.join(root, 'kb', 'a');
    const b = path.join(root, 'kb', 'b');
    writeKb(
      'kb/a',
      'apple.md',
      '# Apple\n\nAlpha orchard harvest notes: the apples were picked in late September and stored in the cool cellar.\n',
    );
    writeKb(
      'kb/b',
      'banana.md',
      '# Banana\n\nBravo plantation shipping notes: the bananas left the port in crates bound for the northern markets.\n',
    );
    const first = groove(['index', '--kb-path', a, '--model', 'none']);
    expect(first.code, first.stderr).toBe(0);
    const second = groove(['index', '--kb-path', b, '--model', 'none']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).not.toMatch(/deleted [1-9]/);

    const statusA = status(a);
    const statusB = status(b);
    expect(statusA.db_path).not.toBe(statusB.db_path);
    expect(statusA.db_path.startsWith(path.join(root, 'groove-home', 'data'))).toBe(true);
    expect(storedPaths(statusA.db_path)).toContain('apple.md');
    expect(storedPaths(statusA.db_path)).not.toContain('banana.md');
    expect(storedPaths(statusB.db_path)).toContain('banana.md');
    expect(searchPaths(a, 'orchard')).toEqual(['apple.md']);
    expect(searchPaths(b, 'plantation')).toEqual(['banana.md']);
    expect(searchPaths(a, 'plantation')).toEqual([]);
    // Nothing written next to or inside the KBs.
    const files = ['filler-0.md', 'filler-1.md', 'filler-2.md', 'filler-3.md'];
    expect(listTree(path.join(root, 'kb'))).toEqual(
      ['a', 'b', ...files.flatMap((f) => [`a/${f}`, `b/${f}`]), 'a/apple.md', 'b/banana.md'].sort(),
    );
  });

  it('refuse one index file named for two KBs, before anything is written', () => {
    const a = path.join(root, 'kb', 'a');
    const b = path.join(root, 'kb', 'b');
    write(
      'kb/a/apple.md',
      '# Apple\n\nAlpha orchard harvest notes: the apples were picked in late September and stored in the cool cellar.\n',
    );
    write(
      'kb/b/banana.md',
      '# Banana\n\nBravo plantation shipping notes: the bananas left the port in crates bound for the northern markets.\n',
    );
    const dbPath = path.join(root, 'shared.groove.db');
    expect(groove(['index', '--kb-path', a, '--db-path', dbPath, '--model', 'none']).code).toBe(0);
    const before = fs.readFileSync(dbPath);
    for (const command of [
      ['index', '--model', 'none'],
      ['index', '--force'],
      ['status'],
      ['search', 'bravo'],
    ]) {
      const run = groove([...command, '--kb-path', b, '--db-path', dbPath]);
      expect(run.code, command.join(' ')).toBe(1);
      expect(run.stderr).toContain(`belongs to the knowledge base "${a}"`);
      expect(run.stderr).toContain(`not to "${b}"`);
      expect(run.stderr).toContain('--db-path');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(fs.readFileSync(dbPath)).toEqual(before);
    expect(storedPaths(dbPath)).toEqual(['apple.md']);
  });
});

/** An index as an older groove wrote it: no record of its KB, at `<parent>/.groove.db`. */
function makeLegacyIndex(kb: string): string {
  const legacy = path.join(path.dirname(kb), '.groove.db');
  expect(groove(['index', '--kb-path', kb, '--db-path', legacy, '--model', 'none']).code).toBe(0);
  const db = new Database(legacy);
  db.prepare("DELETE FROM index_meta WHERE key IN ('kb_root', 'kb_name', 'shaping_settings')").run();
  db.close();
  return legacy;
}

describe('an index from before the KB record', () => {
  it('at <parent>/.groove.db keeps working for the KB whose files it holds, and only for it', () => {
    const a = path.join(root, 'kb', 'a');
    const b = path.join(root, 'kb', 'b');
    writeKb(
      'kb/a',
      'apple.md',
      '# Apple\n\nAlpha orchard harvest notes: the apples were picked in late September and stored in the cool cellar.\n',
    );
    write(
      'kb/b/banana.md',
      '# Banana\n\nBravo plantation shipping notes: the bananas left the port in crates bound for the northern markets.\n',
    );
    const legacy = makeLegacyIndex(a);

    expect(status(a).db_path).toBe(legacy);
    expect(searchPaths(a, 'orchard')).toEqual(['apple.md']);
    // b's files are not in it: b gets its own index and the old one is left alone.
    expect(groove(['index', '--kb-path', b, '--model', 'none']).code).toBe(0);
    expect(status(b).db_path).not.toBe(legacy);
    const held = storedPaths(legacy);
    expect(held).toHaveLength(5);

    // Named explicitly for b, it is refused, naming the rule.
    const refused = groove(['index', '--kb-path', b, '--db-path', legacy, '--model', 'none']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("holds another knowledge base's documents");
    expect(refused.stderr).toContain('0 of 5 sampled documents');
    expect(storedPaths(legacy)).toEqual(held);

    // A run for a adopts it: the record is written, and b is then refused by name.
    expect(groove(['index', '--kb-path', a, '--model', 'none']).code).toBe(0);
    const again = groove(['status', '--kb-path', b, '--db-path', legacy]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`belongs to the knowledge base "${a}"`);
  });
});

describe('a run started from another folder', () => {
  async function officeKb(): Promise<{ kb: string; project: string }> {
    const kb = path.join(root, 'kb', 'docs');
    writeKb('kb/docs', 'readme.md', '# Readme\n\nGeneral notes about the quarterly plan.\n');
    write(
      'kb/docs/budget.docx',
      await makeDocx({ blocks: [{ heading: 'Budget', level: 1 }, { paragraph: 'Zebra funding for 2026.' }] }),
    );
    const project = path.join(root, 'project');
    write('project/groove.toml', 'model = "none"\n[parsers]\nenabled = ["md", "docx"]\n');
    const first = groove(['index', '--kb-path', kb], project);
    expect(first.code, first.stderr).toBe(0);
    return { kb, project };
  }

  it('`groove index` refuses to drop the Office documents a groove.toml enabled, naming the setting', async () => {
    const { kb } = await officeKb();
    const dbPath = status(kb).db_path;
    const held = storedPaths(dbPath);
    expect(held).toContain('budget.docx');
    for (const args of [[], ['--force']]) {
      const run = groove(['index', '--kb-path', kb, ...args]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('refusing to drop 1 document');
      expect(run.stderr).toContain(
        '1 docx (parser not enabled: [parsers] enabled, [parsers.code] languages)',
      );
      expect(run.stderr).toContain('the index was built with [parsers] enabled = ["docx", "md"]');
      expect(run.stderr).toContain('--config');
      expect(storedPaths(dbPath)).toEqual(held);
    }
    expect(searchPaths(kb, 'zebra')).toEqual(['budget.docx']);
  });

  it('drops them when the settings are named on purpose with --config, and says so', async () => {
    const { kb } = await officeKb();
    const mdOnly = write('md-only.toml', 'model = "none"\n[parsers]\nenabled = ["md"]\n');
    const run = groove(['index', '--kb-path', kb, '--config', mdOnly]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('dropping 1 document');
    expect(run.stderr).toContain(`--config "${mdOnly}"`);
    expect(storedPaths(status(kb).db_path)).not.toContain('budget.docx');
    expect(storedPaths(status(kb).db_path)).toContain('readme.md');
  });

  it('`groove serve` keeps serving every document and says why it kept them', async () => {
    const { kb } = await officeKb();
    const dbPath = status(kb).db_path;
    const served = await killBinWhen(
      ['serve', '--kb-path', kb],
      path.join(root, 'elsewhere'),
      (stderr) => /live sync: \d+ added/.test(stderr) || /live sync failed/.test(stderr),
      env,
    );
    expect(served.stderr).toContain('kept 1 document');
    expect(served.stderr).toMatch(/live sync: 0 added, 0 updated, 0 renamed, 0 deleted/);
    expect(storedPaths(dbPath)).toContain('budget.docx');
  });
});

describe('groove eval', () => {
  it('writes nothing in the KB folder or beside it; its history lives in groove data folder', () => {
    const kb = path.join(root, 'kb', 'notes');
    writeKb(
      'kb/notes',
      'apple.md',
      '# Apple\n\nAlpha orchard harvest notes: the apples were picked in late September and stored in the cool cellar.\n',
    );
    const golden = write(
      'golden.yml',
      'queries:\n  - query: "orchard harvest"\n    expected:\n      - path: apple.md\n',
    );
    expect(groove(['index', '--kb-path', kb, '--model', 'none']).code).toBe(0);
    const before = listTree(path.join(root, 'kb'));
    for (let run = 0; run < 2; run++) {
      const result = groove(['eval', '--kb-path', kb, '--golden', golden]);
      expect(result.code, result.stderr).toBe(0);
    }
    expect(listTree(path.join(root, 'kb'))).toEqual(before);
    const data = listTree(path.join(root, 'groove-home', 'data'));
    expect(data.filter((name) => name.endsWith('eval-history.json'))).toHaveLength(1);
  });
});
