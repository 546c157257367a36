// How much of a learned row's gain is the leak: agent feedback simulated from half of a dataset's golden queries,
// then `core`, the learned rows and their honest twins measured on that half (the labels the feedback came
// from) and on the other half (labels the feedback never saw). Lexical-only (`--model none`). Correctness, not
// timing. Usage:
//   npx tsx bench/feedback-leak.ts --dataset scifact|jsquad [--judge labels|served] [--served 5]
//     [--min-judgments N] [--strength S] [--json out.json]      ([search.boost] defaults when not given)
//     [--keep DIR]    keep the index, groove.toml and both halves' golden files in DIR (for `groove eval`)
//
// Simulated feedback, one record_feedback call per query of the feedback half:
//   - the half: a query is in it when the first byte of SHA-256(query id) is even (about half, fixed per id);
//   - task_id = the golden query's id, query = its text, all recorded and measured at the same instant (no decay);
//   - the agent was served core's top `--served` hits (boost and graph off): each is judged `helped` when it
//     matches an expected entry (same path, and same heading when the entry names one), else `noise`;
//   - `--judge labels` (default) also records every expected entry core did not serve as `helped` (the agent
//     found it another way); `--judge served` records the served hits only, so a label core missed is never
//     learned (the click-data bias); `--judge positives` records the expected entries alone, all `helped`
//     (no noise votes at all).
// Then both halves are measured with `--rows core,boost,graph,graph+boost` (the honest twins are added).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import {
  type EvalReport,
  type KnowledgeBase,
  openKnowledgeBase,
  type PairedMetric,
} from '../src/app/index.js';
import { resolveConfig } from '../src/config/resolve-config.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The datasets sit beside the checkout (`../shared/eval`); a worktree one level deeper finds them one further up.
const evalRoot =
  ['../shared/eval', '../../shared/eval']
    .map((p) => path.resolve(repoRoot, p))
    .find((p) => fs.existsSync(p)) ?? path.resolve(repoRoot, '../shared/eval');
const DATASETS = {
  scifact: { dir: 'scifact', golden: 'golden-train.yml' },
  jsquad: { dir: 'jsquad-valid', golden: 'golden.yml' },
} as const;
const ROWS = ['core', 'boost', 'graph', 'graph+boost'];
// Judgments are recorded and measured at the start of the run (a kept index measured later sees them age).
const NOW = new Date();

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'scifact' },
    judge: { type: 'string', default: 'labels' },
    served: { type: 'string', default: '5' },
    'min-judgments': { type: 'string' },
    strength: { type: 'string' },
    json: { type: 'string' },
    keep: { type: 'string' },
  },
});

interface Expected {
  path: string;
  heading?: string | null;
}
interface GoldenQuery {
  id: string;
  query: string;
  expected: Expected[];
}

const sameHeading = (a: string | null | undefined, b: string | null) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();
const matches = (e: Expected, hit: { path: string; heading: string | null }) =>
  e.path === hit.path && (e.heading == null || sameHeading(e.heading, hit.heading));
const inFeedbackHalf = (id: string) => createHash('sha256').update(id).digest()[0]! % 2 === 0;

async function simulateFeedback(kb: KnowledgeBase, queries: GoldenQuery[], served: number) {
  let items = 0;
  for (const q of queries) {
    const response = await kb.search({
      query: q.query,
      limit: served,
      includeLowQuality: true,
      boost: false,
      graph: false,
      mmr: false,
      parentRetriever: false,
    });
    const judged = (values.judge === 'positives' ? [] : response.results).map((hit) => ({
      path: hit.path,
      heading: hit.heading,
      verdict: q.expected.some((e) => matches(e, hit)) ? ('helped' as const) : ('noise' as const),
    }));
    if (values.judge === 'labels' || values.judge === 'positives') {
      for (const e of q.expected) {
        if (!judged.some((hit) => matches(e, hit))) {
          judged.push({ path: e.path, heading: e.heading ?? null, verdict: 'helped' });
        }
      }
    }
    if (judged.length === 0) continue;
    await kb.recordFeedback({ taskId: q.id, query: q.query, items: judged });
    items += judged.length;
  }
  return items;
}

const metric = (m: PairedMetric | undefined) =>
  m
    ? `${m.meanDiff >= 0 ? '+' : ''}${m.meanDiff.toFixed(3)} [${m.ciLow.toFixed(3)}, ${m.ciHigh.toFixed(3)}]`
    : '—';
const pick = (paired: { metrics: PairedMetric[] } | null | undefined, name: string) =>
  paired?.metrics.find((m) => m.metric === name);

