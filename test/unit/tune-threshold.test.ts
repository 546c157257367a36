import { describe, expect, it } from 'vitest';
import {
  fitThreshold,
  formatThresholdSnippet,
  MIN_QUERIES_PER_KIND,
  type ThresholdCase,
} from '../../src/measure/tune-threshold.js';

const cases = (answerable: boolean, confidences: readonly number[]): ThresholdCase[] =>
  confidences.map((confidence) => ({ answerable, confidence }));
const spread = (from: number, to: number, n: number) =>
  Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1));

describe('fitThreshold', () => {
  it('refuses a set with too few negative or answerable queries, saying how many it has', () => {
    const few = fitThreshold([...cases(true, spread(0.5, 0.9, 30)), ...cases(false, [0.1, 0.2])], 0.3);
    expect(few.kind).toBe('refused');
    if (few.kind !== 'refused') return;
    expect(few.reason).toContain('2 negative and 30 answerable queries');
    expect(few.reason).toContain(`at least ${MIN_QUERIES_PER_KIND} of each`);
    expect(fitThreshold(cases(true, spread(0.5, 0.9, 30)), 0.3).kind).toBe('refused');
  });

  it('refuses when confidence does not separate the two kinds', () => {
    const same = spread(0.1, 0.9, 20);
    const fit = fitThreshold([...cases(true, same), ...cases(false, same)], 0.3);
    expect(fit.kind).toBe('refused');
    if (fit.kind === 'refused') expect(fit.reason).toContain('AUC 0.50');
  });

  it('fits a threshold between separated kinds; every fold agrees and nothing is misjudged held out', () => {
    // Negatives at most 0.38, answerable at least 0.62: thresholds 0.4 to 0.6 are all perfect; of that plateau
    // the one nearest the current 0.3 wins, in every fold too.
    const fit = fitThreshold(
      [...cases(false, spread(0.05, 0.38, 20)), ...cases(true, spread(0.62, 0.95, 20))],
      0.3,
    );
    expect(fit.kind).toBe('fitted');
    if (fit.kind !== 'fitted') return;
    expect(fit.threshold).toBe(0.4);
    expect(fit.balancedAccuracy).toBe(1);
    expect(fit.stability).toBe(1);
    expect(fit.heldOut.recall.value).toBe(1);
    expect(fit.heldOut.falseAbstain.value).toBe(0);
    // At the current 0.3 only the negatives below it abstain: 0.05 + 0.33·i/19 < 0.3 for i ≤ 14, 15 of 20.
    expect(fit.atDefault.recall.count).toBe(15);
    expect(formatThresholdSnippet(fit.threshold)).toBe('[search]\nmin_confidence = 0.4');
  });

  it('held out, a query at the edge is decided by the threshold the other queries chose', () => {
    // The top negative sits exactly at 0.4: with it, 0.45 is the best; without it, 0.4 (nearer 0.3) is, and
    // 0.4 does not abstain on a confidence of 0.4, so held out that negative answers.
    const fit = fitThreshold(
      [...cases(false, spread(0.05, 0.4, 20)), ...cases(true, spread(0.62, 0.95, 20))],
      0.3,
    );
    expect(fit.kind).toBe('fitted');
    if (fit.kind !== 'fitted') return;
    expect(fit.threshold).toBe(0.45);
    expect(fit.heldOut.recall).toMatchObject({ count: 19, of: 20 });
    expect(fit.stability).toBe(39 / 40);
  });

  it('decides each held-out query by the threshold fitted without it', () => {
    // One answerable query sits among the negatives: held out, the others fit a threshold above it, so it
    // abstains (a false abstention); fitted with it, the threshold is the same, so balanced accuracy < 1.
    const fit = fitThreshold(
      [...cases(false, spread(0.05, 0.25, 15)), ...cases(true, [0.2, ...spread(0.5, 0.9, 14)])],
      0.3,
    );
    expect(fit.kind).toBe('fitted');
    if (fit.kind !== 'fitted') return;
    expect(fit.heldOut.falseAbstain.count).toBe(1);
    expect(fit.heldOut.recall.value).toBe(1);
    expect(fit.balancedAccuracy).toBeCloseTo((1 + 14 / 15) / 2, 12);
  });
});
