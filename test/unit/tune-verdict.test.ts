// The five adoption criteria, the secondary-metric guard, the snippet, the per-query impact — and a simulation of
// how often the full verdict adopts on a landscape with no true winner (the seed reports ~3% at multiplier 3).
import { describe, expect, it } from 'vitest';
import {
  conditionIndexOf,
  DEFAULT_CONDITION,
  DEFAULT_K_INDEX,
  positionOf,
} from '../../src/measure/tune-grid.js';
import { runNestedLoo } from '../../src/measure/tune-select.js';
import {
  assessCriteria,
  compareSecondaryMetrics,
  decideVerdict,
  formatFusionSnippet,
  formatTomlFloat,
  MIN_MEAN_DELTA,
  measurePerQueryImpact,
  SE_MULTIPLIER,
  type VerdictEvidence,
} from '../../src/measure/tune-verdict.js';
import { buildLandscape } from '../support/tune-tables.js';

const OTHER = conditionIndexOf({ k: 1, heading: 3, context: 1, content: 0 });
const PASSING: VerdictEvidence = {
  refit: OTHER,
  meanDelta: 0.05,
  pairedSe: 0.01,
  selectionStability: 0.8,
  effectiveQueryCount: 30,
  secondaryViolations: [],
};

describe('assessCriteria', () => {
  it('holds all five for a passing verdict, and its failing reasons are the verdict reasons, in order', () => {
    expect(assessCriteria(PASSING).map((c) => [c.number, c.holds])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, true],
      [5, true],
    ]);
    const failing: VerdictEvidence = {
      refit: DEFAULT_CONDITION,
      meanDelta: 0.01,
      pairedSe: 0.01,
      selectionStability: 0.5,
      effectiveQueryCount: 12,
      secondaryViolations: ['MRR degraded: 0.5000 -> 0.4000'],
    };
    const criteria = assessCriteria(failing);
    expect(criteria.map((c) => c.holds)).toEqual([false, false, false, false, false]);
    const verdict = decideVerdict(failing);
    expect(verdict.decision === 'keep_default' && verdict.reasons).toEqual(
      criteria.flatMap((c) => c.reasons),
    );
  });
});

describe('decideVerdict', () => {
  it('adopts when all five criteria hold, with the condition and its snippet', () => {
    const verdict = decideVerdict(PASSING);
    expect(verdict).toEqual({
      decision: 'adopt',
      condition: { rrfK: 10, bm25HeadingWeight: 4, bm25ContextWeight: 1, bm25ContentWeight: 0.5 },
      tomlSnippet:
        '[search.fusion]\nrrf_k = 10.0\nbm25_heading_weight = 4.0\nbm25_context_weight = 1.0\nbm25_content_weight = 0.5',
    });
  });

  it.each([
    ['1: the refit is the default', { refit: DEFAULT_CONDITION }, /refit condition is the built-in default/],
    [
      '2: mean delta at the threshold',
      { meanDelta: MIN_MEAN_DELTA, pairedSe: 0.001 },
      /\+0\.0200 <= threshold 0\.0200/,
    ],
    [
      '3: mean delta within 3 SE',
      { meanDelta: 0.05, pairedSe: 0.05 / SE_MULTIPLIER },
      /<= 3 x paired SE 0\.0500/,
    ],
    [
      '3: an infinite SE',
      { pairedSe: Number.POSITIVE_INFINITY, effectiveQueryCount: 1 },
      /paired SE is infinite/,
    ],
    ['4: stability of exactly one half', { selectionStability: 0.5 }, /selection stability 0\.50 <= 0\.50/],
    [
      '5: a secondary metric degraded',
      { secondaryViolations: ['MRR degraded: 0.5000 -> 0.4000'] },
      /secondary metric MRR degraded/,
    ],
    ['a NaN mean delta', { meanDelta: Number.NaN }, /held-out mean delta/],
  ])('keeps the defaults when criterion %s fails', (_label, change, reason) => {
    const verdict = decideVerdict({ ...PASSING, ...change });
    expect(verdict.decision).toBe('keep_default');
    if (verdict.decision === 'keep_default') {
      expect(verdict.reasons.some((r) => reason.test(r))).toBe(true);
    }
  });

  it('lists every failing reason, not just the first', () => {
    const verdict = decideVerdict({
      refit: DEFAULT_CONDITION,
      meanDelta: 0,
      pairedSe: Number.POSITIVE_INFINITY,
      selectionStability: 0,
      effectiveQueryCount: 1,
      secondaryViolations: ['recall@5 degraded: 0.5000 -> 0.2500'],
    });
    expect(verdict.decision === 'keep_default' && verdict.reasons).toHaveLength(5);
  });
});

