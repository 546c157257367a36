// The built CLI on three registered KBs at once, from an unrelated folder with GROOVE_HOME in a temp folder:
// `groove search --kb a --kb b --kb c` ranks as one KB holding every file (lexical-only, `--model none`), each hit
// names its KB, and the same holds for a hybrid search with a generated test model; a filter matching one KB's
// files only finds them, an unknown name is a usage error naming the
// known ones, and `groove status` shows each KB.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../support/cli-sandbox.js';
import { ensureTinyModel } from '../support/test-models.js';

const PARTS = ['alpha', 'beta', 'gamma'] as const;
const FILES = 36;
const VOCABULARY = [
  'restic',
  'backup',
  'password',
  'rotate',
  'snapshot',
  'nightly',
  'postgres',
  'replica',
  'vacuum',
  'index',
  'latency',
  'budget',
  'invoice',
  'quarter',
  'kernel',
  'firewall',
  'certificate',
  'renewal',
  'garden',
  'compost',
];
const QUERIES = [
  'restic backup',
  'password rotate',
  'postgres replica vacuum',
  'certificate renewal',
  'kernel firewall latency',
  'garden compost budget',
  'nightly snapshot',
  'invoice quarter -garden',
  'vacuum',
];

let root: string;
let box: CliSandbox;
const groove = (args: string[]) => box.groove(args);
/** The KB each file went to. */
const partOf = new Map<string, string>();

/** A deterministic note: words drawn by a small linear congruential generator, lengths that differ per file. */
function noteText(seed: number): string {
  let state = seed * 7919 + 17;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  const words: string[] = [];
  for (let i = 0; i < 20 + seed * 3; i++) words.push(VOCABULARY[next() % VOCABULARY.length]!);
  return `# Note ${seed}\n\n${words.join(' ')}\n`;
}

interface Hit {
  kb?: string;
  path: string;
  score: number;
}

function search(query: string, kbs: readonly string[], extra: string[] = []): Hit[] {
  const args = ['search', query, ...kbs.flatMap((kb) => ['--kb', kb]), '--limit', '10', ...extra];
  const run = groove(args);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return (JSON.parse(run.stdout) as { results: Hit[] }).results;
}

/**
 * The same ranking up to ties: equal scores (symmetric fused ranks) are ordered by chunk id, which differs between
 * one KB and several. Hits are grouped by score; every group is the same set of paths, but the last, cut at the
 * limit, which only has the same score and size.
 */
function expectSameRanking(across: Hit[], whole: Hit[], query: string): void {
  const groups = (hits: Hit[]) => {
    const out: { score: string; paths: string[] }[] = [];
    for (const hit of hits) {
      const score = hit.score.toFixed(12);
      if (out.at(-1)?.score !== score) out.push({ score, paths: [] });
      out.at(-1)!.paths.push(hit.path);
    }
    return out.map((group) => ({ ...group, paths: group.paths.sort() }));
  };
  const [mine, theirs] = [groups(across), groups(whole)];
  expect(mine.length, query).toBe(theirs.length);
  for (const [i, group] of mine.entries()) {
    const cut = i === mine.length - 1;
    expect(group.score, query).toBe(theirs[i]!.score);
    if (cut) expect(group.paths.length, query).toBe(theirs[i]!.paths.length);
    else expect(group.paths, query).toEqual(theirs[i]!.paths);
  }
}

beforeAll(() => {
  box = cliSandbox('groove-multikb-');
  root = box.root;
  const folders = [...PARTS, 'everything'].map((name) => path.join(root, 'kbs', name));
  for (const folder of folders) fs.mkdirSync(path.join(folder, 'special'), { recursive: true });
  for (let i = 1; i <= FILES; i++) {
    const part = PARTS[i % PARTS.length]!;
    // The files under special/ all live in gamma: a path filter that matches one KB only.
    const rel = part === 'gamma' && i % 2 === 0 ? `special/note-${i}.md` : `note-${i}.md`;
    partOf.set(rel, part);
    const text = noteText(i);
    fs.writeFileSync(path.join(root, 'kbs', part, rel), text);
    fs.writeFileSync(path.join(root, 'kbs', 'everything', rel), text);
  }
  for (const [i, name] of [...PARTS, 'everything'].entries()) {
    const added = groove(['kb', 'add', name, folders[i]!, '--model', 'none']);
    expect(added.code, added.stderr).toBe(0);
    const indexed = groove(['index', '--kb', name]);
    expect(indexed.code, indexed.stderr).toBe(0);
  }
}, 120_000);

