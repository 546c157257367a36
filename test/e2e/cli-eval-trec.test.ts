// TREC interop end to end through runCli: import a golden set from BEIR-style files, evaluate it, export the
// run and the qrels, recompute every metric from the exported files with an implementation written here from
// the metric definitions, and import the exported qrels back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGroove } from '../support/run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let root: string;
let kb: string;

/** `groove eval golden import --kb-path <kb> …args`. */
function importGolden(...args: string[]) {
  return groove('eval', 'golden', 'import', '--kb-path', kb, ...args);
}

function groove(...args: string[]) {
  return runGroove(args, { cwd: root, env: {} });
}

const QUERIES = [
  'reset\tforgot password recovery link',
  'backup\tpg_restore restore database',
  'two words\tsearch syntax operators',
  'unjudged\tnobody judged this one',
  '',
].join('\n');
const QRELS = [
  'query-id\tcorpus-id\tscore',
  'reset\tguides/password-reset.md#Self-service%20recovery\t1',
  'reset\tguides/search-syntax.md\t0',
  'backup\tops/backup-runbook.md\t2',
  'backup\tguides/password-reset.md\t1',
  'two%20words\tguides/search-syntax.md\t1',
  '',
].join('\n');

beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
  kb = path.join(root, 'kb');
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb, { recursive: true });
  fs.writeFileSync(path.join(root, 'queries.tsv'), QUERIES);
  fs.writeFileSync(path.join(root, 'qrels.tsv'), QRELS);
  const indexed = await groove('index', '--kb-path', kb, '--model', 'none');
  expect(indexed.code, indexed.stderr).toBe(0);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** trec_eval's reading of a run: per query, docids by score descending, ties by docid descending. */
function readRun(text: string): Map<string, string[]> {
  const rows = new Map<string, { docid: string; score: number }[]>();
  for (const line of text.split('\n').filter((l) => l !== '')) {
    const [qid, q0, docid, , score, tag] = line.split(' ');
    expect(q0).toBe('Q0');
    expect(tag).toBe('groove');
    rows.set(qid!, [...(rows.get(qid!) ?? []), { docid: docid!, score: Number(score) }]);
  }
  const out = new Map<string, string[]>();
  for (const [qid, list] of rows) {
    list.sort((a, b) => b.score - a.score || (a.docid < b.docid ? 1 : a.docid > b.docid ? -1 : 0));
    out.set(
      qid,
      list.map((r) => r.docid),
    );
  }
  return out;
}

function readQrels(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const line of text.split('\n').filter((l) => l !== '')) {
    const [qid, , docid, rel] = line.split(' ');
    if (Number(rel) > 0) out.set(qid!, new Set([...(out.get(qid!) ?? []), docid!]));
  }
  return out;
}

/** Every metric from its textbook definition, averaged over the qrels' queries. */
function score(run: Map<string, string[]>, qrels: Map<string, Set<string>>, k: number) {
  const sums = { recall: 0, rr: 0, ndcg: 0, p: 0, ap: 0, rprec: 0, hit: 0 };
  for (const [qid, relevant] of qrels) {
    const ranking = run.get(qid) ?? [];
    const isRel = ranking.map((d) => relevant.has(d));
    const top = isRel.slice(0, k);
    const found = top.filter(Boolean).length;
    sums.recall += found / relevant.size;
    const first = isRel.indexOf(true);
    sums.rr += first === -1 ? 0 : 1 / (first + 1);
    let dcg = 0;
    top.forEach((r, i) => {
      if (r) dcg += 1 / Math.log2(i + 2);
    });
    let idcg = 0;
    for (let i = 0; i < Math.min(relevant.size, k); i++) idcg += 1 / Math.log2(i + 2);
    sums.ndcg += dcg / idcg;
    sums.p += found / k;
    let seen = 0;
    let ap = 0;
    top.forEach((r, i) => {
      if (!r) return;
      seen += 1;
      ap += seen / (i + 1);
    });
    sums.ap += ap / relevant.size;
    sums.rprec += isRel.slice(0, relevant.size).filter(Boolean).length / relevant.size;
    sums.hit += found > 0 ? 1 : 0;
  }
  const n = qrels.size;
  return Object.fromEntries(Object.entries(sums).map(([key, v]) => [key, v / n])) as typeof sums;
}

