import { describe, expect, it } from 'vitest';
import type { AblationRow } from '../../src/app/eval/eval-ablation.js';
import type { EvalReport, EvalRun } from '../../src/app/eval/eval-report.js';
import { renderAblationText } from '../../src/cli/render-ablation.js';
import {
  renderEvalDiagnostics,
  renderEvalText,
  renderGate,
  renderQuoteFindings,
} from '../../src/cli/render-eval.js';
import { renderIntegrityDiagnostics } from '../../src/cli/render-integrity.js';
import { judgeAblation } from '../../src/measure/ablation-verdict.js';
import { compareWithPrevious } from '../../src/measure/eval-compare.js';
import { aggregateMetrics, computeQueryMetrics, type ExpectedEntry } from '../../src/measure/eval-metrics.js';
import { aggregateExtraMetrics, computeExtraQueryMetrics } from '../../src/measure/eval-metrics-extra.js';
import { pairRuns } from '../../src/measure/eval-paired.js';
import type { QuoteFinding } from '../../src/measure/eval-run.js';
import { evalReportOf } from '../support/eval-report.js';

const K = [1, 5, 10];

/** A run of the seed's two example queries; `hitsFor` says what each query returned. */
function seedRun(
  timestamp: string,
  hitsFor: Record<string, [string, string | null][]>,
  corpusDocs = 646,
): EvalRun {
  const golden: { id: string; query: string; expected: ExpectedEntry[] }[] = [
    {
      id: 'rrf-basics',
      query: 'What does the k parameter in RRF do?',
      expected: [
        { path: 'docs/ARCHITECTURE.md', heading: 'Data flow' },
        { path: 'src/db.rs', heading: null },
      ],
    },
    {
      id: 'How are chunks deduplicated?',
      query: 'How are chunks deduplicated?',
      expected: [{ path: 'src/indexer.rs', heading: null }],
    },
  ];
  const perQuery = golden.map((g) => {
    const topK = (hitsFor[g.id] ?? []).map(([path, heading], i) => ({
      rank: i + 1,
      path,
      heading,
      score: 0.1,
    }));
    return { ...g, topK, metrics: computeQueryMetrics(g.expected, topK, K) };
  });
  return {
    timestamp,
    fingerprint: {
      model: 'bge-m3',
      reranker: null,
      limit: 10,
      kValues: K,
      goldenHash: 'g1',
      metricVersion: 2,
      ftsQueryVersion: 4,
    },
    corpus: { documents: corpusDocs, chunks: 11215, digest: `d${corpusDocs}` },
    aggregate: aggregateMetrics(perQuery, K),
    perQuery,
    findings: [],
  };
}

const firstRunHits: Record<string, [string, string | null][]> = {
  'rrf-basics': [
    ['docs/ARCHITECTURE.md', 'Data flow'],
    ['other.md', null],
    ['src/db.rs', 'fn open'],
  ],
  'How are chunks deduplicated?': [['README.md', null]],
};

function report(
  run: EvalRun,
  previous: EvalRun | null,
  options: { diff?: boolean; gate?: boolean } = {},
): EvalReport {
  return evalReportOf(run, { previous, ...options });
}

/** The same run with the extra metrics computed, as eval-measure and the evaluator do. */
function withExtras(run: EvalRun): EvalRun {
  const perQuery = run.perQuery.map((q) => ({
    ...q,
    metrics: { ...q.metrics, extra: computeExtraQueryMetrics(q.expected, q.topK, K) },
  }));
  const extra = aggregateExtraMetrics(
    perQuery.map((q) => ({ expected: q.expected, extra: q.metrics.extra })),
    K,
  );
  return { ...run, perQuery, aggregate: { ...run.aggregate, ...(extra ? { extra } : {}) } };
}

