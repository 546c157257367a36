// `groove eval --kb a --kb b --kb c` through the built CLI, from an unrelated folder with GROOVE_HOME in a temp
// folder, on three KBs indexed lexical-only: the cross-KB eval scores exactly as eval of one KB holding every file
// (each under its KB's name) with the equivalent golden file; `kb:` picks the copy of a path two KBs hold; the
// JSON names the KBs; a second run diffs, a run over another KB set does not diff against it; a `kb:` naming a
// KB not measured, and a missing --golden, are refused with exit 2.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../support/cli-sandbox.js';

const PARTS = ['alpha', 'beta', 'gamma'] as const;
const WORDS = ['restic', 'backup', 'password', 'rotate', 'postgres', 'replica', 'vacuum', 'kernel', 'garden'];

let root: string;
let box: CliSandbox;
const groove = (args: string[]) => box.groove(args);

/** A deterministic note of `seed`: words drawn by a small generator, lengths that differ per note. */
function noteText(seed: number): string {
  let state = seed * 7919 + 17;
  const words: string[] = [];
  for (let i = 0; i < 12 + seed * 2; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    words.push(WORDS[state % WORDS.length]!);
  }
  return `# Note ${seed}\n\n${words.join(' ')}\n`;
}

/** An expected entry: its KB (null = any) and its path inside that KB. */
type Entry = [kb: string | null, rel: string];

const GOLDEN: { query: string; expected: Entry[] }[] = [
  {
    query: 'restic backup',
    expected: [
      ['beta', 'shared.md'],
      [null, 'note-3.md'],
    ],
  },
  {
    query: 'postgres replica',
    expected: [
      [null, 'note-4.md'],
      ['gamma', 'note-8.md'],
    ],
  },
  {
    query: 'kernel garden',
    expected: [
      ['alpha', 'shared.md'],
      [null, 'note-7.md'],
    ],
  },
  { query: 'password rotate vacuum', expected: [[null, 'note-5.md']] },
];

/** The KB each note goes to; `shared.md` is in alpha and beta, with different words. */
const NOTES: [kb: string, rel: string, seed: number][] = [
  ['alpha', 'shared.md', 11],
  ['beta', 'shared.md', 12],
  ...Array.from({ length: 9 }, (_, i): [string, string, number] => [
    PARTS[i % 3]!,
    `note-${i + 1}.md`,
    i + 1,
  ]),
];

function goldenYaml(entry: (e: Entry) => string): string {
  const lines = ['queries:'];
  for (const q of GOLDEN) {
    lines.push(`  - query: ${q.query}`, '    expected:');
    for (const e of q.expected) lines.push(`      - ${entry(e)}`);
  }
  return `${lines.join('\n')}\n`;
}

function kbOf(rel: string): string {
  return NOTES.find(([, r]) => r === rel)![0];
}

interface EvalJson {
  kbs: string[] | null;
  diff: object | null;
  previous: object | null;
  aggregate: { recall_at_k: Record<string, number>; mrr: number; ndcg_at_k: Record<string, number> };
  per_query: { top_k: { kb?: string; path: string }[] }[];
}

function evalJson(args: string[]): EvalJson {
  const run = groove(['eval', ...args, '--format', 'json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as EvalJson;
}

const across = PARTS.flatMap((kb) => ['--kb', kb]);
let crossGolden: string;

beforeAll(() => {
  box = cliSandbox('groove-evalacross-');
  root = box.root;
  for (const [kb, rel, seed] of NOTES) {
    for (const target of [path.join(root, 'kbs', kb, rel), path.join(root, 'kbs', 'everything', kb, rel)]) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, noteText(seed));
    }
  }
  for (const name of [...PARTS, 'everything']) {
    expect(groove(['kb', 'add', name, path.join(root, 'kbs', name), '--model', 'none']).code).toBe(0);
    const indexed = groove(['index', '--kb', name]);
    expect(indexed.code, indexed.stderr).toBe(0);
  }
  crossGolden = path.join(root, 'across.yml');
  fs.writeFileSync(
    crossGolden,
    goldenYaml(([kb, rel]) => (kb === null ? `path: ${rel}` : `{ kb: ${kb}, path: ${rel} }`)),
  );
  fs.writeFileSync(
    path.join(root, 'whole.yml'),
    goldenYaml(([kb, rel]) => `path: ${kb ?? kbOf(rel)}/${rel}`),
  );
}, 120_000);

