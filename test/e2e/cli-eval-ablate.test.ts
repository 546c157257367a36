// `groove eval --ablate` through the CLI (runCli in-process): on a lexical-only index (the lexical and vector
// stages not applicable, MMR and the parent retriever switched off in turn), on a hybrid index with the generated
// ONNX test model (queries only the vector leg can answer, so switching it off provably hurts), with --rows, and
// never touching the exit code of --fail-on-regression or the history.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';
import { ensureTinyModel } from '../support/test-models.js';

const NAMES = ['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen', 'ibis', 'jay', 'kiwi', 'lynx'];
/** Letters whose repeated runs no English note contains: each names one "letters" document. */
const LETTERS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k'];

let kb: TempKb;
afterEach(() => kb.cleanup());

async function groove(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s) },
    env: { GROOVE_OFFLINE: '1', GROOVE_MODEL_DIR: path.join(kb.root, 'model-cache') },
    cwd: kb.root,
  });
  return { code, stdout, stderr };
}
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
    const history = JSON.parse(fs.readFileSync(kb.abs('.groove-eval-history.json'), 'utf8')) as {
      runs: { row?: string }[];
    };
    expect(history.runs).toHaveLength(1);
    expect(history.runs[0]!.row).toBeUndefined();
  });
});
