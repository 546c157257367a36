// `groove tune` end to end through runCli on a temp KB indexed lexical-only: both verdicts, the effective-N = 0
// refusal (exit 2), a single-query golden, and the rejected --k / --limit values.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Made-up words: no stop word, no stem collision, each its own query term. */
const TERMS = [
  'alphion',
  'betraxil',
  'cyprelon',
  'dovantix',
  'elmquist',
  'farrowby',
  'gildenmar',
  'hexolite',
  'ivorquent',
  'jastrolen',
  'kelvarine',
  'lumbrecht',
];
const FILLER = 'the report covers routine maintenance notes about storage shelves and weekly planning';

/**
 * For each term: a target note that carries it once, in its heading, and two decoys that repeat it in the
 * body. At the default weights (heading 2.0, content 1.0) the decoys outscore the target; weighting headings
 * up and content down puts the target first — a landscape with a real, consistent winner.
 */
function writeKb(kb: string): void {
  TERMS.forEach((term, i) => {
    fs.writeFileSync(
      path.join(kb, `target-${i}.md`),
      `# Topic ${i}\n\n## About ${term}\n\n${FILLER} number ${i} with more plain words so the section stands alone.\n`,
    );
    for (const decoy of [1, 2]) {
      fs.writeFileSync(
        path.join(kb, `decoy-${i}-${decoy}.md`),
        `# Other ${i}-${decoy}\n\n## Section ${decoy}\n\n${term} ${term} ${term} ${term} ${term} ${FILLER} again.\n`,
      );
    }
  });
}

function golden(entries: { id: string; query: string; path: string }[]): string {
  return `queries:\n${entries
    .map((e) => `  - id: ${e.id}\n    query: "${e.query}"\n    expected:\n      - path: ${e.path}\n`)
    .join('')}`;
}

type Condition = Record<
  'rrf_k' | 'bm25_heading_weight' | 'bm25_context_weight' | 'bm25_content_weight',
  number
>;

/** The parts of `--format json` these tests read. */
interface TuneJson extends Record<string, unknown> {
  diagnostics: Record<string, unknown>[];
  grid: Record<string, unknown> & { rrf_k_sweep: unknown[] };
  loo: Record<string, unknown> & { folds: number; mean_delta: number; paired_se: number | null };
  secondary_metrics: { violations: string[] };
  per_query_impact: Record<string, unknown>;
  verdict: { decision: string; condition: Condition; toml_snippet: string; reasons: string[] };
}

let root: string;
let kb: string;

async function groove(args: string[]): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd: root,
  });
  return { code, stdout, stderr };
}

function writeGolden(name: string, text: string): string {
  const file = path.join(root, name);
  fs.writeFileSync(file, text);
  return file;
}

const tune = (goldenFile: string, ...args: string[]) =>
  groove(['tune', '--kb-path', kb, '--golden', goldenFile, ...args]);

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
  kb = path.join(root, 'kb');
  fs.mkdirSync(kb);
  writeKb(kb);
  const indexed = await groove(['index', '--kb-path', kb, '--model', 'none']);
  expect(indexed.code, indexed.stderr).toBe(0);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const TARGET_GOLDEN = () =>
  writeGolden(
    'targets.yml',
    golden(TERMS.map((term, i) => ({ id: `q-${term}`, query: term, path: `target-${i}.md` }))),
  );

