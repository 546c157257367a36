// `groove eval --report` and `groove tune --report` end to end through the in-process CLI, on a lexical-only KB
// with an eval history: the page carries the exact object `--format json` printed in the same run, the numbers
// shown on it are that object's, the trend has a point per history run plus this run, the heat map a cell per
// grid condition; stdout is the same with or without --report; a bad target is refused before measuring.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReportKb,
  HOSTILE_QUERY,
  type ReportKb,
  reportHistoryPath,
  seedHistory,
} from '../support/report-fixture.js';

let fixture: ReportKb;

beforeAll(async () => {
  fixture = await createReportKb();
  await seedHistory(fixture);
}, 60_000);
afterAll(() => fixture.cleanup());

const evalArgs = () => ['eval', '--kb-path', fixture.kb, '--golden', fixture.golden, '--no-color'];
const tuneArgs = () => ['tune', '--kb-path', fixture.kb, '--golden', fixture.golden, '--no-color'];
const historyLength = () =>
  (
    JSON.parse(fs.readFileSync(reportHistoryPath(fixture), 'utf8')) as {
      runs: unknown[];
    }
  ).runs.length;

function jsonBlock(html: string, id: string): unknown {
  const match = html.match(new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`));
  expect(match, id).not.toBeNull();
  return JSON.parse(match![1]!);
}

/** `data-value` and text of the cell with `role` in the aggregate row of `metric`. */
function aggregateCell(html: string, metric: string): { value: string; text: string } {
  const row = html.match(new RegExp(`<tr data-metric="${metric}">(.*?)</tr>`));
  expect(row, metric).not.toBeNull();
  const cell = row![1]!.match(/<td class="num" data-value="([^"]*)" data-role="value">([^<]*)<\/td>/);
  return { value: cell![1]!, text: cell![2]! };
}

/** One `--no-history` eval run with `extra` flags, JSON on stdout and the page written to `name`. */
async function reportOfRun(name: string, extra: string[]): Promise<{ html: string; json: unknown }> {
  const file = path.join(fixture.root, name);
  const result = await fixture.groove([
    ...evalArgs(),
    '--no-history',
    ...extra,
    '--format',
    'json',
    '--report',
    file,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return { html: fs.readFileSync(file, 'utf8'), json: JSON.parse(result.stdout) };
}

type Aggregate = Record<string, Record<string, number> | number>;

describe('groove eval --report', () => {
  it('writes the page from the object --format json prints, with the same numbers', async () => {
    const file = path.join(fixture.root, 'eval.html');
    const before = historyLength();
    const result = await fixture.groove([...evalArgs(), '--format', 'json', '--report', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`groove eval: wrote the HTML report ${file}\n`);
    const json = JSON.parse(result.stdout) as {
      aggregate: Aggregate;
      per_query: { id: string; metrics: Aggregate }[];
    };
    const html = fs.readFileSync(file, 'utf8');
    expect(jsonBlock(html, 'groove-eval-json')).toEqual(json);

    // Every aggregate number shown is the JSON's: exact in data-value, rounded in the text.
    const shown: [string, number][] = [['MRR', json.aggregate.mrr as number]];
    for (const [key, name] of [
      ['recall_at_k', 'recall'],
      ['ndcg_at_k', 'nDCG'],
      ['precision_at_k', 'P'],
      ['map_at_k', 'MAP'],
      ['hit_rate_at_k', 'hit'],
    ] as const) {
      for (const [k, value] of Object.entries(json.aggregate[key] as Record<string, number>)) {
        shown.push([`${name}@${k}`, value]);
      }
    }
    shown.push(['R-precision', json.aggregate.r_precision as number]);
    // Five metrics at each of k = 1, 5, 10, then MRR and R-precision.
    expect(shown).toHaveLength(17);
    for (const [metric, value] of shown) {
      const cell = aggregateCell(html, metric);
      expect(Number(cell.value), metric).toBe(value);
      expect(cell.text, metric).toBe(value.toFixed(3));
    }
    // Per query: recall@10 and nDCG@10 of each row are the JSON's.
    for (const q of json.per_query) {
      const id = q.id
        .replaceAll('&', '&amp;')
        .replaceAll('<', '&lt;')
        .replaceAll('>', '&gt;')
        .replaceAll('"', '&quot;');
      const row = html.match(
        new RegExp(`<tr data-query-id="${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}">(.*?)</tr>`),
      );
      expect(row, q.id).not.toBeNull();
      const recall = row![1]!.match(/data-value="([^"]*)" data-metric="recall"/)![1];
      const ndcg = row![1]!.match(/data-value="([^"]*)" data-metric="ndcg"/)![1];
      expect(Number(recall)).toBe((q.metrics.recall_at_k as Record<string, number>)['10']);
      expect(Number(ndcg)).toBe((q.metrics.ndcg_at_k as Record<string, number>)['10']);
    }
    // The trend: the runs the history held before this one, then this run.
    const trend = jsonBlock(html, 'groove-eval-trend') as {
      current: boolean;
      comparison: string;
      degraded: boolean;
    }[];
    expect(trend).toHaveLength(before + 1);
    const mrrChart = html.match(/<svg class="trend" data-metric="MRR".*?<\/svg>/)![0];
    expect(mrrChart.match(/<circle class="point/g)).toHaveLength(before + 1);
    expect(trend.filter((p) => p.degraded)).toHaveLength(1);
    expect(trend.filter((p) => p.comparison !== 'compatible').length).toBeGreaterThanOrEqual(2);
    expect(trend.at(-1)!.current).toBe(true);
    // The hostile query is text on the page.
    expect(html).not.toContain(HOSTILE_QUERY);
    expect(historyLength()).toBe(before + 1);
  });

  it('leaves stdout as it is without --report, in text format too', async () => {
    const file = path.join(fixture.root, 'eval-text.html');
    const plain = await fixture.groove([...evalArgs(), '--no-history']);
    const reported = await fixture.groove([...evalArgs(), '--no-history', '--report', file]);
    expect(reported.code, reported.stderr).toBe(0);
    const withoutTimestamp = (text: string) => text.replace(/^groove eval — .*$/m, '');
    expect(withoutTimestamp(reported.stdout)).toBe(withoutTimestamp(plain.stdout));
    const html = fs.readFileSync(file, 'utf8');
    expect(html).toContain('The history was not read (--no-history)');
    expect(html.match(/<svg class="trend" data-metric="MRR".*?<\/svg>/)![0].match(/<circle /g)).toHaveLength(
      1,
    );
  });

  it('with --rows: one block per row, the reference row paired against the decision row as in the JSON', async () => {
    const { html, json } = await reportOfRun('rows.html', ['--rows', 'core,mmr']);
    const typed = json as {
      rows: {
        row: string;
        versus_decision: { metrics: { metric: string; mean_diff: number | null }[] } | null;
      }[];
    };
    expect([...html.matchAll(/<section class="row-block" data-row="([^"]*)">/g)].map((m) => m[1])).toEqual([
      'core',
      'mmr',
    ]);
    const block = html.slice(html.indexOf('<section class="row-block" data-row="mmr">'));
    const paired = typed.rows[1]!.versus_decision!.metrics;
    expect(paired.length).toBeGreaterThan(10);
    for (const m of paired) {
      const row = block.match(new RegExp(`<tr data-metric="${m.metric}">(.*?)</tr>`))![1]!;
      const shown = row.match(/data-role="mean-diff" data-value="([^"]*)"/)![1]!;
      expect(shown === '' ? null : Number(shown), m.metric).toBe(m.mean_diff);
    }
    expect(block).toContain('against the decision row core');
  });

  it('with --ablate: one ablation row per stage of the JSON, each measured stage with its paired differences', async () => {
    const { html, json } = await reportOfRun('ablate.html', ['--ablate', '--mmr']);
    const typed = json as {
      ablation: {
        stage: string;
        state: string;
        versus_full: { metrics: { metric: string; mean_diff: number | null }[] } | null;
      }[];
    };
    expect(html).toContain('<h2>Stage ablation</h2>');
    const shownStages = [...html.matchAll(/<tr data-stage="([^"]*)">/g)].map((m) => m[1]);
    expect(shownStages).toEqual(typed.ablation.map((r) => r.stage));
    const measured = typed.ablation.filter((r) => r.state === 'run');
    expect(measured.map((r) => r.stage)).toContain('mmr');
    for (const stage of measured) {
      const row = html.match(new RegExp(`<tr data-stage="${stage.stage}">(.*?)</tr>`))![1]!;
      const shown = [...row.matchAll(/<td class="num" data-value="([^"]*)">/g)].map((m) =>
        m[1] === '' ? null : Number(m[1]),
      );
      const gated = stage.versus_full!.metrics.filter((m) => /^(recall@|MRR|nDCG@)/.test(m.metric));
      expect(shown).toEqual(gated.map((m) => m.mean_diff));
    }
  });

  it('refuses a missing folder or a folder as the target before measuring, and replaces a file whole', async () => {
    const before = historyLength();
    const missing = path.join(fixture.root, 'no-such-folder', 'r.html');
    const refused = await fixture.groove([...evalArgs(), '--report', missing]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--report "${missing}" cannot be written: its folder`);
    expect(refused.stdout).toBe('');
    expect(fs.existsSync(path.dirname(missing))).toBe(false);
    const folder = path.join(fixture.root, 'a-folder');
    fs.mkdirSync(folder);
    const onFolder = await fixture.groove([...evalArgs(), '--report', folder]);
    expect(onFolder.code).toBe(2);
    expect(onFolder.stderr).toContain('cannot be written: it is a folder');
    expect(historyLength()).toBe(before);

    const file = path.join(folder, 'report.html');
    fs.writeFileSync(file, 'old content');
    const replaced = await fixture.groove([...evalArgs(), '--no-history', '--report', file]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/);
    expect(fs.readdirSync(folder)).toEqual(['report.html']);
  });
});

