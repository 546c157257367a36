// `groove eval` end to end through runCli, on a temp copy of the sample KB indexed lexical-only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { evalHistoryIn, indexIn, kbOwnFolderFor } from '../support/kb-own-folder.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let root: string;
let kb: string;

const GOLDEN = `queries:
  - id: reset
    query: "forgot password recovery link"
    expected:
      - path: guides/password-reset.md
        heading: Self-service recovery
  - id: backup
    query: "pg_restore restore database"
    expected:
      - path: ops/backup-runbook.md
  - query: "売上報告書の作成"
    expected:
      - path: ja/uriage-houkoku.md
  - id: never
    query: "release checklist changelog"
    expected:
      - path: guides/search-syntax.md
`;

async function groove(args: string[], options: { tty?: boolean } = {}): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s), isTTY: options.tty ?? false },
    stderr: { write: (s: string) => (stderr += s) },
    env: { GROOVE_HOME: path.join(root, 'groove-home') },
    cwd: root,
  });
  return { code, stdout, stderr };
}

const evalCli = (...args: string[]) => groove(['eval', '--kb-path', kb, ...args]);
const evalJson = async (...args: string[]) => {
  const result = await evalCli('--format', 'json', ...args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
};
const ownFolder = () => kbOwnFolderFor(kb, { GROOVE_HOME: path.join(root, 'groove-home') }, root);
const historyPath = () => evalHistoryIn(ownFolder());
const readHistory = () =>
  JSON.parse(fs.readFileSync(historyPath(), 'utf8')) as { runs: Record<string, unknown>[] };

async function index(): Promise<void> {
  const result = await groove(['index', '--kb-path', kb, '--model', 'none']);
  expect(result.code, result.stderr).toBe(0);
}

beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
  kb = path.join(root, 'kb');
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb, { recursive: true });
  fs.writeFileSync(path.join(kb, '.groove-eval.yml'), GOLDEN);
  await index();
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('groove eval: output and history', () => {
  it('prints the text report, lists the miss, and records the run', async () => {
    const result = await evalCli();
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^groove eval — \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(lines[1]).toBe('  model: none    reranker: none    limit: 10    queries: 4');
    expect(lines[2]).toMatch(/^ {2}corpus: 7 docs \/ \d+ chunks$/);
    expect(result.stdout).toContain('\nAggregate\n  recall@1   ');
    expect(result.stdout).toMatch(/\n {2}MRR {8}\d\.\d{3}\n {2}nDCG@10 {4}\d\.\d{3}\n/);
    expect(result.stdout).toContain(
      'Per-query (regressions and misses, 1 of 4)\n  ✗ never                    recall@10: 0.00\n',
    );
    expect(result.stderr).toBe('');
    const history = readHistory();
    expect(history.runs).toHaveLength(1);
    expect(Object.keys(history.runs[0]!)).toEqual([
      'timestamp',
      'fingerprint',
      'corpus',
      'aggregate',
      'per_query',
    ]);
  });

  it('prints one JSON object with the documented keys; the second run diffs against the first', async () => {
    const first = await evalJson();
    expect(Object.keys(first)).toEqual([
      'timestamp',
      'fingerprint',
      'corpus',
      'corpus_changed',
      'aggregate',
      'per_query',
      'findings',
      'previous',
      'diff',
      'row',
      'degraded',
      'degradation',
      'paired',
      'gates',
      'kbs',
      'probe',
      'golden_freshness',
      'stale_quotes',
      'rows',
      'ablation',
    ]);
    expect(first.corpus_changed).toBeNull();
    expect(first.kbs).toBeNull();
    expect(first).toMatchObject({
      row: null,
      degraded: false,
      degradation: [],
      paired: null,
      rows: null,
      ablation: null,
    });
    expect(first.golden_freshness).toBeNull();
    expect(first.probe).toMatchObject({
      legs: {
        lexical: { status: 'ok' },
        vector: { status: 'disabled', candidates: 0 },
        reranker: { status: 'disabled', candidates: 0 },
      },
      down: [],
    });
    expect(first.previous).toBeNull();
    expect(first.diff).toBeNull();
    expect(first.findings).toEqual([]);
    const fingerprint = first.fingerprint as Record<string, unknown>;
    expect(fingerprint).toMatchObject({
      model: 'none',
      reranker: null,
      limit: 10,
      k_values: [1, 5, 10],
      metric_version: 2,
    });
    expect(fingerprint.golden_hash).toMatch(/^[0-9a-f]{64}$/);
    const perQuery = first.per_query as {
      id: string;
      top_k: { rank: number }[];
      metrics: Record<string, unknown>;
    }[];
    expect(perQuery.map((q) => q.id)).toEqual(['reset', 'backup', '売上報告書の作成', 'never']);
    expect(perQuery[0]!.top_k[0]!.rank).toBe(1);
    expect(Object.keys(perQuery[0]!.metrics)).toEqual([
      'recall_at_k',
      'reciprocal_rank',
      'ndcg_at_k',
      'precision_at_k',
      'average_precision_at_k',
      'hit_at_k',
      'r_precision',
    ]);

    const second = await evalJson();
    expect(second.corpus_changed).toBe(false);
    expect((second.previous as { timestamp: string }).timestamp).toBe(first.timestamp);
    const zero = { 1: 0, 5: 0, 10: 0 };
    expect(second.diff).toEqual({
      recall_at_k: zero,
      ndcg_at_k: zero,
      mrr: 0,
      precision_at_k: zero,
      map_at_k: zero,
      hit_rate_at_k: zero,
      r_precision: 0,
    });
    const text = await evalCli();
    expect(text.stdout).toMatch(
      /Aggregate \(previous run: [^)]+\)\n {2}recall@1 {3}\d\.\d{3} {2}\(—\) {2}95% CI \[\+0\.000, \+0\.000\] indistinguishable\n/,
    );
    expect((second.paired as { shared_queries: number }).shared_queries).toBe(4);
    expect(readHistory().runs).toHaveLength(3);
  });

  it('diffs P@k, MAP@k, hit rate@k and R-precision only against a run that has them', async () => {
    await evalCli();
    // The history as an older version wrote it: no extra metrics in the aggregate.
    const history = readHistory();
    const aggregate = history.runs[0]!.aggregate as Record<string, unknown>;
    for (const key of ['precision_at_k', 'map_at_k', 'hit_rate_at_k', 'r_precision']) delete aggregate[key];
    fs.writeFileSync(historyPath(), JSON.stringify(history));
    const json = await evalJson();
    expect(Object.keys(json.diff as object)).toEqual(['recall_at_k', 'ndcg_at_k', 'mrr']);
    const next = await evalJson();
    expect(Object.keys(next.diff as object)).toContain('r_precision');
  });

  it('disables the diff when the golden file changed, and when the configuration changed', async () => {
    await evalCli();
    fs.appendFileSync(path.join(kb, '.groove-eval.yml'), '# edited\n');
    const golden = await evalCli();
    expect(golden.stdout).toContain('\n⚠️ golden changed since last run, diff disabled\nAggregate\n');
    const json = await evalJson();
    expect(json.diff).not.toBeNull();
    const config = await evalCli('--parent-retriever');
    expect(config.stdout).toContain('⚠️ config or metric version changed since last run, diff disabled');
    const recorded = readHistory().runs[0]!.fingerprint as Record<string, unknown>;
    expect(recorded.parent_retriever).toEqual({ whole_doc_threshold_tokens: 100, max_expanded_tokens: 2000 });
    const k = await evalJson('--k', '3,1', '--limit', '2');
    expect(k.diff).toBeNull();
    expect(k.previous).not.toBeNull();
    expect((k.fingerprint as Record<string, unknown>).k_values).toEqual([1, 3]);
    expect((k.fingerprint as Record<string, unknown>).limit).toBe(2);
    expect((k.per_query as { top_k: unknown[] }[])[0]!.top_k.length).toBeLessThanOrEqual(3);
  });

  it('names a corpus change: counts moved, or same counts with different contents', async () => {
    await evalCli();
    fs.writeFileSync(
      path.join(kb, 'ops/new-note.md'),
      '# New note\n\nA fresh runbook about log rotation and disk space.\n',
    );
    await index();
    const grown = await evalCli();
    expect(grown.stdout).toMatch(
      /corpus: 8 docs \/ (\d+) chunks\n {4}⚠️ corpus changed since last run \(7 -> 8 documents, \d+ -> \d+ chunks\)\n {7}a delta below may reflect that, not retrieval\n/,
    );
    // Still comparable: the corpus is reported, not part of the fingerprint.
    expect(grown.stdout).toContain('Aggregate (previous run:');
    const file = path.join(kb, 'ops/new-note.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('log rotation', 'log shipping'));
    await index();
    const rewritten = await evalJson();
    expect(rewritten.corpus_changed).toBe(true);
    const text = await evalCli();
    expect(text.stdout).not.toContain('corpus changed');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('log shipping', 'log archiving'));
    await index();
    expect((await evalCli()).stdout).toContain(
      '⚠️ corpus changed since last run (same document and chunk counts, different contents)',
    );
  });

  it('colours the diff arrows only on a terminal, and never with --no-color', async () => {
    await evalCli();
    fs.rmSync(path.join(kb, 'ops/backup-runbook.md'));
    await index();
    const tty = await groove(['eval', '--kb-path', kb], { tty: true });
    expect(tty.stdout).toContain('\x1b[31m↓');
    expect((await groove(['eval', '--kb-path', kb, '--no-color'], { tty: true })).stdout).not.toContain(
      '\x1b[',
    );
    expect((await evalCli()).stdout).not.toContain('\x1b[');
  });
});