describe('secondary metrics and the snippet', () => {
  it('flags recall@k and MRR that fell, strictly', () => {
    const baseline = { recallAtK: { 1: 0.5, 5: 0.8, 10: 0.9 }, mrr: 0.6 };
    const same = compareSecondaryMetrics(
      baseline,
      { recallAtK: { 1: 0.6, 5: 0.8, 10: 0.9 }, mrr: 0.6 },
      [1, 5, 10],
    );
    expect(same.violations).toEqual([]);
    const worse = compareSecondaryMetrics(
      baseline,
      { recallAtK: { 1: 0.6, 5: 0.7, 10: 0.9 }, mrr: 0.55 },
      [1, 5, 10],
    );
    expect(worse.violations).toEqual([
      'recall@5 degraded: 0.8000 -> 0.7000',
      'MRR degraded: 0.6000 -> 0.5500',
    ]);
  });

  it('writes floats with a decimal point so TOML reads them back as floats', () => {
    expect(formatTomlFloat(60)).toBe('60.0');
    expect(formatTomlFloat(0.5)).toBe('0.5');
    expect(formatTomlFloat(4)).toBe('4.0');
    expect(
      formatFusionSnippet({ rrfK: 5, bm25HeadingWeight: 0.5, bm25ContextWeight: 2, bm25ContentWeight: 1 }),
    ).toBe(
      '[search.fusion]\nrrf_k = 5.0\nbm25_heading_weight = 0.5\nbm25_context_weight = 2.0\nbm25_content_weight = 1.0',
    );
  });

  it('counts improved and degraded queries and names the worst one', () => {
    expect(
      measurePerQueryImpact([
        { id: 'a', delta: 0.2 },
        { id: 'b', delta: -0.1 },
        { id: 'c', delta: 0 },
        { id: 'd', delta: -0.4 },
      ]),
    ).toEqual({ improved: 1, degraded: 2, worstDelta: -0.4, worstQueryId: 'd' });
    expect(measurePerQueryImpact([{ id: 'a', delta: 0 }])).toEqual({
      improved: 0,
      degraded: 0,
      worstDelta: null,
      worstQueryId: null,
    });
  });
});

/** Adoption rate of the full verdict over seeded landscapes (secondary metrics equal the primary, so guard 5 holds). */
function adoptionRate(options: {
  queryCount: number;
  replications: number;
  multiplier?: number;
  edge?: number;
}): number {
  let adopted = 0;
  for (let seed = 1; seed <= options.replications; seed++) {
    const table = buildLandscape({
      queryCount: options.queryCount,
      seed: seed * 7919 + options.queryCount,
      edge: options.edge ?? 0,
      planted: (c) => {
        const p = positionOf(c);
        return p.heading === 3 && p.content === 0;
      },
    });
    const loo = runNestedLoo(
      table,
      Array.from({ length: options.queryCount }, (_, i) => i),
    );
    const evidence = {
      refit: loo.refit.condition,
      meanDelta: loo.meanDelta,
      // The verdict's 3 × SE, rescaled so the same check can be run at another multiplier.
      pairedSe: (loo.pairedSe * (options.multiplier ?? SE_MULTIPLIER)) / SE_MULTIPLIER,
      selectionStability: loo.selectionStability,
      effectiveQueryCount: options.queryCount,
      secondaryViolations: [],
    };
    if (decideVerdict(evidence).decision === 'adopt') adopted++;
  }
  return adopted / options.replications;
}

describe('false adoption under a null landscape (simulation)', () => {
  it('adopts rarely at multiplier 3 when no condition is truly better (near the seed ~3%)', () => {
    const n26 = adoptionRate({ queryCount: 26, replications: 400 });
    const n12 = adoptionRate({ queryCount: 12, replications: 400 });
    expect(n26).toBeLessThan(0.06);
    expect(n12).toBeLessThan(0.06);
    // The multiplier is what holds the rate down: at 2 the same landscapes adopt several times as often.
    const loose = adoptionRate({ queryCount: 26, replications: 400, multiplier: 2 });
    expect(loose).toBeGreaterThan(2 * n26);
    expect(loose).toBeGreaterThan(0.05);
  });

  it('still detects a real, findable edge', () => {
    expect(adoptionRate({ queryCount: 26, replications: 100, edge: 0.25 })).toBeGreaterThan(0.8);
  });

  it('never adopts the default itself', () => {
    const table = buildLandscape({
      queryCount: 10,
      seed: 3,
      edge: 0.5,
      planted: (c) => c === DEFAULT_CONDITION,
    });
    const loo = runNestedLoo(
      table,
      Array.from({ length: 10 }, (_, i) => i),
    );
    expect(positionOf(loo.refit.condition).k).toBe(DEFAULT_K_INDEX);
    expect(loo.refit.condition).toBe(DEFAULT_CONDITION);
  });
});
