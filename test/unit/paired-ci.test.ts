// The paired statistics against independent oracles: printed t tables, a numerically integrated t density,
// and a naive two-pass mean/SD; plus the properties a confidence interval must have.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparePaired, studentTCdf, studentTQuantile } from '../../src/measure/paired-ci.js';

/** Two-sided 95% critical values (the 0.975 quantile) from a printed t table, three decimals. */
const T975: Record<number, number> = {
  1: 12.706,
  2: 4.303,
  3: 3.182,
  4: 2.776,
  5: 2.571,
  6: 2.447,
  7: 2.365,
  8: 2.306,
  9: 2.262,
  10: 2.228,
  15: 2.131,
  20: 2.086,
  25: 2.06,
  30: 2.042,
  40: 2.021,
  55: 2.004,
  60: 2.0,
  120: 1.98,
};
const T80: Record<number, number> = { 1: 1.376, 2: 1.061, 5: 0.92, 10: 0.879, 30: 0.854, 120: 0.845 };

/** CDF by Simpson integration of the unnormalised density after t = tan θ (finite range for every df). */
function oracleCdf(t: number, df: number): number {
  const g = (theta: number) => {
    const x = Math.tan(theta);
    const sec2 = 1 + x * x;
    return (1 + (x * x) / df) ** (-(df + 1) / 2) * sec2;
  };
  const integrate = (from: number, to: number) => {
    const steps = 20_000;
    const h = (to - from) / steps;
    let sum = g(from + 1e-12) + g(to - 1e-12);
    for (let i = 1; i < steps; i++) sum += (i % 2 === 1 ? 4 : 2) * g(from + i * h);
    return (sum * h) / 3;
  };
  const half = Math.PI / 2;
  return integrate(-half, Math.atan(t)) / integrate(-half, half);
}

function naive(diffs: number[]) {
  const n = diffs.length;
  let total = 0;
  for (const d of diffs) total += d;
  const mean = total / n;
  let ss = 0;
  for (const d of diffs) ss += (d - mean) * (d - mean);
  return { mean, sd: Math.sqrt(ss / (n - 1)) };
}

describe('Student t', () => {
  it('matches the printed 97.5% and 80% tables to three decimals', () => {
    for (const [df, value] of Object.entries(T975))
      expect(studentTQuantile(0.975, Number(df))).toBeCloseTo(value, 2);
    for (const [df, value] of Object.entries(T80))
      expect(studentTQuantile(0.8, Number(df))).toBeCloseTo(value, 2);
    // Large df approaches the normal quantile.
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.95996, 4);
  });

  it('agrees with a numerically integrated density', () => {
    for (const df of [1, 2, 3, 7, 19, 55]) {
      for (const t of [-3.5, -1, -0.2, 0, 0.4, 1.7, 4]) {
        expect(studentTCdf(t, df)).toBeCloseTo(oracleCdf(t, df), 6);
      }
    }
  });

  it('quantile inverts the CDF and is antisymmetric', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.integer({ min: 1, max: 500 }),
        (p, df) => {
          const q = studentTQuantile(p, df);
          expect(studentTCdf(q, df)).toBeCloseTo(p, 9);
          expect(studentTQuantile(1 - p, df)).toBeCloseTo(-q, 6);
        },
      ),
    );
  });
});

const diffList = fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 2, maxLength: 80 });