afterAll(() => box.remove());

describe('groove eval with several --kb', () => {
  it('scores as eval of one KB holding every file, and a second run diffs against the first', () => {
    const whole = evalJson(['--kb', 'everything', '--golden', path.join(root, 'whole.yml'), '--no-history']);
    const first = evalJson([...across, '--golden', crossGolden]);
    expect(first.kbs).toEqual([...PARTS]);
    expect(whole.kbs).toBeNull();
    for (const key of ['recall_at_k', 'ndcg_at_k'] as const) {
      for (const [k, value] of Object.entries(whole.aggregate[key])) {
        expect(first.aggregate[key][k], `${key}@${k}`).toBeCloseTo(value, 12);
      }
    }
    expect(first.aggregate.mrr).toBeCloseTo(whole.aggregate.mrr, 12);
    // The measurement is not trivial: some expected entries are found, not all at rank 1.
    expect(first.aggregate.mrr).toBeGreaterThan(0);
    expect(first.aggregate.recall_at_k['10']).toBeGreaterThan(0);
    // Each hit names its KB, and the two copies of shared.md are told apart.
    const hits = first.per_query.flatMap((q) => q.top_k);
    expect(new Set(hits.map((h) => h.kb))).toEqual(new Set(PARTS));
    expect(first.previous).toBeNull();

    const second = evalJson([...across, '--golden', crossGolden]);
    expect(second.previous).not.toBeNull();
    expect(second.diff).not.toBeNull();
    // The KB set's history is in its own folder of groove's data folder, named after the sorted names.
    const written = fs.readdirSync(path.join(root, 'groove'), { recursive: true }).map(String);
    expect(written.some((f) => f.endsWith(path.join('kbs', 'alpha+beta+gamma', 'eval-history.json')))).toBe(
      true,
    );
  });

  it('a run over another KB set does not diff against it; the same set in another order does', () => {
    const plain = path.join(root, 'plain.yml');
    fs.writeFileSync(
      plain,
      goldenYaml(([, rel]) => `path: ${rel}`),
    );
    const three = groove(['eval', ...across, '--golden', plain, '--format', 'json']);
    expect(three.code, three.stderr).toBe(0);
    const exported = path.join(root, 'three.json');
    fs.writeFileSync(exported, three.stdout);
    const two = ['--kb', 'alpha', '--kb', 'beta', '--golden', plain];
    const own = evalJson(two);
    expect(own.kbs).toEqual(['alpha', 'beta']);
    expect(own.previous).toBeNull();
    const versus = evalJson([...two, '--compare', exported]);
    expect(versus.previous).not.toBeNull();
    expect(versus.diff).toBeNull();
    const text = groove(['eval', ...two, '--compare', exported]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('knowledge bases measured changed');
    const reversed = evalJson(['--kb', 'gamma', '--kb', 'beta', '--kb', 'alpha', '--golden', plain]);
    expect(reversed.kbs).toEqual([...PARTS]);
    expect(reversed.diff).not.toBeNull();
  });

  it('refuses a kb: naming a KB not measured, and several --kb without --golden', () => {
    const bad = path.join(root, 'bad.yml');
    fs.writeFileSync(
      bad,
      'queries:\n  - query: restic\n    expected:\n      - { kb: delta, path: note-1.md }\n',
    );
    const run = groove(['eval', ...across, '--golden', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('queries[0].expected[0].kb');
    expect(run.stderr).toContain('"delta" is not one of the knowledge bases measured');
    const single = groove(['eval', '--kb', 'alpha', '--golden', crossGolden]);
    expect(single.code).toBe(2);
    expect(single.stderr).toContain('needs an eval across several knowledge bases');
    const missing = groove(['eval', ...across]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('needs --golden');
  });
});
