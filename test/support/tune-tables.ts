// Synthetic nDCG@5 tables for tune's selection tests: flat, one planted winner, and a seeded null landscape
// with per-query random effects per grid level (every condition has the same distribution). Test-only.
import { CONDITION_COUNT, positionOf } from '../../src/measure/tune-grid.js';
import type { PrimaryScoreTable } from '../../src/measure/tune-select.js';

/** Deterministic uniform [0, 1) generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A table filled by `score(condition, query)`. */
export function buildTable(
  queryCount: number,
  score: (condition: number, query: number) => number,
): PrimaryScoreTable {
  const values = new Float64Array(CONDITION_COUNT * queryCount);
  for (let c = 0; c < CONDITION_COUNT; c++) {
    for (let q = 0; q < queryCount; q++) values[c * queryCount + q] = score(c, q);
  }
  return { queryCount, values };
}

export interface LandscapeOptions {
  queryCount: number;
  seed: number;
  /** SD of each query's random effect per level of each axis. */
  axisSd?: number;
  /** SD of the per-(condition, query) noise. */
  noiseSd?: number;
  /** Share of queries no condition moves. */
  insensitiveShare?: number;
  /** Added to every query's score at the planted conditions (0 = a null landscape). */
  edge?: number;
  planted?: (condition: number) => boolean;
}

/**
 * score = clip(base + Σ axis effects + noise (+ edge), 0, 1), rounded to quarters like a short ranked list's
 * nDCG. Without an edge every condition is identically distributed: no true winner exists.
 */
export function buildLandscape(options: LandscapeOptions): PrimaryScoreTable {
  const random = seededRandom(options.seed);
  const axisSd = options.axisSd ?? 0.1;
  const noiseSd = options.noiseSd ?? 0.05;
  const levels = [4, 4, 4, 6];
  const perQuery = Array.from({ length: options.queryCount }, () => {
    const base = 0.2 + 0.6 * random();
    const insensitive = random() < (options.insensitiveShare ?? 0.3);
    const effects = levels.map((n) =>
      Array.from({ length: n }, () => (insensitive ? 0 : axisSd * gaussian(random))),
    );
    return { base, insensitive, effects };
  });
  return buildTable(options.queryCount, (c, q) => {
    const query = perQuery[q]!;
    const p = positionOf(c);
    const e = query.effects;
    let value = query.base + e[0]![p.heading]! + e[1]![p.context]! + e[2]![p.content]! + e[3]![p.k]!;
    if (!query.insensitive) value += noiseSd * gaussian(random);
    if (options.edge && options.planted?.(c)) value += options.edge;
    return Math.round(Math.min(1, Math.max(0, value)) * 4) / 4;
  });
}