describe('comparePaired', () => {
  it('equals the naive mean ± t·sd/√n with the tabled critical value', () => {
    for (const [dfText, t] of Object.entries(T975)) {
      const df = Number(dfText);
      const diffs = Array.from({ length: df + 1 }, (_, i) => Math.sin(i * 1.7 + df) * 0.3 + 0.05);
      const { mean, sd } = naive(diffs);
      const got = comparePaired(diffs);
      expect(got.n).toBe(df + 1);
      expect(got.meanDiff).toBeCloseTo(mean, 12);
      expect(got.sdDiff).toBeCloseTo(sd, 12);
      const halfWidth = (t * sd) / Math.sqrt(df + 1);
      expect(got.ciLow).toBeCloseTo(mean - halfWidth, 2);
      expect(got.ciHigh).toBeCloseTo(mean + halfWidth, 2);
    }
  });

  it('is centred on the mean, shift-equivariant and scale-equivariant; the verdict follows the bounds', () => {
    fc.assert(
      fc.property(
        diffList,
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.double({ min: 0.1, max: 5, noNaN: true }),
        (diffs, shift, scale) => {
          const base = comparePaired(diffs);
          const { mean, sd } = naive(diffs);
          expect(base.meanDiff).toBeCloseTo(mean, 9);
          expect(base.ciLow).toBeLessThanOrEqual(base.meanDiff + 1e-12);
          expect(base.ciHigh).toBeGreaterThanOrEqual(base.meanDiff - 1e-12);
          expect(base.ciHigh - base.meanDiff).toBeCloseTo(base.meanDiff - base.ciLow, 9);
          if (sd > 1e-9) {
            const shifted = comparePaired(diffs.map((d) => d + shift));
            expect(shifted.ciLow).toBeCloseTo(base.ciLow + shift, 8);
            expect(shifted.ciHigh - shifted.ciLow).toBeCloseTo(base.ciHigh - base.ciLow, 8);
            const scaled = comparePaired(diffs.map((d) => d * scale));
            expect(scaled.ciHigh - scaled.ciLow).toBeCloseTo((base.ciHigh - base.ciLow) * scale, 8);
            expect(scaled.minDetectableEffect).toBeCloseTo(base.minDetectableEffect * scale, 8);
          }
          const expected = base.ciLow > 0 ? 'improved' : base.ciHigh < 0 ? 'regressed' : 'indistinguishable';
          expect(base.verdict).toBe(expected);
        },
      ),
    );
  });

  it('reproduces the write-up: 56 queries, +0.102 with interval +0.033 to +0.172 is an improvement', () => {
    // A spread chosen so the half-width is 0.0695, as in the source's recall@5 comparison.
    const sd = (0.0695 * Math.sqrt(56)) / studentTQuantile(0.975, 55);
    const diffs = Array.from({ length: 56 }, (_, i) => 0.102 + (i % 2 === 0 ? sd : -sd) * Math.sqrt(55 / 56));
    const got = comparePaired(diffs);
    expect(got.ciLow).toBeCloseTo(0.0325, 3);
    expect(got.ciHigh).toBeCloseTo(0.1715, 3);
    expect(got.verdict).toBe('improved');
    // At 80% power the detectable effect is larger than the interval's half-width.
    expect(got.minDetectableEffect).toBeGreaterThan(0.0695);
    expect(got.minDetectableEffect).toBeCloseTo((2.004 + 0.848) * (sd / Math.sqrt(56)), 3);
  });

  it('says indistinguishable when the interval crosses zero, whatever the mean', () => {
    const got = comparePaired([0.5, -0.3, 0.4, -0.2, 0.1]);
    expect(got.meanDiff).toBeCloseTo(0.1, 12);
    expect(got.ciLow).toBeLessThan(0);
    expect(got.verdict).toBe('indistinguishable');
  });

  it('handles the degenerate cases: n < 2, identical runs, every query moving the same', () => {
    expect(comparePaired([])).toMatchObject({ n: 0, meanDiff: 0, verdict: 'indistinguishable' });
    const one = comparePaired([0.4]);
    expect(one.verdict).toBe('indistinguishable');
    expect(one.ciLow).toBe(Number.NEGATIVE_INFINITY);
    expect(one.minDetectableEffect).toBe(Number.POSITIVE_INFINITY);
    const same = comparePaired([0, 0, 0, 0]);
    expect(same).toMatchObject({ meanDiff: 0, sdDiff: 0, ciLow: 0, ciHigh: 0, verdict: 'indistinguishable' });
    expect(same.minDetectableEffect).toBeNaN();
    expect(comparePaired([-0.25, -0.25, -0.25]).verdict).toBe('regressed');
  });
});