describe('groove tune', () => {
  it('adopts when one weighting wins on every query, and prints a paste-ready snippet', async () => {
    const result = await tune(TARGET_GOLDEN());
    expect(result.code, result.stderr).toBe(0);
    const sections = [
      '## Query diagnostics',
      '## Grid',
      '## Nested leave-one-query-out CV',
      '## Secondary metrics',
      '## Per-query impact',
      '## Verdict',
    ];
    const positions = sections.map((s) => result.stdout.indexOf(s));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(result.stdout).toContain('reranker: none (tune always measures the plain RRF stage)');
    expect(result.stdout).toContain('queries: 12 total, 12 effective');
    expect(result.stdout).toMatch(/ {2}adopt: rrf_k \d+, heading /);
    const snippet = result.stdout.slice(result.stdout.indexOf('[search.fusion]')).split('\n').slice(0, 5);
    expect(snippet[0]).toBe('[search.fusion]');
    // Floats always carry a decimal point, so TOML reads them back as floats.
    for (const line of snippet.slice(1)) expect(line).toMatch(/^ {4}(rrf_k|bm25_\w+_weight) = \d+\.\d+$/);
    expect(result.stdout).toContain('selection stability: 1.00 (12 of 12 folds chose the refit');
    expect(result.stderr).toContain('groove tune: pre-flight (measuring FTS candidates per query)...');
    expect(result.stderr).toContain('groove tune: 12 of 12 golden queries are effective');
    expect(result.stderr).toContain(
      'groove tune: WARNING: effective N = 12 is below the IR convention of 50 topics. Treat the numbers below as suggestive, not conclusive.',
    );
    expect(result.stderr).toContain('groove tune: sweeping 64 bm25 weight conditions x 6 rrf_k values...');
  });

  it('writes one JSON object with the reference keys; the adopted condition has a heading-heavy weighting', async () => {
    const result = await tune(TARGET_GOLDEN(), '--format', 'json');
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as TuneJson;
    expect(Object.keys(json)).toEqual([
      'kb_path',
      'golden_path',
      'model',
      'reranker',
      'limit',
      'candidate_pool',
      'primary_k',
      'k_values',
      'chunk_total',
      'context_axis_noop',
      'query_count',
      'effective_query_count',
      'diagnostics',
      'grid',
      'loo',
      'secondary_metrics',
      'per_query_impact',
      'verdict',
      'threshold',
    ]);
    expect(json).toMatchObject({
      model: 'none',
      reranker: null,
      limit: 10,
      candidate_pool: 50,
      primary_k: 5,
      k_values: [1, 5, 10],
      context_axis_noop: false,
      query_count: 12,
      effective_query_count: 12,
    });
    const first = json.diagnostics[0]!;
    expect(Object.keys(first)).toEqual([
      'id',
      'fts_candidates',
      'fts_total_matches',
      'vec_fts_overlap',
      'bm25_sensitive',
      'idf_clamped',
      'rrf_ties',
      'effective',
    ]);
    expect(first).toMatchObject({ id: 'q-alphion', fts_candidates: 3, fts_total_matches: 3 });
    expect(first.bm25_sensitive).toBe(true);
    expect(Object.keys(json.grid)).toEqual([
      'rrf_k',
      'bm25_weights',
      'top_weight_conditions',
      'rrf_k_sweep',
      'weight_sets',
      'mean_ndcg',
    ]);
    expect(json.grid.rrf_k_sweep).toHaveLength(6);
    // The heat map's matrix: one row per rrf_k, one column per weight set; the phase-K sweep is one column of it.
    const meanNdcg = json.grid.mean_ndcg as number[][];
    expect(meanNdcg.map((row) => row.length)).toEqual([64, 64, 64, 64, 64, 64]);
    const sweep = json.grid.rrf_k_sweep as { condition: Condition; ndcg: number }[];
    const weightSets = json.grid.weight_sets as { heading: number; context: number; content: number }[];
    const column = weightSets.findIndex(
      (w) =>
        w.heading === sweep[0]!.condition.bm25_heading_weight &&
        w.context === sweep[0]!.condition.bm25_context_weight &&
        w.content === sweep[0]!.condition.bm25_content_weight,
    );
    expect(meanNdcg.map((row) => row[column])).toEqual(sweep.map((s) => s.ndcg));
    expect(Object.keys(json.loo)).toEqual([
      'refit',
      'folds',
      'held_out_diffs',
      'mean_delta',
      'paired_se',
      'selection_stability',
      'fold_choices',
      'sign_test',
    ]);
    expect(json.loo.folds).toBe(12);
    expect(json.loo.fold_choices).toHaveLength(12);
    expect((json.loo.fold_choices as { held_out: string }[]).map((f) => f.held_out)).toEqual(
      TERMS.map((term) => `q-${term}`),
    );
    expect(json.loo.mean_delta).toBeGreaterThan(0.02);
    expect(json.loo.sign_test).toMatchObject({ improved: 12, degraded: 0, tied: 0 });
    expect(json.verdict.decision).toBe('adopt');
    const c = json.verdict.condition;
    expect(c.bm25_heading_weight).toBeGreaterThan(c.bm25_content_weight);
    expect(json.verdict.toml_snippet).toContain(`rrf_k = ${c.rrf_k.toFixed(1)}`);
    expect(json.secondary_metrics.violations).toEqual([]);
    expect(json.per_query_impact).toMatchObject({ improved: 12, degraded: 0, worst_delta: null });
    const deltas = (json.per_query_impact as { deltas: { delta: number }[] }).deltas;
    expect(deltas.filter((d) => d.delta > 0)).toHaveLength(12);
    const criteria = (json.verdict as unknown as { criteria: { number: number; holds: boolean }[] }).criteria;
    expect(criteria.map((c) => [c.number, c.holds])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, true],
      [5, true],
    ]);
  });

  it('keeps the defaults when the weights cannot move anything, and names every failed criterion', async () => {
    // Every decoy's body carries its heading term too: no weighting separates the expected note.
    const file = writeGolden(
      'decoys.yml',
      golden(TERMS.map((term, i) => ({ id: `d-${term}`, query: term, path: `decoy-${i}-2.md` }))),
    );
    const result = await tune(file);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('  keep the built-in defaults\n');
    expect(result.stdout).toMatch(/ {4}- held-out mean delta [+-]\d\.\d{4} <= threshold 0\.0200/);
  });

  it('keeps the defaults on a single query: the paired SE is infinite, and nothing crashes', async () => {
    const file = writeGolden('one.yml', golden([{ id: 'only', query: TERMS[0]!, path: 'target-0.md' }]));
    const result = await tune(file, '--format', 'json');
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as TuneJson;
    expect(json.effective_query_count).toBe(1);
    expect(json.loo.paired_se).toBeNull();
    expect(json.verdict.decision).toBe('keep_default');
    expect(json.verdict.reasons.join('\n')).toContain('paired SE is infinite');
    const text = await tune(file);
    expect(text.stdout).toContain('  paired SE: infinite (fewer than 2 effective queries)');
  });

  it('exits 2 with the diagnosis on stderr when no query has 2 FTS candidates, without running the grid', async () => {
    const file = writeGolden(
      'short.yml',
      golden([
        { id: 'qz', query: 'qz', path: 'target-0.md' },
        { id: 'xj', query: 'xj', path: 'target-1.md' },
      ]),
    );
    const result = await tune(file);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('groove tune: 0 of 2 golden queries are effective');
    expect(result.stderr).toContain('effective N = 0: none of the 2 golden queries');
    expect(result.stderr).toContain('  qz: FTS candidates = 0 (none of its terms occurs in the index');
    expect(result.stderr).toContain('The grid was not run.');
    expect(result.stderr).not.toContain('sweeping');
  });

  it('rejects --k 0 and --limit 20000 as bad usage (exit 2)', async () => {
    const file = TARGET_GOLDEN();
    const zero = await tune(file, '--k', '0');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--k "0" must be a whole number from 1 to 1000');
    const big = await tune(file, '--limit', '20000');
    expect(big.code).toBe(2);
    expect(big.stderr).toContain('--limit "20000" must be a whole number from 1 to 10000');
    expect(big.stdout).toBe('');
  });

  it('takes no --reranker flag', async () => {
    const result = await tune(TARGET_GOLDEN(), '--reranker', 'bge-v2-m3');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--reranker'");
  });
});
