// Selection and statistics of groove tune on synthetic metric tables: coordinate descent, plateau tie-breaks,
// nested leave-one-query-out, the paired SE and the sign test.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONDITION_COUNT,
  centreDistance,
  conditionIndexOf,
  DEFAULT_CONDITION,
  DEFAULT_K_INDEX,
  positionOf,
  WEIGHT_SET_COUNT,
} from '../../src/measure/tune-grid.js';
import {
  computePairedSe,
  runNestedLoo,
  runSignTest,
  scoreAt,
  selectCondition,
} from '../../src/measure/tune-select.js';
import { buildLandscape, buildTable, seededRandom } from '../support/tune-tables.js';

const all = (n: number) => Array.from({ length: n }, (_, i) => i);
/** heading 4.0, context 0.5, content 0.5 at k = 60. */
const WINNER = conditionIndexOf({ k: DEFAULT_K_INDEX, heading: 3, context: 0, content: 0 });

describe('selectCondition', () => {
  it('finds a clearly best condition: the weights at k = 60 first, then its k', () => {
    // The winner's weights are good at every k (so phase W sees them), and best at k = 10.
    const table = buildTable(8, (c) => {
      const p = positionOf(c);
      const weightsWin = p.heading === 3 && p.context === 0 && p.content === 0;
      return weightsWin ? (p.k === 1 ? 0.9 : 0.7) : 0.4;
    });
    const selection = selectCondition(table, all(8));
    expect(selection.condition).toBe(WINNER - (DEFAULT_K_INDEX - 1) * WEIGHT_SET_COUNT);
    expect(selection.weightRanking).toHaveLength(WEIGHT_SET_COUNT);
    expect(selection.weightRanking[0]!.condition % WEIGHT_SET_COUNT).toBe(WINNER % WEIGHT_SET_COUNT);
    [0.7, 0.9, 0.7, 0.7, 0.7, 0.7].forEach((score, k) => {
      expect(selection.kSweep[k]!.score).toBeCloseTo(score, 12);
    });
  });

  it('keeps the default on a flat table, and on an empty query set', () => {
    const flat = buildTable(5, () => 0.5);
    expect(selectCondition(flat, all(5)).condition).toBe(DEFAULT_CONDITION);
    expect(selectCondition(flat, []).condition).toBe(DEFAULT_CONDITION);
  });

  it('resolves a plateau without the default toward the grid centre, then the lowest grid index', () => {
    // Two tied weight sets: (4.0, 4.0, 4.0) is far from the centre, (1.0, 2.0, 1.0) is close to it.
    const far = conditionIndexOf({ k: DEFAULT_K_INDEX, heading: 3, context: 3, content: 3 });
    const near = conditionIndexOf({ k: DEFAULT_K_INDEX, heading: 1, context: 2, content: 1 });
    const twin = conditionIndexOf({ k: DEFAULT_K_INDEX, heading: 2, context: 1, content: 2 });
    expect(centreDistance(near)).toBe(centreDistance(twin));
    const table = buildTable(3, (c) => {
      const w = c % WEIGHT_SET_COUNT;
      return [far, near, twin].some((x) => x % WEIGHT_SET_COUNT === w) ? 0.8 : 0.3;
    });
    expect(selectCondition(table, all(3)).condition).toBe(Math.min(near, twin));
  });

  it('treats means within 1e-9 as one plateau (float noise does not beat the default)', () => {
    const table = buildTable(2, (c) => (c === WINNER ? 0.5 + 1e-10 : 0.5));
    expect(selectCondition(table, all(2)).condition).toBe(DEFAULT_CONDITION);
  });

  it('keeps k = 60 when k cannot move the metric, even at non-default weights', () => {
    // A lexical-only index: every k ties, the weights do not.
    const table = buildTable(4, (c) => (c % WEIGHT_SET_COUNT === WINNER % WEIGHT_SET_COUNT ? 0.9 : 0.2));
    expect(positionOf(selectCondition(table, all(4)).condition).k).toBe(DEFAULT_K_INDEX);
  });

  it('always selects a member of the best plateau among phase-W weight sets (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 1, max: 12 }), (seed, n) => {
        const table = buildLandscape({ queryCount: n, seed });
        const { condition, weightRanking } = selectCondition(table, all(n));
        const best = Math.max(...weightRanking.map((s) => s.score));
        expect(weightRanking[0]!.score).toBeGreaterThanOrEqual(best - 1e-9);
        expect(condition % WEIGHT_SET_COUNT).toBe(weightRanking[0]!.condition % WEIGHT_SET_COUNT);
      }),
      { numRuns: 40 },
    );
  });
});