describe('eval diagnostics', () => {
  it("names a failed leg's reason once: after the degradation warning, the leg warning refers to it", () => {
    const run = seedRun('2026-04-24T05:32:01+00:00', firstRunHits);
    const failure = { leg: 'vector' as const, queries: 2, firstReason: 'the model is not available' };
    const degraded = {
      ...run,
      degradation: [{ leg: 'vector' as const, reason: 'failed: the model is not available' }],
    };
    const both = `${renderIntegrityDiagnostics({ ...report(degraded, null), legFailures: [failure] })}${renderEvalDiagnostics({ ...report(degraded, null), legFailures: [failure] })}`;
    expect(both.split('the model is not available')).toHaveLength(2);
    expect(both).toContain('failed on 2 of 2 queries (the reason above)');
    const alone = renderEvalDiagnostics({ ...report(run, null), legFailures: [failure] });
    expect(alone).toContain('failed on 2 of 2 queries (the model is not available)');
  });
});

describe('eval text report', () => {
  it('shows judged@k with its meaning only when it was measured', () => {
    const run = withExtras(seedRun('2026-04-24T05:32:01+00:00', firstRunHits));
    const plain = renderEvalText(report(run, null), { color: false });
    expect(plain).not.toContain('judged@');
    const judged = { ...run, aggregate: { ...run.aggregate, judgedAtK: { 1: 1, 5: 0.5, 10: 0.25 } } };
    const text = renderEvalText(report(judged, null), { color: false });
    expect(text).toContain('  hit@10     0.500\n  judged@10  0.250\n');
    expect(text).toContain('cannot credit a better document nobody judged');
  });

  it('adds P@k, MAP@k, R-precision and hit@k at the largest k, hand-computed for the seed', () => {
    const text = renderEvalText(
      report(withExtras(seedRun('2026-04-24T05:32:01+00:00', firstRunHits)), null),
      {
        color: false,
      },
    );
    // q1: relevant at ranks 1 and 3 of 2 entries; q2: nothing.
    expect(text).toContain(
      [
        '  nDCG@10    0.460',
        '  P@10       0.100',
        '  MAP@10     0.417',
        '  R-prec     0.250',
        '  hit@10     0.500',
      ].join('\n'),
    );
  });

  it('prints the seed transcript for the seed example', () => {
    const text = renderEvalText(report(seedRun('2026-04-24T05:32:01+00:00', firstRunHits), null), {
      color: false,
    });
    expect(text).toBe(
      [
        'groove eval — 2026-04-24T05:32:01+00:00',
        '  model: bge-m3    reranker: none    limit: 10    queries: 2',
        '  corpus: 646 docs / 11215 chunks',
        '',
        'Aggregate',
        '  recall@1   0.250',
        '  recall@5   0.500',
        '  recall@10  0.500',
        '  MRR        0.500',
        '  nDCG@10    0.460',
        '',
        'Per-query (regressions and misses, 1 of 2)',
        '  ✗ How are chunks deduplicated? recall@10: 0.00',
        '',
        'No expected document in the top k',
        '  missed at k=1 (1 of 2): How are chunks deduplicated?',
        '  missed at k=5 (1 of 2): How are chunks deduplicated?',
        '',
      ].join('\n'),
    );
  });

  it('names the queries missed at each smaller k, the first 20 and how many more', () => {
    const run = seedRun('t0', firstRunHits);
    const many = Array.from({ length: 25 }, (_, i) => ({ ...run.perQuery[1]!, id: `q${i}` }));
    const text = renderEvalText(report({ ...run, perQuery: [run.perQuery[0]!, ...many] }, null), {
      color: false,
    });
    const ids = Array.from({ length: 20 }, (_, i) => `q${i}`).join(', ');
    expect(text).toContain(`  missed at k=1 (25 of 26): ${ids}, … 5 more\n`);
    // rrf-basics is found at rank 1: it misses at no k.
    expect(text).not.toMatch(/missed at k=\d+ .*rrf-basics/);
  });

  it('diffs against a compatible previous run with arrows, corpus note and per-query regressions', () => {
    const before = seedRun('2026-04-23T00:00:00+00:00', firstRunHits, 642);
    const now = seedRun('2026-04-24T00:00:00+00:00', {
      'rrf-basics': [
        ['other.md', null],
        ['docs/ARCHITECTURE.md', 'Data flow'],
      ],
      'How are chunks deduplicated?': [['src/indexer.rs', null]],
    });
    const text = renderEvalText(report(now, before), { color: false });
    expect(text).toContain('  corpus: 646 docs / 11215 chunks\n');
    expect(text).toContain(
      '    ⚠️ corpus changed since last run (642 -> 646 documents, 11215 -> 11215 chunks)\n       a delta below may reflect that, not retrieval\n',
    );
    expect(text).toContain('Aggregate (previous run: 2026-04-23T00:00:00+00:00)\n');
    // recall@1: (0.5 + 0) / 2 -> (0 + 1) / 2; recall@5: (1 + 0) / 2 -> (0.5 + 1) / 2; MRR 0.5 -> 0.75.
    // Two queries give an interval that cannot exclude zero (clipped to the metric's range of ±1).
    expect(text).toContain('  recall@1   0.500  (↑ 0.250)  95% CI [-1.000, +1.000] indistinguishable\n');
    expect(text).toContain('  recall@5   0.750  (↑ 0.250)  95% CI [');
    expect(text).toContain('  MRR        0.750  (↑ 0.250)  95% CI [');
    expect(text).toContain(
      '  paired over 2 shared queries; smallest effect detectable at this N (80% power):\n    recall@1 none (> 1),',
    );
    expect(text).toContain(
      'Per-query (regressions and misses, 1 of 2)\n  ↓ rrf-basics               recall@10: 1.00 → 0.50\n',
    );
  });

  it('colours arrows only when asked: green beyond the threshold, red below it, gray within', () => {
    const before = seedRun('t0', firstRunHits);
    const now = seedRun('t1', {
      ...firstRunHits,
      'How are chunks deduplicated?': [['src/indexer.rs', null]],
    });
    const plain = renderEvalText(report(now, before), { color: false });
    expect(plain).not.toContain('\x1b[');
    const coloured = renderEvalText(report(now, before), { color: true });
    expect(coloured).toContain('(\x1b[32m↑ 0.500\x1b[39m)');
    const worse = renderEvalText(report(before, now), { color: true });
    expect(worse).toContain('(\x1b[31m↓ 0.500\x1b[39m)');
    const same = renderEvalText(report(before, before), { color: true });
    expect(same).toContain('  recall@1   0.250  (—)  95% CI [+0.000, +0.000] indistinguishable\n');
  });

  it('disables the diff when the golden file or the config changed, and says which', () => {
    const before = seedRun('t0', firstRunHits);
    const goldenChanged = seedRun('t1', firstRunHits);
    goldenChanged.fingerprint.goldenHash = 'g2';
    const text = renderEvalText(report(goldenChanged, before), { color: false });
    expect(text).toContain('\n⚠️ golden changed since last run, diff disabled\nAggregate\n');
    expect(text).not.toContain('(↑');
    const configChanged = seedRun('t1', firstRunHits);
    configChanged.fingerprint.limit = 20;
    expect(renderEvalText(report(configChanged, before), { color: false })).toContain(
      '⚠️ config or metric version changed since last run, diff disabled\nAggregate\n',
    );
  });

  it('says the contents changed when the counts held', () => {
    const before = seedRun('t0', firstRunHits);
    const now = seedRun('t1', firstRunHits);
    now.corpus = { ...now.corpus!, digest: 'other' };
    expect(renderEvalText(report(now, before), { color: false })).toContain(
      '(same document and chunk counts, different contents)',
    );
  });
});