afterAll(() => box.remove());

describe('groove search with several --kb', () => {
  it('ranks the three KBs as one KB holding every file, each hit naming its KB', () => {
    for (const query of QUERIES) {
      const whole = search(query, ['everything']);
      const across = search(query, PARTS);
      expect(whole.length, query).toBeGreaterThan(0);
      expectSameRanking(across, whole, query);
      for (const hit of across) expect(hit.kb, `${query}: ${hit.path}`).toBe(partOf.get(hit.path));
    }
    // The hits do come from every KB, so the comparison covers the combined statistics.
    const kbs = new Set(search('restic backup', PARTS).map((hit) => hit.kb));
    expect([...kbs].sort()).toEqual([...PARTS]);
  });

  it('hybrid, with a generated test model: the same ranking as one KB holding every file', () => {
    const model = ['--model-dir', ensureTinyModel('embed'), '--pooling', 'mean', '--query-prefix', ''];
    const names = ['h-alpha', 'h-beta', 'h-gamma', 'h-everything'];
    for (const [i, name] of names.entries()) {
      const source = path.join(root, 'kbs', [...PARTS, 'everything'][i]!);
      const folder = path.join(root, 'hybrid', name);
      fs.cpSync(source, folder, { recursive: true });
      expect(groove(['kb', 'add', name, folder]).code).toBe(0);
      const indexed = groove(['index', '--kb', name, ...model]);
      expect(indexed.code, indexed.stderr).toBe(0);
    }
    for (const query of QUERIES.slice(0, 5)) {
      const whole = search(query, ['h-everything'], model);
      const across = search(query, names.slice(0, 3), model);
      expect(whole.length, query).toBeGreaterThan(0);
      expectSameRanking(across, whole, query);
      for (const hit of across) expect(hit.kb, query).toBe(`h-${partOf.get(hit.path)}`);
    }
  }, 120_000);

  it('a path filter that matches one KB only returns its hits, as the whole KB does', () => {
    for (const query of ['restic backup', 'garden compost']) {
      const whole = search(query, ['everything'], ['--path-glob', 'special/**']);
      const across = search(query, PARTS, ['--path-glob', 'special/**']);
      expect(whole.length, query).toBeGreaterThan(0);
      expectSameRanking(across, whole, query);
      expect(new Set(across.map((hit) => hit.kb))).toEqual(new Set(['gamma']));
    }
  });

  it('--format text shows the KB of each hit', () => {
    const run = groove(['search', 'restic', ...PARTS.flatMap((kb) => ['--kb', kb]), '--format', 'text']);
    expect(run.code, run.stderr).toBe(0);
    const heads = run.stdout.split('\n').filter((line) => /^\d+\. /.test(line));
    expect(heads.length).toBeGreaterThan(0);
    for (const line of heads) {
      const match = /\[(\w+)\] (\S+?):\d+$/.exec(line);
      expect(match, line).not.toBeNull();
      expect(match![1]).toBe(partOf.get(match![2]!));
    }
  });

  it('an unknown KB among several is exit 2 naming the known ones', () => {
    const run = groove(['search', 'restic', '--kb', 'alpha', '--kb', 'delta']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no KB named "delta"');
    expect(run.stderr).toContain('registered: alpha, beta, gamma, everything');
  });
});

describe('groove status with several --kb', () => {
  it('json: one element per KB in the order named; text: one block per KB', () => {
    const json = groove(['status', '--kb', 'gamma', '--kb', 'alpha', '--kb', 'beta', '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const reports = JSON.parse(json.stdout) as { kb: string; kb_path: string; documents: number }[];
    expect(reports.map((r) => r.kb)).toEqual(['gamma', 'alpha', 'beta']);
    for (const report of reports) {
      expect(report.kb_path).toBe(path.join(root, 'kbs', report.kb));
      expect(report.documents).toBe([...partOf.values()].filter((part) => part === report.kb).length);
    }
    const text = groove(['status', '--kb', 'alpha', '--kb', 'beta']);
    expect(text.code, text.stderr).toBe(0);
    const blocks = text.stdout.split(/^\[(\w+)\]$/m).slice(1);
    expect(blocks.filter((_, i) => i % 2 === 0)).toEqual(['alpha', 'beta']);
    expect(blocks[1]).toContain(path.join(root, 'kbs', 'alpha'));
    expect(blocks[3]).toContain(path.join(root, 'kbs', 'beta'));
  });
});