function summarise(half: string, report: EvalReport) {
  return [report, ...report.otherRows].map((r) => ({
    half,
    row: r.run.row,
    queries: r.run.aggregate.queryCount,
    recall1: r.run.aggregate.recallAtK[1],
    recall10: r.run.aggregate.recallAtK[10],
    mrr: r.run.aggregate.mrr,
    ndcg10: r.run.aggregate.ndcgAtK[10],
    vsCoreMrr: metric(pick(r.versusCore, 'MRR')),
    vsCoreNdcg10: metric(pick(r.versusCore, 'nDCG@10')),
    leakMrr: metric(pick(r.versusTwin?.paired, 'MRR')),
    leakNdcg10: metric(pick(r.versusTwin?.paired, 'nDCG@10')),
    learning: r.learning,
  }));
}

async function main() {
  const dataset = DATASETS[values.dataset as keyof typeof DATASETS];
  if (!dataset) throw new Error(`--dataset must be one of ${Object.keys(DATASETS).join(', ')}`);
  if (!['labels', 'served', 'positives'].includes(values.judge ?? '')) {
    throw new Error('--judge must be labels, served or positives');
  }
  const root = path.join(evalRoot, dataset.dir);
  const golden = (
    parseYaml(fs.readFileSync(path.join(root, dataset.golden), 'utf8')) as { queries: GoldenQuery[] }
  ).queries;
  const temp = values.keep
    ? path.resolve(values.keep)
    : fs.mkdtempSync(path.join(os.tmpdir(), 'groove-leak-'));
  fs.mkdirSync(temp, { recursive: true });
  try {
    const boostKeys = [
      ...(values.strength === undefined ? [] : [`strength = ${Number(values.strength)}`]),
      ...(values['min-judgments'] === undefined
        ? []
        : [`min_judgments = ${Number(values['min-judgments'])}`]),
    ];
    fs.writeFileSync(path.join(temp, 'groove.toml'), `[search.boost]\n${boostKeys.join('\n')}\n`);
    const config = resolveConfig({
      cwd: temp,
      env: {},
      configPath: path.join(temp, 'groove.toml'),
      overrides: { kbPath: path.join(root, 'kb'), dbPath: path.join(temp, 'index.db'), model: 'none' },
    });
    const kb = openKnowledgeBase(config, { now: () => NOW });
    try {
      await kb.index();
      const fed = golden.filter((q) => inFeedbackHalf(q.id));
      const heldOut = golden.filter((q) => !inFeedbackHalf(q.id));
      const items = await simulateFeedback(kb, fed, Number(values.served));
      const halves = { 'feedback half': fed, 'other half': heldOut };
      const rows = [];
      for (const [half, queries] of Object.entries(halves)) {
        const file = path.join(temp, `${half.replace(' ', '-')}.yml`);
        fs.writeFileSync(file, stringifyYaml({ queries }, { lineWidth: 0 }));
        const report = await kb.evaluate({ golden: file, rows: ROWS, history: false });
        rows.push(...summarise(half, report));
      }
      const result = {
        dataset: values.dataset,
        judge: values.judge,
        served: Number(values.served),
        strength: kb.config.search.boost.strength,
        minJudgments: kb.config.search.boost.minJudgments,
        queries: { feedbackHalf: fed.length, otherHalf: heldOut.length },
        feedbackItems: items,
        rows,
      };
      printTable(result);
      if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
    } finally {
      await kb.close();
    }
  } finally {
    if (!values.keep) fs.rmSync(temp, { recursive: true, force: true });
  }
}

function printTable(result: {
  dataset: string | undefined;
  judge: string | undefined;
  queries: { feedbackHalf: number; otherHalf: number };
  feedbackItems: number;
  strength: number;
  minJudgments: number;
  rows: ReturnType<typeof summarise>;
}) {
  const { queries } = result;
  console.log(
    `${result.dataset}: feedback from ${queries.feedbackHalf} queries (${result.feedbackItems} judged items, --judge ${result.judge}), ` +
      `other half ${queries.otherHalf}; [search.boost] strength ${result.strength}, min_judgments ${result.minJudgments}`,
  );
  console.log(
    '| half | row | R@1 | R@10 | MRR | nDCG@10 | vs core MRR [95% CI] | vs core nDCG@10 | leak MRR (vs honest twin) | leak nDCG@10 |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of result.rows) {
    const f = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(3));
    console.log(
      `| ${r.half} | ${r.row} | ${f(r.recall1)} | ${f(r.recall10)} | ${f(r.mrr)} | ${f(r.ndcg10)} | ${r.vsCoreMrr} | ${r.vsCoreNdcg10} | ${r.leakMrr} | ${r.leakNdcg10} |`,
    );
  }
  const learned = result.rows.find((r) => r.learning)?.learning;
  if (learned) {
    console.log(
      `judgments: ${learned.counts.serves} serves, ${learned.counts.items} items, ${learned.judgedDocuments} judged documents, ${learned.coHelpfulEdges} co-helpful edges`,
    );
  }
  for (const r of result.rows.filter((x) => x.learning?.honest)) {
    const h = r.learning!.honest!;
    console.log(
      `${r.half} ${r.row}: ${h.queriesLeavingOut} of ${h.queries} queries left ${h.servesLeftOut} serves out`,
    );
  }
}

await main();
