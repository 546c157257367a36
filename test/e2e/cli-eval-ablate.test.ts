// `groove eval --ablate` through the CLI (in-process runner): on a lexical-only index (the lexical and vector
// stages not applicable, MMR and the parent retriever switched off in turn), on a hybrid index with the generated
// ONNX test model (queries only the vector leg can answer, so the vector stage provably helps), with --rows, and
// never touching the exit code of --fail-on-regression or the history.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { evalHistoryIn, kbOwnFolderFor } from '../support/kb-own-folder.js';
import { offlineEnv, runGroove } from '../support/run-cli.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';
import { ensureTinyModel } from '../support/test-models.js';

const NAMES = ['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen', 'ibis', 'jay', 'kiwi', 'lynx'];
/** Letters whose repeated runs no English note contains: each names one "letters" document. */
const LETTERS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k'];

let kb: TempKb;
afterEach(() => kb.cleanup());

const groove = (...args: string[]) => runGroove(args, { cwd: kb.root });
const where = () => ['--kb-path', kb.kbPath, '--db-path', kb.dbPath];
const evalCli = (...args: string[]) => groove('eval', ...where(), ...args);

interface PairedJson {
  shared_queries: number;
  metrics: {
    metric: string;
    mean_diff: number;
    ci_low: number | null;
    ci_high: number | null;
    verdict: string;
  }[];
}
interface AblationJson {
  stage: string;
  row: string;
  state: 'run' | 'not-applicable';
  reason: string | null;
  aggregate: { recall_at_k: Record<string, number>; mrr: number } | null;
  versus_full: PairedJson | null;
  verdict: string | null;
  helps_on: string[];
  hurts_on: string[];
}
interface EvalJson {
  aggregate: { recall_at_k: Record<string, number>; mrr: number };
  ablation: AblationJson[] | null;
  rows: { row: string }[] | null;
}

const goldenEntry = (id: string, query: string, expected: string) =>
  `  - id: ${id}\n    query: "${query}"\n    expected:\n      - path: ${expected}\n`;

/** Twelve notes, each found by its own made-up word. */
function noteFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of NAMES) files[`notes/${name}.md`] = noteText(name);
  return files;
}
const noteQueries = () => NAMES.map((n) => goldenEntry(n, `talks about ${n}alpha`, `notes/${n}.md`)).join('');

async function indexLexical(): Promise<void> {
  kb = createTempKb({ ...noteFiles(), '.groove-eval.yml': `queries:\n${noteQueries()}` });
  const indexed = await groove('index', ...where(), '--model', 'none');
  expect(indexed.code, indexed.stderr).toBe(0);
}

const byStage = (json: EvalJson) => new Map((json.ablation ?? []).map((row) => [row.stage, row]));

describe('--ablate on a lexical-only index', () => {
  it('lists every stage: lexical and vector not applicable, MMR and the parent retriever switched off in turn', async () => {
    await indexLexical();
    const result = await evalCli(
      '--ablate',
      '--mmr',
      '--parent-retriever',
      '--format',
      'json',
      '--no-history',
    );
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as EvalJson;
    expect(json.ablation!.map((r) => [r.row, r.state])).toEqual([
      ['-lexical', 'not-applicable'],
      ['-vector', 'not-applicable'],
      ['-reranker', 'not-applicable'],
      ['-fold', 'run'],
      ['-mmr', 'run'],
      ['-parent', 'run'],
      ['-boost', 'not-applicable'],
      ['-graph', 'not-applicable'],
    ]);
    const stages = byStage(json);
    expect(stages.get('lexical')!.reason).toBe(
      'the only candidate leg of a lexical-only index: without it nothing is retrieved',
    );
    expect(stages.get('vector')!.reason).toBe(
      'lexical-only index (indexed with --model none): there is no vector leg',
    );
    expect(stages.get('reranker')!.reason).toContain('no reranker configured');
    expect(stages.get('boost')!.reason).toBe('[search.boost] is off');
    for (const row of json.ablation!.filter((r) => r.state === 'not-applicable')) {
      expect([row.aggregate, row.versus_full, row.verdict]).toEqual([null, null, null]);
    }
    // Every note is its query's only match, so neither MMR nor the parent retriever can move it: both rows
    // measure exactly what full measures, every paired difference is 0, and neither verdict claims an effect.
    for (const stage of ['mmr', 'parent']) {
      const row = stages.get(stage)!;
      expect(row.aggregate!.recall_at_k).toEqual(json.aggregate.recall_at_k);
      expect(row.versus_full!.shared_queries).toBe(12);
      expect(row.versus_full!.metrics.every((m) => m.mean_diff === 0)).toBe(true);
      expect([row.verdict, row.helps_on, row.hurts_on]).toEqual(['no-measurable-effect', [], []]);
    }
  });

  it('prints the table after the report and keeps ablation rows out of the history', async () => {
    await indexLexical();
    const result = await evalCli('--ablate', '--mmr');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'Stage ablation: the decision pipeline ("full"), then each stage switched off',
    );
    expect(result.stdout).toMatch(/\n {2}row {8}recall@10 {2}MRR {4}nDCG@10 {2}verdict\n/);
    expect(result.stdout).toMatch(/\n {2}full {7}1\.000 {6}1\.000 {2}1\.000 {4}\(decision row\)\n/);
    expect(result.stdout).toMatch(
      /\n {2}-mmr {7}1\.000 {6}1\.000 {2}1\.000 {4}no measurable effect\n {13}Δ recall@10 \+0\.000/,
    );
    expect(result.stdout).toContain(
      '  -vector    not applicable: lexical-only index (indexed with --model none): there is no vector leg',
    );
    const history = JSON.parse(
      fs.readFileSync(evalHistoryIn(kbOwnFolderFor(kb.kbPath, offlineEnv(kb.root), kb.root)), 'utf8'),
    ) as {
      runs: { row?: string }[];
    };
    expect(history.runs).toHaveLength(1);
    expect(history.runs[0]!.row).toBeUndefined();
  });
});