describe('groove eval: [eval] configuration', () => {
  it('reads golden, k_values, history_size and regression_threshold from groove.toml; flags win', async () => {
    fs.renameSync(path.join(kb, '.groove-eval.yml'), path.join(root, 'team-golden.yml'));
    fs.writeFileSync(
      path.join(root, 'groove.toml'),
      '[eval]\ngolden = "team-golden.yml"\nk_values = [4, 2]\nhistory_size = 2\nregression_threshold = 0.5\n',
    );
    const json = await evalJson();
    expect((json.fingerprint as Record<string, unknown>).k_values).toEqual([2, 4]);
    expect((json.fingerprint as Record<string, unknown>).limit).toBe(4);
    expect((await evalJson('--k', '1')).fingerprint).toMatchObject({ k_values: [1], limit: 1 });
    await evalCli();
    expect(readHistory().runs).toHaveLength(2);
    // A 0.25 drop is within a 0.5 threshold: no regression.
    fs.rmSync(path.join(kb, 'ops/backup-runbook.md'));
    await index();
    const gate = await evalCli('--fail-on-regression');
    expect(gate.code).toBe(0);
    expect(gate.stdout).toContain('(↓ 0.250)');
  });
});

describe('groove eval --fail-on-regression', () => {
  it('exits 1 after a regression, with the history written first', async () => {
    expect((await evalCli('--fail-on-regression')).code).toBe(0);
    fs.rmSync(path.join(kb, 'ops/backup-runbook.md'));
    await index();
    const result = await evalCli('--fail-on-regression');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /groove eval: regression against the run of \S+ \(threshold 0.05\): recall@1 /,
    );
    expect(result.stderr).toContain('the corpus changed since that run (7 -> 6 documents');
    expect(/^[\x20-\x7e\n]*$/.test(result.stderr)).toBe(true);
    expect(readHistory().runs).toHaveLength(2);
    // The regressed run is the new baseline: the next run compares against it and passes.
    expect((await evalCli('--fail-on-regression')).code).toBe(0);
  });

  it('is a no-op without a previous run, with --no-diff, with --no-history, or after a golden change', async () => {
    const first = await evalCli('--fail-on-regression');
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('--fail-on-regression compared nothing: there is no previous run yet');
    fs.rmSync(path.join(kb, 'ops/backup-runbook.md'));
    await index();
    const noDiff = await evalCli('--fail-on-regression', '--no-diff');
    expect(noDiff.code).toBe(0);
    expect(noDiff.stdout).not.toContain('previous run');
    expect(noDiff.stderr).toContain('--no-diff is set');
    expect(readHistory().runs).toHaveLength(2);
    // --no-diff recorded the regressed run; put the answer back so the newest run is the better one.
    fs.cpSync(
      path.join(repoRoot, 'examples/sample-kb/ops/backup-runbook.md'),
      path.join(kb, 'ops/backup-runbook.md'),
    );
    await index();
    await evalCli();
    fs.rmSync(path.join(kb, 'ops/backup-runbook.md'));
    await index();
    const noHistory = await evalCli('--fail-on-regression', '--no-history');
    expect(noHistory.code).toBe(0);
    expect(noHistory.stderr).toContain('--no-history is set');
    expect(readHistory().runs).toHaveLength(3);
    fs.appendFileSync(path.join(kb, '.groove-eval.yml'), '# edited\n');
    const golden = await evalCli('--fail-on-regression');
    expect(golden.code).toBe(0);
    expect(golden.stderr).toContain('the golden file changed since the previous run');
  });

  it('writes nothing with --no-history', async () => {
    const result = await evalCli('--no-history');
    expect(result.code).toBe(0);
    expect(fs.existsSync(historyPath())).toBe(false);
  });
});