describe('groove eval TREC interop', () => {
  it('import -> eval -> export: an independent scorer over the exported files gets groove numbers', async () => {
    const imported = await importGolden(
      '--qrels',
      'qrels.tsv',
      '--queries',
      'queries.tsv',
      '--out',
      'golden.yml',
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('3 of 4 queries');
    const golden = fs.readFileSync(path.join(root, 'golden.yml'), 'utf8');
    expect(golden).toContain('id: two words');
    expect(golden).toContain('heading: Self-service recovery');

    const evaluated = await groove(
      'eval',
      '--kb-path',
      kb,
      '--golden',
      'golden.yml',
      '--no-history',
      '--format',
      'json',
      '--trec-run',
      'run.txt',
      '--trec-qrels',
      'qrels.txt',
    );
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(evaluated.stderr).toContain(`wrote ${path.join(root, 'run.txt')}`);
    type ByK = Record<string, number>;
    const aggregate = (
      JSON.parse(evaluated.stdout) as {
        aggregate: {
          recall_at_k: ByK;
          ndcg_at_k: ByK;
          precision_at_k: ByK;
          map_at_k: ByK;
          hit_rate_at_k: ByK;
          mrr: number;
          r_precision: number;
        };
      }
    ).aggregate;
    const qrelsText = fs.readFileSync(path.join(root, 'qrels.txt'), 'utf8');
    expect(qrelsText).toBe(
      [
        'reset 0 guides/password-reset.md#Self-service%20recovery 1',
        'backup 0 ops/backup-runbook.md 1',
        'backup 0 guides/password-reset.md 1',
        'two%20words 0 guides/search-syntax.md 1',
        '',
      ].join('\n'),
    );
    const runText = fs.readFileSync(path.join(root, 'run.txt'), 'utf8');
    // A second chunk of a found document carries its own id, so no TREC tool credits the document twice.
    expect(runText).toMatch(
      /^backup Q0 ops\/backup-runbook\.md 1 \d+ groove\nbackup Q0 ops\/backup-runbook\.md#\S+ 2 /m,
    );
    const run = readRun(runText);
    const qrels = readQrels(qrelsText);
    expect([...run.keys()].sort()).toEqual(['backup', 'reset', 'two%20words']);
    for (const k of [1, 5, 10]) {
      const mine = score(run, qrels, k);
      expect(aggregate.recall_at_k[k]).toBeCloseTo(mine.recall, 12);
      expect(aggregate.ndcg_at_k[k]).toBeCloseTo(mine.ndcg, 12);
      expect(aggregate.precision_at_k[k]).toBeCloseTo(mine.p, 12);
      expect(aggregate.map_at_k[k]).toBeCloseTo(mine.ap, 12);
      expect(aggregate.hit_rate_at_k[k]).toBeCloseTo(mine.hit, 12);
      expect(aggregate.mrr).toBeCloseTo(mine.rr, 12);
      expect(aggregate.r_precision).toBeCloseTo(mine.rprec, 12);
    }
    // Something was found and something missed, so the comparison is not of zeros.
    expect(aggregate.recall_at_k[10]).toBeGreaterThan(0);

    // The exported qrels import back to the same golden queries.
    const again = await importGolden(
      '--qrels',
      'qrels.txt',
      '--queries',
      'queries.tsv',
      '--out',
      'again.yml',
    );
    expect(again.code, again.stderr).toBe(0);
    const body = (text: string) =>
      text
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('\n');
    expect(body(fs.readFileSync(path.join(root, 'again.yml'), 'utf8'))).toBe(body(golden));
  });

  it('names the file and line of malformed input, and accepts BEIR JSONL queries', async () => {
    fs.writeFileSync(path.join(root, 'bad.tsv'), 'reset 0 a.md 1\nreset a.md\n');
    const bad = await importGolden('--qrels', 'bad.tsv', '--queries', 'queries.tsv', '--out', 'x.yml');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`"${path.join(root, 'bad.tsv')}" line 2: expected 3 columns`);
    expect(fs.existsSync(path.join(root, 'x.yml'))).toBe(false);

    fs.writeFileSync(
      path.join(root, 'q.jsonl'),
      '{"_id": "reset", "text": "forgot password", "metadata": {}}\n{"_id": 7}\n',
    );
    const jsonl = await importGolden('--qrels', 'qrels.tsv', '--queries', 'q.jsonl', '--out', 'x.yml');
    expect(jsonl.code).toBe(1);
    expect(jsonl.stderr).toContain('line 2: missing `text`');

    fs.writeFileSync(path.join(root, 'q.jsonl'), '{"_id": "reset", "text": "forgot password"}\n');
    fs.writeFileSync(path.join(root, 'r.tsv'), 'reset\tguides/password-reset.md\t1\n');
    const ok = await importGolden('--qrels', 'r.tsv', '--queries', 'q.jsonl');
    expect(ok.code, ok.stderr).toBe(0);
    // Without --out the set goes to the KB's own folder in groove's data folder, never into the KB.
    const written = /^wrote (.+): /.exec(ok.stdout)![1]!;
    expect(path.basename(written)).toBe('golden.yml');
    expect(path.relative(kb, written).startsWith('..')).toBe(true);
    expect(fs.existsSync(path.join(kb, '.groove-eval.yml'))).toBe(false);
    expect(fs.readFileSync(written, 'utf8')).toContain('- path: guides/password-reset.md');
    // groove eval finds it there by default.
    const measured = await groove('eval', '--kb-path', kb, '--no-history', '--format', 'json');
    expect(measured.code, measured.stderr).toBe(0);
    const perQuery = (JSON.parse(measured.stdout) as { per_query: { id: string }[] }).per_query;
    expect(perQuery.map((q) => q.id)).toEqual(['reset']);
    // The default output is never overwritten.
    const twice = await importGolden('--qrels', 'r.tsv', '--queries', 'q.jsonl');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('refusing to overwrite');
  });
});