describe('groove tune --report', () => {
  it('writes the page from the object --format json prints: one heat-map cell per condition, same values', async () => {
    const file = path.join(fixture.root, 'tune.html');
    const result = await fixture.groove([...tuneArgs(), '--format', 'json', '--report', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`groove tune: wrote the HTML report ${file}\n`);
    const json = JSON.parse(result.stdout) as {
      grid: {
        rrf_k: number[];
        weight_sets: { heading: number; context: number; content: number }[];
        mean_ndcg: number[][];
      };
      loo: { folds: number };
      query_count: number;
      per_query_impact: { improved: number; degraded: number };
      verdict: { criteria: unknown[] };
    };
    const html = fs.readFileSync(file, 'utf8');
    expect(jsonBlock(html, 'groove-tune-json')).toEqual(json);
    const cells = [
      ...html.matchAll(
        /<rect class="cell[^"]*"[^>]*data-rrf-k="(\d+)" data-weights="([^"]*)" data-value="([^"]*)"/g,
      ),
    ];
    expect(cells).toHaveLength(json.grid.rrf_k.length * json.grid.weight_sets.length);
    expect(cells).toHaveLength(384);
    for (const [, k, weights, value] of cells) {
      const column = json.grid.rrf_k.indexOf(Number(k));
      const row = json.grid.weight_sets.findIndex(
        (w) => [w.heading, w.context, w.content].map((v) => v.toFixed(1)).join(' / ') === weights,
      );
      expect(Number(value)).toBe(json.grid.mean_ndcg[column]![row]);
    }
    expect(html.match(/<tr data-criterion=/g)).toHaveLength(5);
    const bars = [...html.matchAll(/<rect class="bar [a-z]+"[^>]*data-count="(\d+)"/g)];
    expect(bars.reduce((s, m) => s + Number(m[1]), 0)).toBe(json.query_count);
    // The unchanged bin counts the queries tune counts as neither improved nor degraded.
    const unchanged = html.match(/<rect class="bar same"[^>]*data-count="(\d+)"/)![1];
    expect(Number(unchanged)).toBe(
      json.query_count - json.per_query_impact.improved - json.per_query_impact.degraded,
    );
  });

  it('refuses a missing folder before sweeping', async () => {
    const missing = path.join(fixture.root, 'nowhere', 'tune.html');
    const refused = await fixture.groove([...tuneArgs(), '--report', missing]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('cannot be written: its folder');
    expect(refused.stderr).not.toContain('pre-flight');
  });
});