describe('--ablate with --rows and with the learned stages configured', () => {
  it('ablates the decision row (the first of --rows) only; the reference rows are printed as before', async () => {
    await indexLexical();
    const result = await evalCli('--rows', 'mmr,core', '--ablate', '--format', 'json', '--no-history');
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as EvalJson;
    expect(json.rows!.map((r) => r.row)).toEqual(['mmr', 'core']);
    const stages = byStage(json);
    expect(json.ablation!.filter((r) => r.state === 'run').map((r) => r.row)).toEqual(['-fold', '-mmr']);
    expect(stages.get('parent')!.reason).toBe(
      'the parent retriever is off in the decision row "mmr" (--parent-retriever or [search.parent_retriever] enabled)',
    );
    const text = await evalCli('--rows', 'mmr,core', '--ablate', '--no-history');
    const blocks = text.stdout.split('\n').filter((l) => l.startsWith('── row ') || l.startsWith('Stage '));
    expect(blocks).toEqual([
      '── row mmr · decision row (the gates apply to it) ──',
      '── row core · reference row (printed, never gated) ──',
      'Stage ablation: the decision row mmr ("full"), then each stage switched off in turn',
    ]);
    const coreFirst = JSON.parse(
      (await evalCli('--rows', 'core,mmr', '--ablate', '--format', 'json', '--no-history')).stdout,
    ) as EvalJson;
    expect(byStage(coreFirst).get('mmr')!.reason).toBe(
      'MMR is off in the decision row "core" (--mmr or [search.mmr] enabled)',
    );
    // A learned row still cannot decide, so it cannot be ablated either: the usage error of --rows, exit 2.
    const learnedFirst = await evalCli('--rows', 'boost,core', '--ablate', '--no-history');
    expect(learnedFirst.code).toBe(2);
    expect(learnedFirst.stdout).toBe('');
    expect(learnedFirst.stderr).toContain('cannot be the decision row');
  });

  it('the boost and the graph hop, on in groove.toml, are not applicable: no decision row runs them', async () => {
    await indexLexical();
    fs.writeFileSync(
      path.join(kb.root, 'groove.toml'),
      '[search.boost]\nenabled = true\n[search.graph]\nenabled = true\n',
    );
    const json = JSON.parse(
      (await evalCli('--ablate', '--format', 'json', '--no-history')).stdout,
    ) as EvalJson;
    const stages = byStage(json);
    expect(stages.get('boost')!.reason).toBe(
      '[search.boost] is on, but a plain run never boosts; measure it with --rows core,boost (its honest twin is added when it learns from judgments)',
    );
    expect(stages.get('graph')!.state).toBe('not-applicable');
    expect(stages.get('graph')!.reason).toContain('[search.graph] is on, but a plain run never hops');
  });
});

/** A note of one repeated letter: its words match no query word, but share the query's WordPiece tokens. */
const letterNote = (letter: string) =>
  `# ${letter.repeat(6)}\n\n${Array.from({ length: 6 }, () => letter.repeat(8)).join(' ')}\n`;

/**
 * Hybrid: the twelve notes, found by their words, plus eight letter notes, each asked for by a longer run of
 * its letter. No indexed word or trigram run contains that longer run, so only the vector leg (the model sees
 * the same letter tokens) can answer those eight queries.
 */
