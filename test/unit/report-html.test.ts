// The HTML report renderers as pure functions: hostile text from the golden set and the KB stays text, the
// embedded JSON is the object `--format json` prints, the trend has one point per history run plus this run
// (incompatible and degraded runs marked), a run without a baseline says so, the heat map has one cell per grid
// condition, the impact histogram puts every query in exactly one bin, and the stage-ablation block (from the
// JSON's `ablation` list, which `--ablate` adds) shows each stage.
import { describe, expect, it } from 'vitest';
import type { EvalReport, EvalRun } from '../../src/app/eval/eval-report.js';
import { evalReportToJson } from '../../src/app/eval/eval-report-json.js';
import type { TuneReport } from '../../src/app/tune/tuner.js';
import { renderAblationBlock } from '../../src/cli/html-report/eval-ablation-html.js';
import { renderEvalHtml, renderTuneHtml } from '../../src/cli/html-report/index.js';
import { binDeltas } from '../../src/cli/html-report/svg-histogram.js';
import { tuneReportToJson } from '../../src/cli/tune-json.js';
import { aggregateMetrics, computeQueryMetrics } from '../../src/measure/eval-metrics.js';
import { aggregateExtraMetrics, computeExtraQueryMetrics } from '../../src/measure/eval-metrics-extra.js';
import { CONDITION_COUNT } from '../../src/measure/tune-grid.js';
import { runNestedLoo } from '../../src/measure/tune-select.js';
import { summariseTune } from '../../src/measure/tune-summary.js';
import { evalReportOf } from '../support/eval-report.js';
import { buildLandscape } from '../support/tune-tables.js';

const K = [1, 5];
const HOSTILE_ID = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_QUERY = '</style><script>window.__pwned=2</script>';
const HOSTILE_HEADING = '</script><script>window.__pwned=3</script>';

/** A run of three queries; `found` says which ones return their expected note first. */
function makeRun(
  timestamp: string,
  found: boolean[],
  options: { golden?: string; degraded?: boolean } = {},
): EvalRun {
  const queries = [
    { id: HOSTILE_ID, query: HOSTILE_QUERY, path: 'hostile.md', heading: HOSTILE_HEADING },
    { id: 'backup', query: 'restore the database', path: 'ops/backup.md', heading: null },
    { id: 'reset', query: 'forgot password', path: 'guides/reset.md', heading: 'Recovery' },
  ];
  const perQuery = queries.map((q, i) => {
    const expected = [{ path: q.path, heading: q.heading }];
    const hit = { rank: 1, path: found[i] ? q.path : 'elsewhere.md', heading: q.heading, score: 0.03 };
    const topK = [hit, { rank: 2, path: 'other.md', heading: null, score: 0.02 }];
    const metrics = {
      ...computeQueryMetrics(expected, topK, K),
      extra: computeExtraQueryMetrics(expected, topK, K),
    };
    return { id: q.id, query: q.query, expected, topK, metrics };
  });
  const extra = aggregateExtraMetrics(
    perQuery.map((q) => ({ expected: q.expected, extra: q.metrics.extra })),
    K,
  );
  return {
    timestamp,
    fingerprint: {
      model: 'none',
      reranker: null,
      limit: 5,
      kValues: K,
      goldenHash: options.golden ?? 'golden-a',
      metricVersion: 2,
      ftsQueryVersion: 4,
      ...(options.degraded ? { degraded: ['vector'] } : {}),
    },
    corpus: { documents: 4, chunks: 9, digest: 'abc123' },
    aggregate: { ...aggregateMetrics(perQuery, K), ...(extra ? { extra } : {}) },
    perQuery,
    findings: [],
    ...(options.degraded ? { degradation: [{ leg: 'vector', reason: 'model not loaded' }] } : {}),
  };
}

/** A report of `run` against `history` (newest first; null as with --no-history). */
const makeReport = (run: EvalRun, history: EvalRun[] | null): EvalReport => evalReportOf(run, { history });

/** The element text of the first `<tag …>…</tag>` whose opening tag contains `marker`. */
function elementWith(html: string, tag: string, marker: string): string {
  const start = html.indexOf(marker);
  expect(start, marker).toBeGreaterThan(-1);
  const open = html.lastIndexOf(`<${tag}`, start);
  return html.slice(open, html.indexOf(`</${tag}>`, start) + tag.length + 3);
}