describe('groove eval: findings', () => {
  it('reports a note quoting two golden queries on stderr and in JSON, without changing the exit code', async () => {
    fs.writeFileSync(
      path.join(kb, 'notes-about-eval.md'),
      '# Golden set notes\n\nWe ask "forgot password recovery link" and also "pg_restore restore database" in the golden file.\n',
    );
    await index();
    const result = await evalCli();
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'groove eval: 1 document(s) quote 2 or more golden queries verbatim (golden-queries-quoted).\n  notes-about-eval.md\n    reset (rank ',
    );
    expect(result.stderr).toContain('and the documents belong in `expected`. groove eval changes neither.');
    const json = await evalJson();
    const findings = json.findings as {
      check: string;
      path: string;
      quoted: { query_id: string; rank_in_top_k: number | null }[];
    }[];
    expect(findings).toHaveLength(1);
    expect(findings[0]!.check).toBe('golden-queries-quoted');
    expect(findings[0]!.quoted.map((q) => q.query_id)).toEqual(['reset', 'backup']);
    expect(Object.keys(findings[0]!.quoted[0]!)).toEqual(['query_id', 'rank_in_top_k']);
  });
});

describe('groove eval: bad input', () => {
  it('explains a missing golden file', async () => {
    fs.rmSync(path.join(kb, '.groove-eval.yml'));
    const result = await evalCli();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no golden file at "${path.join(kb, '.groove-eval.yml')}"`);
    expect(result.stderr).toContain('or pass --golden <path>');
    expect(result.stdout).toBe('');
  });

  it('takes --golden relative to the working directory', async () => {
    fs.renameSync(path.join(kb, '.groove-eval.yml'), path.join(root, 'ci-golden.yml'));
    const result = await evalCli('--golden', 'ci-golden.yml', '--no-history');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('queries: 4');
  });

  it('rejects an unknown golden key with the seed message before evaluating anything', async () => {
    fs.writeFileSync(
      path.join(kb, '.groove-eval.yml'),
      'queries:\n  - query: "reset password"\n    expected:\n      - path: guides/password-reset.md\n        relevance: 2\n',
    );
    const result = await evalCli();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'unknown field `relevance`, expected one of `path`, `heading`, `quote`, `kb`',
    );
    expect(result.stdout).toBe('');
    expect(fs.existsSync(historyPath())).toBe(false);
  });

  it('refuses a 2 MiB golden file and a symlinked one', async () => {
    const big = path.join(kb, '.groove-eval.yml');
    fs.writeFileSync(big, `${GOLDEN}${'# padding\n'.repeat(210_000)}`);
    const oversized = await evalCli();
    expect(oversized.code).toBe(1);
    expect(oversized.stderr).toMatch(/refusing to read the golden file .*over the 1048576-byte cap/);
    fs.writeFileSync(path.join(root, 'real.yml'), GOLDEN);
    fs.rmSync(big);
    fs.symlinkSync(path.join(root, 'real.yml'), big);
    const linked = await evalCli();
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain('symbolic link');
    fs.rmSync(big);
    fs.linkSync(path.join(root, 'real.yml'), big);
    const hardLinked = await evalCli();
    expect(hardLinked.code).toBe(1);
    expect(hardLinked.stderr).toContain('hard link');
  });

  it('refuses a symlinked history and leaves it alone', async () => {
    const real = path.join(root, 'history.json');
    fs.writeFileSync(real, '{"runs": []}');
    fs.symlinkSync(real, historyPath());
    const result = await evalCli();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing to read the eval history .*symbolic link/);
    expect(fs.readFileSync(real, 'utf8')).toBe('{"runs": []}');
    expect(fs.lstatSync(historyPath()).isSymbolicLink()).toBe(true);
  });

  it('warns and starts fresh on a history of the wrong shape', async () => {
    fs.writeFileSync(historyPath(), '{"runs": {"not": "a list"}}');
    const result = await evalCli();
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/groove eval: note: eval history .* starting a fresh history/);
    expect(readHistory().runs).toHaveLength(1);
  });

  it('fails without an index', async () => {
    fs.rmSync(indexIn(ownFolder()));
    const result = await evalCli();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no index at');
    expect(result.stderr).toContain('groove index');
  });

  it('rejects bad --k, --limit and --mmr-lambda values as usage errors', async () => {
    expect((await evalCli('--k', '1,x')).code).toBe(2);
    expect((await evalCli('--k', '0')).code).toBe(2);
    expect((await evalCli('--limit', '-3')).code).toBe(2);
    expect((await evalCli('--mmr-lambda', '1.5')).code).toBe(2);
    expect((await evalCli('--format', 'yaml')).code).toBe(2);
  });
});