describe('runNestedLoo', () => {
  it('picks the planted winner in every fold and reports its held-out gain', () => {
    const table = buildTable(10, (c, q) => (c === WINNER ? 0.8 + 0.01 * q : 0.5));
    const loo = runNestedLoo(table, all(10));
    expect(loo.refit.condition).toBe(WINNER);
    expect(loo.foldSelections).toEqual(new Array(10).fill(WINNER));
    expect(loo.selectionStability).toBe(1);
    expect(loo.meanDelta).toBeCloseTo(0.345, 12);
    expect(loo.pairedSe).toBeCloseTo(computePairedSe(all(10).map((q) => 0.3 + 0.01 * q)), 12);
    expect(loo.signTest).toMatchObject({ improved: 10, degraded: 0, tied: 0 });
  });

  it('scores each fold on its held-out query only: a winner carried by one query is not rewarded', () => {
    // Condition WINNER is great on query 0 alone; without query 0 every fold keeps the default.
    const table = buildTable(6, (c, q) => (c === WINNER && q === 0 ? 1 : 0.5));
    const loo = runNestedLoo(table, all(6));
    expect(loo.refit.condition).toBe(WINNER);
    expect(loo.foldSelections[0]).toBe(DEFAULT_CONDITION);
    expect(loo.foldSelections.slice(1)).toEqual(new Array(5).fill(WINNER));
    // Fold 0 held query 0 out and kept the default (delta 0); the others hold out a query WINNER does not help.
    expect(loo.heldOutDiffs).toEqual(new Array(6).fill(0));
    expect(loo.selectionStability).toBeCloseTo(5 / 6, 12);
  });

  it('matches a direct recomputation of each fold (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 2, max: 9 }), (seed, n) => {
        const table = buildLandscape({ queryCount: n, seed });
        const effective = all(n).filter((q) => q % 3 !== 2 || n < 3);
        const loo = runNestedLoo(table, effective);
        effective.forEach((held, j) => {
          const chosen = selectCondition(
            table,
            effective.filter((q) => q !== held),
          ).condition;
          expect(loo.foldSelections[j]).toBe(chosen);
          expect(loo.heldOutDiffs[j]).toBeCloseTo(
            scoreAt(table, chosen, held) - scoreAt(table, DEFAULT_CONDITION, held),
            12,
          );
        });
      }),
      { numRuns: 25 },
    );
  });

  it('gives an infinite SE and the default on a single query', () => {
    const table = buildTable(1, (c) => (c === WINNER ? 1 : 0));
    const loo = runNestedLoo(table, [0]);
    expect(loo.refit.condition).toBe(WINNER);
    expect(loo.foldSelections).toEqual([DEFAULT_CONDITION]);
    expect(loo.heldOutDiffs).toEqual([0]);
    expect(loo.pairedSe).toBe(Number.POSITIVE_INFINITY);
  });

  it('is defined on no queries at all', () => {
    const loo = runNestedLoo(
      buildTable(0, () => 0),
      [],
    );
    expect(loo).toMatchObject({ meanDelta: 0, selectionStability: 0, heldOutDiffs: [] });
    expect(loo.refit.condition).toBe(DEFAULT_CONDITION);
  });
});

describe('paired SE and sign test', () => {
  it('uses the n − 1 standard deviation over sqrt(n)', () => {
    // SD of [1, 2, 3, 4] with n − 1 = sqrt(5/3); over sqrt(4).
    expect(computePairedSe([1, 2, 3, 4])).toBeCloseTo(Math.sqrt(5 / 3) / 2, 14);
    expect(computePairedSe([0.1, 0.1, 0.1])).toBeLessThan(1e-15);
    expect(computePairedSe([0.3])).toBe(Number.POSITIVE_INFINITY);
    expect(computePairedSe([])).toBe(Number.POSITIVE_INFINITY);
  });

  it('is an exact two-sided binomial test with ties dropped', () => {
    // 9 improved, 1 degraded: p = 2 · (C(10,0) + C(10,1)) / 2^10.
    const test = runSignTest([...new Array(9).fill(0.1), -0.2, 0, 0]);
    expect(test).toMatchObject({ improved: 9, degraded: 1, tied: 2 });
    expect(test.pValue).toBeCloseTo((2 * 11) / 1024, 14);
    expect(runSignTest([0.1, -0.1]).pValue).toBe(1);
    expect(runSignTest([0, 0]).pValue).toBe(1);
  });

  it('stays finite and accurate where 2^-n underflows', () => {
    const diffs = [...new Array(1200).fill(0.01), ...new Array(800).fill(-0.01)];
    const { pValue } = runSignTest(diffs);
    expect(pValue).toBeGreaterThan(0);
    expect(pValue).toBeLessThan(1e-15);
    const balanced = runSignTest([...new Array(1000).fill(1), ...new Array(1000).fill(-1)]).pValue;
    expect(balanced).toBe(1);
  });

  it('keeps p within [0, 1] (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1, max: 1 }), { maxLength: 300 }), (signs) => {
        const { pValue, improved, degraded, tied } = runSignTest(signs);
        expect(pValue).toBeGreaterThan(0);
        expect(pValue).toBeLessThanOrEqual(1);
        expect(improved + degraded + tied).toBe(signs.length);
      }),
    );
  });
});

describe('synthetic landscapes', () => {
  it('uses every condition of the table', () => {
    const table = buildLandscape({ queryCount: 3, seed: 7 });
    expect(table.values).toHaveLength(CONDITION_COUNT * 3);
    expect(new Set(table.values).size).toBeGreaterThan(1);
    expect(seededRandom(1)()).toBe(seededRandom(1)());
  });
});
