// Paired comparison of two eval runs: the mean per-query difference, its t-interval (exact Student t quantiles,
// so small golden sets get the wider interval they deserve), the verdict, and the minimum detectable effect.

export type PairedVerdict = 'improved' | 'regressed' | 'indistinguishable';

export interface PairedInterval {
  /** Queries both runs share. */
  n: number;
  /** Mean of now − before over the shared queries (0 when n = 0). */
  meanDiff: number;
  /** Sample standard deviation of the differences (n − 1); NaN when n < 2. */
  sdDiff: number;
  /** Bounds of the confidence interval; −∞ / +∞ when n < 2 (nothing can be concluded). */
  ciLow: number;
  ciHigh: number;
  verdict: PairedVerdict;
  /**
   * The smallest true mean difference this N and spread detect with the given power at the given confidence:
   * (t₁₋α/₂ + t_power) · sd / √n. +∞ when n < 2; NaN when the differences have no spread to estimate it from.
   */
  minDetectableEffect: number;
}

export interface PairedOptions {
  /** Two-sided confidence level; default 0.95. */
  confidence?: number;
  /** Power for the minimum detectable effect; default 0.8. */
  power?: number;
}

/** Below this a mean or spread is floating-point noise from subtracting equal metric values. */
const EPSILON = 1e-12;

/** Compare paired differences (now − before per shared query). Pure; never throws for finite input. */
export function comparePaired(diffs: readonly number[], options: PairedOptions = {}): PairedInterval {
  const confidence = options.confidence ?? 0.95;
  const power = options.power ?? 0.8;
  const n = diffs.length;
  const mean = n === 0 ? 0 : diffs.reduce((sum, d) => sum + d, 0) / n;
  const meanDiff = Math.abs(mean) < EPSILON ? 0 : mean;
  if (n < 2) {
    return {
      n,
      meanDiff,
      sdDiff: Number.NaN,
      ciLow: Number.NEGATIVE_INFINITY,
      ciHigh: Number.POSITIVE_INFINITY,
      verdict: 'indistinguishable',
      minDetectableEffect: Number.POSITIVE_INFINITY,
    };
  }
  let squares = 0;
  for (const d of diffs) squares += (d - mean) ** 2;
  const sd = Math.sqrt(squares / (n - 1));
  const sdDiff = sd < EPSILON ? 0 : sd;
  const standardError = sdDiff / Math.sqrt(n);
  const df = n - 1;
  const tCritical = studentTQuantile(1 - (1 - confidence) / 2, df);
  const halfWidth = tCritical * standardError;
  const ciLow = meanDiff - halfWidth;
  const ciHigh = meanDiff + halfWidth;
  const verdict: PairedVerdict = ciLow > 0 ? 'improved' : ciHigh < 0 ? 'regressed' : 'indistinguishable';
  // With no spread at all (the runs moved every query alike, usually not at all) there is nothing to estimate
  // the noise from, so the detectable effect is unknown rather than zero.
  const minDetectableEffect =
    sdDiff === 0 ? Number.NaN : (tCritical + studentTQuantile(power, df)) * standardError;
  return { n, meanDiff, sdDiff, ciLow, ciHigh, verdict, minDetectableEffect };
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom (df > 0). */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  const x = df / (df + t * t);
  const tail = 0.5 * regularizedIncompleteBeta(x, df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The p-quantile of Student's t (0 < p < 1, df > 0), by bisection on the CDF to ~1e-12. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return Number.NaN;
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  let low = 0;
  let high = 1;
  while (studentTCdf(high, df) < p) {
    low = high;
    high *= 2;
    if (high > 1e12) return Number.POSITIVE_INFINITY;
  }
  for (let i = 0; i < 200 && high - low > 1e-12 * Math.max(1, high); i++) {
    const mid = (low + high) / 2;
    if (studentTCdf(mid, df) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** I_x(a, b), the regularized incomplete beta function, by its continued fraction (Lentz's method). */
function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast only below the mean of the distribution; use the symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let result = d;
  for (let m = 1; m <= 500; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + even * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + even / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    result *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + odd * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + odd / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    result *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return result;
}

/** ln Γ(z) for z > 0 (Lanczos approximation, g = 7, nine coefficients; ~1e-15 relative). */
function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const g = 7;
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const w = z - 1;
  let sum = coefficients[0]!;
  for (let i = 1; i < coefficients.length; i++) sum += coefficients[i]! / (w + i);
  const t = w + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (w + 0.5) * Math.log(t) - t + Math.log(sum);
}