describe('regression gate', () => {
  const before = seedRun('2026-04-23T00:00:00+00:00', firstRunHits);
  const worse = seedRun('t1', { ...firstRunHits, 'rrf-basics': [['x.md', null]] });

  it('fails on a compatible regression and names the metrics, with the corpus note when it moved', () => {
    const r = report(worse, seedRun('2026-04-23T00:00:00+00:00', firstRunHits, 600), { gate: true });
    expect(r.gate.state).toBe('regressed');
    const message = renderGate(r);
    expect(message).toMatch(
      /^groove eval: regression against the run of 2026-04-23T00:00:00\+00:00 \(threshold 0.05\): recall@1 0.250 -> 0.000/,
    );
    expect(message).toContain('the corpus changed since that run (600 -> 646 documents');
    expect(/^[\x20-\x7e\n]*$/.test(message)).toBe(true);
  });

  it('passes when nothing fell by more than the threshold', () => {
    expect(report(before, before, { gate: true }).gate).toEqual({
      state: 'passed',
      against: before.timestamp,
    });
  });

  it('is a no-op without a previous run, with --no-diff or --no-history, or across fingerprints', () => {
    expect(report(worse, null, { gate: true }).gate).toEqual({
      state: 'no-op',
      reason: 'there is no previous run yet',
    });
    expect(report(worse, before, { gate: true, diff: false }).gate.state).toBe('no-op');
    const noHistory = compareWithPrevious(worse, null, {
      history: false,
      diff: true,
      failOnRegression: true,
      threshold: 0.05,
    });
    expect(noHistory.gate).toEqual({ state: 'no-op', reason: '--no-history is set' });
    const changed = seedRun('t1', { ...firstRunHits, 'rrf-basics': [['x.md', null]] });
    changed.fingerprint.goldenHash = 'g2';
    expect(report(changed, before, { gate: true }).gate).toEqual({
      state: 'no-op',
      reason: 'the golden file changed since the previous run',
    });
    expect(report(worse, before).gate).toEqual({ state: 'off' });
  });

  it('--no-diff compares with nothing: no previous, no diff, corpus_changed null', () => {
    const r = report(worse, before, { diff: false });
    expect(r.previous).toBeNull();
    expect(r.diff).toBeNull();
    expect(r.corpusChanged).toBeNull();
    expect(r.comparison).toBe('none');
  });
});