function jsonBlock(html: string, id: string): unknown {
  const match = html.match(new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`));
  expect(match, id).not.toBeNull();
  return JSON.parse(match![1]!);
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('eval HTML report', () => {
  const history = [
    makeRun('2026-05-03T10:00:00+00:00', [false, true, true], { degraded: true }),
    makeRun('2026-05-02T10:00:00+00:00', [false, true, false], { golden: 'golden-b' }),
    makeRun('2026-05-01T10:00:00+00:00', [false, false, true]),
  ];
  const current = makeRun('2026-05-04T10:00:00+00:00', [true, true, false]);

  it('keeps hostile ids, queries and headings as text, and embeds the --format json object', () => {
    const report = makeReport(current, [makeRun('2026-05-03T10:00:00+00:00', [false, true, true])]);
    const html = renderEvalHtml(report);
    expect(html).not.toContain('window.__pwned=1">');
    expect(html).not.toContain('<script>window');
    expect(html).toContain('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
    expect(html).toContain('&lt;/style&gt;&lt;script&gt;window.__pwned=2&lt;/script&gt;');
    // One style element, and exactly the scripts the page has: two data blocks and the sorter.
    expect(count(html, '</style>')).toBe(1);
    expect(count(html, '<script')).toBe(3);
    expect(count(html, '</script>')).toBe(3);
    expect(jsonBlock(html, 'groove-eval-json')).toEqual(JSON.parse(JSON.stringify(evalReportToJson(report))));
    // No resource from anywhere: nothing is loaded by src or href.
    expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[a-z]+[^>]*\s(src|href)=/i);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-/,
    );
  });

  it('plots one point per history run plus this run, marking incompatible and degraded runs', () => {
    const html = renderEvalHtml(makeReport(current, history));
    const chart = elementWith(html, 'svg', '<svg class="trend" data-metric="MRR"');
    expect(count(chart, '<circle class="point')).toBe(history.length + 1);
    const classes = [...chart.matchAll(/<circle class="([^"]*)"/g)].map((m) => m[1]);
    expect(classes).toEqual([
      'point compatible',
      'point incompatible',
      'point incompatible degraded',
      'point compatible current',
    ]);
    // The line joins the compatible points only (a degraded run never is): the oldest and this run.
    const line = chart.match(/<polyline class="trend-line" points="([^"]*)"/);
    expect(line![1]!.split(' ')).toHaveLength(2);
    const trend = jsonBlock(html, 'groove-eval-trend') as { timestamp: string; comparison: string }[];
    expect(trend.map((p) => p.timestamp)).toEqual([
      '2026-05-01T10:00:00+00:00',
      '2026-05-02T10:00:00+00:00',
      '2026-05-03T10:00:00+00:00',
      '2026-05-04T10:00:00+00:00',
    ]);
    expect(trend.map((p) => p.comparison)).toEqual([
      'compatible',
      'golden-changed',
      'degradation-changed',
      'compatible',
    ]);
  });

  it('with an empty history or --no-history: one point, and no baseline', () => {
    for (const stored of [[], null]) {
      const html = renderEvalHtml(makeReport(current, stored));
      const chart = elementWith(html, 'svg', '<svg class="trend" data-metric="recall@5"');
      expect(count(chart, '<circle class="point')).toBe(1);
      expect(chart).not.toContain('<polyline');
      expect(html).toContain('no paired comparison');
      expect(html).not.toMatch(/data-role="mean-diff" data-value="[^"]/);
    }
    expect(renderEvalHtml(makeReport(current, null))).toContain('--no-history');
  });

  it('shows judged@k only when the run measured it', () => {
    expect(renderEvalHtml(makeReport(current, null))).not.toContain('<tr data-metric="judged@');
    const judged = { ...current, aggregate: { ...current.aggregate, judgedAtK: { 1: 0.5, 5: 0.25 } } };
    const html = renderEvalHtml(makeReport(judged, null));
    expect(elementWith(html, 'tr', '<tr data-metric="judged@5"')).toContain('data-value="0.25"');
    expect(elementWith(html, 'tr', '<tr data-metric="judged@1"')).toContain('>0.500<');
  });

  it('shows every aggregate metric with its paired interval, and the miss first in the query table', () => {
    const report = makeReport(current, [makeRun('2026-05-03T10:00:00+00:00', [false, true, true])]);
    const html = renderEvalHtml(report);
    for (const m of report.paired!.metrics) {
      const row = elementWith(html, 'tr', `<tr data-metric="${m.metric}"`);
      expect(row).toContain(`data-role="mean-diff" data-value="${m.meanDiff}"`);
    }
    const mrr = elementWith(html, 'tr', '<tr data-metric="MRR"');
    expect(mrr).toContain(`data-value="${current.aggregate.mrr}"`);
    const ids = [...html.matchAll(/<tr data-query-id="([^"]*)"/g)].map((m) => m[1]);
    // `reset` misses now and regressed (1 → 0): flagged, so it leads.
    expect(ids[0]).toBe('reset');
    expect(ids).toHaveLength(3);
  });
});

function makeTuneReport(): TuneReport {
  const queryCount = 8;
  const primary = buildLandscape({ queryCount, seed: 7 });
  const table = {
    queryCount,
    kValues: [5],
    primary: primary.values,
    recallAtK: new Map([[5, primary.values]]),
    reciprocalRank: primary.values,
  };
  const ids = Array.from({ length: queryCount }, (_, i) => (i === 0 ? HOSTILE_ID : `q${i}`));
  const effective = ids.map((_, i) => i);
  return {
    threshold: { kind: 'refused', reason: 'no negative queries', answerable: queryCount, negatives: 0 },
    kbPath: '/kb',
    goldenPath: '/kb/golden.yml',
    model: 'none',
    limit: 5,
    candidatePool: 50,
    primaryK: 5,
    kValues: [5],
    chunkTotal: 40,
    contextAxisNoop: false,
    queryCount,
    effectiveQueryCount: queryCount,
    diagnostics: [],
    legFailures: [],
    ...summariseTune(runNestedLoo(primary, effective), table, { ids, effective }),
  };
}

describe('tune HTML report', () => {
  it('draws one heat-map cell per condition with its mean nDCG@5, and embeds the --format json object', () => {
    const report = makeTuneReport();
    const html = renderTuneHtml(report);
    const cells = [...html.matchAll(/<rect class="cell[^"]*"[^>]*data-value="([^"]*)"/g)].map((m) =>
      Number(m[1]),
    );
    expect(cells).toHaveLength(CONDITION_COUNT);
    expect(cells.toSorted()).toEqual(report.grid.meanNdcg.flat().toSorted());
    expect(count(html, 'class="cell default"') + count(html, 'class="cell default refit"')).toBe(1);
    expect(html).toMatch(/class="cell[^"]*refit"/);
    expect(jsonBlock(html, 'groove-tune-json')).toEqual(JSON.parse(JSON.stringify(tuneReportToJson(report))));
    expect(html).not.toContain('window.__pwned=1">');
    expect(count(html, '<script')).toBe(2);
  });

  it('lists the five criteria and the fold choices, one fold per effective query', () => {
    const report = makeTuneReport();
    const html = renderTuneHtml(report);
    expect(count(html, '<tr data-criterion=')).toBe(5);
    const folds = elementWith(html, 'table', 'id="folds"');
    expect(count(folds, '<tr><td>')).toBe(report.effectiveQueryCount);
    const chosen = elementWith(html, 'table', 'id="fold-choices"');
    const total = [...chosen.matchAll(/data-value="(\d+)"/g)].reduce((s, m) => s + Number(m[1]), 0);
    expect(total).toBe(report.loo.folds);
    // The histogram counts every query once.
    const bars = [...html.matchAll(/<rect class="bar [a-z]+"[^>]*data-count="(\d+)"/g)];
    expect(bars.reduce((s, m) => s + Number(m[1]), 0)).toBe(report.queryCount);
  });
});

describe('binDeltas', () => {
  it('puts every delta in one bin, zero in its own, losses below it and gains above', () => {
    const deltas = [-0.31, -0.05, -0.0, 0, 1e-13, 0.02, 0.2, 0.5, 1];
    const bins = binDeltas(deltas);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(deltas.length);
    const same = bins.find((b) => b.kind === 'same')!;
    expect(same.count).toBe(3);
    expect(bins.filter((b) => b.kind === 'worse').reduce((s, b) => s + b.count, 0)).toBe(2);
    expect(bins.filter((b) => b.kind === 'better').reduce((s, b) => s + b.count, 0)).toBe(4);
    for (const b of bins.filter((x) => x.kind !== 'same')) {
      const inside = deltas.filter((d) => Math.abs(d) > 1e-12 && d >= b.low - 1e-9 && d <= b.high + 1e-9);
      expect(b.count).toBeLessThanOrEqual(inside.length);
    }
  });

  it('with nothing moved: only the unchanged bin has counts', () => {
    const bins = binDeltas([0, 0, 0]);
    expect(bins.filter((b) => b.count > 0).map((b) => b.kind)).toEqual(['same']);
  });
});

describe('stage-ablation block', () => {
  const paired = (diff: number, verdict: string) => ({
    against: 't',
    shared_queries: 12,
    confidence: 0.95,
    power: 0.8,
    metrics: [
      {
        metric: 'recall@5',
        n: 12,
        mean_diff: diff,
        ci_low: diff - 0.1,
        ci_high: diff + 0.1,
        verdict,
        sd_diff: 0.1,
        min_detectable_effect: 0.1,
      },
      {
        metric: 'MRR',
        n: 12,
        mean_diff: diff / 2,
        ci_low: null,
        ci_high: null,
        verdict: 'indistinguishable',
        sd_diff: null,
        min_detectable_effect: null,
      },
      {
        metric: 'P@5',
        n: 12,
        mean_diff: 0.5,
        ci_low: 0.4,
        ci_high: 0.6,
        verdict: 'improved',
        sd_diff: 0.1,
        min_detectable_effect: 0.1,
      },
    ],
  });
  const ablation = [
    {
      stage: 'lexical',
      row: '-lexical',
      state: 'run',
      reason: null,
      aggregate: {},
      degraded: false,
      versus_full: paired(-0.25, 'regressed'),
      verdict: 'helps',
      helps_on: ['recall@5'],
      hurts_on: [],
    },
    {
      stage: 'vector',
      row: '-vector',
      state: 'not-applicable',
      reason: 'the index has no vectors (--model none)',
      aggregate: null,
      degraded: false,
      versus_full: null,
      verdict: null,
      helps_on: [],
      hurts_on: [],
    },
    {
      stage: 'mmr',
      row: '</td><script>x</script>',
      state: 'run',
      reason: null,
      aggregate: {},
      degraded: true,
      versus_full: paired(0.125, 'improved'),
      verdict: 'hurts',
      helps_on: [],
      hurts_on: ['recall@5'],
    },
  ];

  it('renders one row per stage, the gated metrics only, not-applicable stages with their reason', () => {
    const html = renderAblationBlock(ablation);
    expect([...html.matchAll(/<tr data-stage="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'lexical',
      'vector',
      'mmr',
    ]);
    expect([...html.matchAll(/<th class="num">Δ ([^<]*)<\/th>/g)].map((m) => m[1])).toEqual([
      'recall@5',
      'MRR',
    ]);
    const lexical = elementWith(html, 'tr', '<tr data-stage="lexical"');
    expect(lexical).toContain('data-value="-0.25"');
    expect(lexical).toContain('[-0.350, -0.150]');
    expect(elementWith(html, 'tr', '<tr data-stage="vector"')).toContain(
      'the index has no vectors (--model none)',
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;/td&gt;&lt;script&gt;x&lt;/script&gt;');
    expect(elementWith(html, 'tr', '<tr data-stage="mmr"')).toContain('badge down');
  });

  it('renders nothing without an ablation list, or with one of another shape', () => {
    expect(renderAblationBlock(undefined)).toBe('');
    expect(renderAblationBlock(null)).toBe('');
    expect(renderAblationBlock([])).toBe('');
    expect(renderAblationBlock([{ stage: 1 }])).toBe('');
    expect(
      renderEvalHtml(makeReport(makeRun('2026-05-04T10:00:00+00:00', [true, true, true]), null)),
    ).not.toContain('Stage ablation');
  });
});