async function indexHybrid(): Promise<void> {
  const letterQueries = LETTERS.map((l) => goldenEntry(`letter-${l}`, l.repeat(14), `letters/${l}.md`)).join(
    '',
  );
  const files: Record<string, string> = {
    ...noteFiles(),
    '.groove-eval.yml': `queries:\n${noteQueries()}${letterQueries}`,
  };
  for (const letter of LETTERS) files[`letters/${letter}.md`] = letterNote(letter);
  kb = createTempKb(files);
  const indexed = await groove('index', ...where(), '--model-dir', ensureTinyModel('embed'));
  expect(indexed.code, indexed.stderr).toBe(0);
}

describe('--ablate on a hybrid index with the generated ONNX model', () => {
  it('switches each leg off: without the vector leg the letter queries are lost, and the verdict says the stage helps', async () => {
    await indexHybrid();
    const result = await evalCli('--ablate', '--format', 'json', '--no-history');
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as EvalJson;
    const stages = byStage(json);
    expect(json.ablation!.filter((r) => r.state === 'run').map((r) => r.row)).toEqual([
      '-lexical',
      '-vector',
      '-fold',
    ]);
    const vector = stages.get('vector')!;
    // Without the vector leg nothing answers the eight letter queries; the twelve note queries keep their note.
    expect(vector.aggregate!.recall_at_k['10']).toBeCloseTo(12 / 20, 10);
    expect(json.aggregate.recall_at_k['10']).toBe(1);
    expect(vector.versus_full!.shared_queries).toBe(20);
    const recall = vector.versus_full!.metrics.find((m) => m.metric === 'recall@10')!;
    expect(recall.mean_diff).toBeCloseTo(-8 / 20, 10);
    expect(recall.ci_high!).toBeLessThan(0);
    expect(vector.verdict).toBe('helps');
    expect(vector.helps_on).toEqual(expect.arrayContaining(['recall@10', 'MRR', 'nDCG@10']));
    const text = await evalCli('--ablate', '--no-history');
    expect(text.stdout).toMatch(
      new RegExp(
        `\\n {2}-vector {4}0\\.600 {6}[\\d.]+ {2}[\\d.]+ {4}stage helps \\(worse without it: ${vector.helps_on.join(', ')}\\)\\n {13}Δ recall@10 -0\\.400 \\[`,
      ),
    );
    expect(vector.hurts_on).toEqual([]);
    // Without the lexical leg the vector leg answers alone: it still finds the eight letter notes.
    const lexical = stages.get('lexical')!;
    expect(lexical.versus_full!.shared_queries).toBe(20);
    expect(lexical.aggregate!.recall_at_k['10']).toBeGreaterThanOrEqual(8 / 20);
    expect(lexical.verdict).not.toBeNull();
  });

  it('an ablation row far below full never changes the exit code of the regression gates', async () => {
    await indexHybrid();
    expect((await evalCli()).code).toBe(0);
    const gated = await evalCli(
      '--ablate',
      '--fail-on-regression',
      '--fail-on-significant-regression',
      '--format',
      'json',
    );
    expect(gated.code, gated.stderr).toBe(0);
    const json = JSON.parse(gated.stdout) as EvalJson & {
      gates: { regression: { state: string }; significant_regression: { state: string } };
    };
    expect(byStage(json).get('vector')!.verdict).toBe('helps');
    expect(json.gates.regression.state).toBe('passed');
    expect(json.gates.significant_regression.state).toBe('passed');
    // Only decision rows reach the history: the baseline run and this one.
    const history = JSON.parse(
      fs.readFileSync(evalHistoryIn(kbOwnFolderFor(kb.kbPath, offlineEnv(kb.root), kb.root)), 'utf8'),
    ) as {
      runs: { row?: string }[];
    };
    expect(history.runs.map((r) => r.row ?? null)).toEqual([null, null]);
    // Control: the same drop in the decision row does fail the gate. The letter notes lose their letters, so
    // full itself now misses the eight letter queries (-vector was already without them).
    for (const letter of LETTERS) kb.write(`letters/${letter}.md`, letterNote('x'));
    const reindexed = await groove('index', ...where(), '--model-dir', ensureTinyModel('embed'));
    expect(reindexed.code, reindexed.stderr).toBe(0);
    const regressed = await evalCli('--ablate', '--fail-on-regression');
    expect(regressed.code).toBe(1);
    expect(regressed.stderr).toMatch(
      /groove eval: regression against the run of \S+ \(threshold [\d.]+\): recall@1 /,
    );
  });
});