describe('golden-queries-quoted report', () => {
  it('matches the seed wording, in ASCII', () => {
    const findings: QuoteFinding[] = [
      {
        check: 'golden-queries-quoted',
        path: 'engineering/deep-dive/rag/evaluation.md',
        quoted: [
          { queryId: 'torch-compile', rankInTopK: null },
          { queryId: 'cross-encoder-reranker', rankInTopK: 8 },
        ],
      },
    ];
    expect(renderQuoteFindings(findings)).toBe(
      [
        'groove eval: 1 document(s) quote 2 or more golden queries verbatim (golden-queries-quoted).',
        '  engineering/deep-dive/rag/evaluation.md',
        '    torch-compile (not in top_k)',
        '    cross-encoder-reranker (rank 8)',
        '  Either these notes leaked into the corpus, or the queries came from them',
        '  and the documents belong in `expected`. groove eval changes neither.',
        '',
      ].join('\n'),
    );
    expect(renderQuoteFindings([])).toBe('');
  });
});

describe('eval ablation table', () => {
  it('prints full, each measured stage with its deltas and verdict, and each other stage with its reason', () => {
    const full = seedRun('2026-04-24T05:32:01+00:00', firstRunHits);
    // Without the stage the first query loses its top hit (rank 1 -> rank 2).
    const without = seedRun('2026-04-24T05:32:01+00:00', {
      ...firstRunHits,
      'rrf-basics': [['other.md', null], ...firstRunHits['rrf-basics']!],
    });
    const versusFull = pairRuns(without, full);
    const ablation: AblationRow[] = [
      {
        stage: 'vector',
        name: '-vector',
        reason: 'no vector leg',
        run: null,
        versusFull: null,
        judgement: null,
      },
      {
        stage: 'mmr',
        name: '-mmr',
        reason: null,
        run: without,
        versusFull,
        judgement: judgeAblation(versusFull),
      },
    ];
    const text = renderAblationText({ ...report(full, null), ablation });
    expect(text).toBe(
      [
        '',
        'Stage ablation: the decision pipeline ("full"), then each stage switched off in turn',
        '  paired with full over 2 queries (95% CI; Δ = without the stage − full); never gated, never saved to the history',
        '  row       recall@10  MRR    nDCG@10  verdict',
        '  full      0.500      0.500  0.460    (decision row)',
        '  -vector   not applicable: no vector leg',
        // q1's hits move from ranks 1 and 3 to 2 and 4: nDCG@10 (1/log2 3 + 1/log2 5) / (1 + 1/log2 3) = 0.651.
        '  -mmr      0.500      0.250  0.325    no measurable effect',
        // Two queries: every interval is clipped to the metric range, and holds 0.
        '            Δ recall@10 +0.000 [+0.000, +0.000]  MRR -0.250 [-1.000, +1.000]  nDCG@10 -0.134 [-1.000, +1.000]',
        '',
      ].join('\n'),
    );
    expect(renderAblationText(report(full, null))).toBe('');
  });
});
