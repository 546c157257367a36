// Selection and its statistics for `groove tune` (docs/tune.md): coordinate descent on mean nDCG@5 (the 64
// weight sets at k = 60, then the 6 k values), plateau tie-breaking, nested leave-one-query-out with held-out
// deltas, the paired SE, selection stability and an exact sign test. Pure: it reads a table of numbers.
import {
  CONDITION_COUNT,
  centreDistance,
  DEFAULT_CONDITION,
  DEFAULT_K_INDEX,
  RRF_K_VALUES,
  WEIGHT_SET_COUNT,
} from './tune-grid.js';

/** Means closer than this are one plateau: float noise must not pick a winner. */
export const PLATEAU_TOLERANCE = 1e-9;
/** Per-query deltas within this of zero count as ties (sign test, per-query impact). */
export const TIE_TOLERANCE = 1e-12;

/** Per-query primary metric (nDCG@5) for every condition: `values[condition * queryCount + query]`. */
export interface PrimaryScoreTable {
  queryCount: number;
  values: Float64Array;
}

export interface ScoredCondition {
  condition: number;
  /** Mean nDCG@5 over the queries selected on. */
  score: number;
}

export interface Selection {
  condition: number;
  /** Phase W: the 64 weight sets at k = 60, the winner first, then by score. */
  weightRanking: ScoredCondition[];
  /** Phase K: the 6 k values at the winning weights, in grid order. */
  kSweep: ScoredCondition[];
}

export interface SignTest {
  improved: number;
  degraded: number;
  tied: number;
  /** Exact two-sided binomial p with ties dropped; 1 when nothing moved. */
  pValue: number;
}

export interface LooResult {
  refit: Selection;
  /** The condition each fold selected on the other N − 1 effective queries. */
  foldSelections: number[];
  /** d_j = nDCG@5(fold selection, q_j) − nDCG@5(default, q_j), per effective query. */
  heldOutDiffs: number[];
  meanDelta: number;
  /** SD(d) / sqrt(N) with the n − 1 SD; Infinity when N < 2. */
  pairedSe: number;
  /** Share of folds whose selection equals the refit. */
  selectionStability: number;
  signTest: SignTest;
}

export function scoreAt(table: PrimaryScoreTable, condition: number, query: number): number {
  return table.values[condition * table.queryCount + query]!;
}

/** Σ over `queries` of each condition's score. */
function sumScores(table: PrimaryScoreTable, queries: readonly number[]): Float64Array {
  const sums = new Float64Array(CONDITION_COUNT);
  for (let c = 0; c < CONDITION_COUNT; c++) {
    let total = 0;
    for (const q of queries) total += scoreAt(table, c, q);
    sums[c] = total;
  }
  return sums;
}

/**
 * The winner among `candidates`: the plateau within PLATEAU_TOLERANCE of the best mean resolves to `preferred`
 * when it is on it, else to the condition nearest the grid centre, else to the lowest grid index.
 */
function pickFromPlateau(
  candidates: readonly number[],
  score: (condition: number) => number,
  preferred: number,
): number {
  const best = Math.max(...candidates.map(score));
  const plateau = candidates.filter((c) => score(c) >= best - PLATEAU_TOLERANCE);
  if (plateau.includes(preferred)) return preferred;
  return plateau.reduce((winner, c) => {
    const dc = centreDistance(c);
    const dw = centreDistance(winner);
    return dc < dw || (dc === dw && c < winner) ? c : winner;
  });
}

const PHASE_W_CANDIDATES = Array.from(
  { length: WEIGHT_SET_COUNT },
  (_, w) => DEFAULT_K_INDEX * WEIGHT_SET_COUNT + w,
);

function phaseKCandidates(winner: number): number[] {
  const weightSet = winner % WEIGHT_SET_COUNT;
  return RRF_K_VALUES.map((_, k) => k * WEIGHT_SET_COUNT + weightSet);
}

/**
 * Coordinate descent: phase W picks the weights at k = 60, phase K the k at those weights. Each phase prefers
 * the default along its own axis on a plateau (the default weights; k = 60), so an axis that cannot move the
 * metric — k on a lexical-only index — stays at its default instead of drifting to the centre.
 */
function pickCondition(score: (condition: number) => number): number {
  const weights = pickFromPlateau(PHASE_W_CANDIDATES, score, DEFAULT_CONDITION);
  const kCandidates = phaseKCandidates(weights);
  return pickFromPlateau(kCandidates, score, kCandidates[DEFAULT_K_INDEX]!);
}

/** Phase W candidates, the plateau first in tie-break order, then the rest by score. */
function rankWeightSets(score: (condition: number) => number, winner: number): ScoredCondition[] {
  const best = Math.max(...PHASE_W_CANDIDATES.map(score));
  const onPlateau = (c: number) => score(c) >= best - PLATEAU_TOLERANCE;
  const plateauKey = (c: number) => [c === DEFAULT_CONDITION ? 0 : 1, centreDistance(c), c];
  const ranked = [...PHASE_W_CANDIDATES].sort((a, b) => {
    const pa = onPlateau(a);
    const pb = onPlateau(b);
    if (pa !== pb) return pa ? -1 : 1;
    if (!pa) return score(b) - score(a) || a - b;
    const ka = plateauKey(a);
    const kb = plateauKey(b);
    return ka[0]! - kb[0]! || ka[1]! - kb[1]! || ka[2]! - kb[2]!;
  });
  // The phase-W winner leads even when preference, not score order, chose it.
  const winnerWeights = DEFAULT_K_INDEX * WEIGHT_SET_COUNT + (winner % WEIGHT_SET_COUNT);
  const ordered = [winnerWeights, ...ranked.filter((c) => c !== winnerWeights)];
  return ordered.map((condition) => ({ condition, score: score(condition) }));
}

/** Select on the queries given (mean nDCG@5); an empty set selects the default. */
export function selectCondition(table: PrimaryScoreTable, queries: readonly number[]): Selection {
  const sums = sumScores(table, queries);
  const score = (c: number) => (queries.length === 0 ? 0 : sums[c]! / queries.length);
  const condition = pickCondition(score);
  return {
    condition,
    weightRanking: rankWeightSets(score, condition),
    kSweep: phaseKCandidates(condition).map((c) => ({ condition: c, score: score(c) })),
  };
}

/** Sample SD (n − 1) over sqrt(n); Infinity below two values, where no spread can be estimated. */
export function computePairedSe(diffs: readonly number[]): number {
  const n = diffs.length;
  if (n < 2) return Number.POSITIVE_INFINITY;
  const mean = diffs.reduce((s, d) => s + d, 0) / n;
  const variance = diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / (n - 1);
  return Math.sqrt(variance) / Math.sqrt(n);
}

/** Exact two-sided binomial sign test, ties dropped: p = min(1, 2·P(X ≤ min(improved, degraded))). */
export function runSignTest(diffs: readonly number[]): SignTest {
  const improved = diffs.filter((d) => d > TIE_TOLERANCE).length;
  const degraded = diffs.filter((d) => d < -TIE_TOLERANCE).length;
  const tied = diffs.length - improved - degraded;
  const n = improved + degraded;
  if (n === 0) return { improved, degraded, tied, pValue: 1 };
  const x = Math.min(improved, degraded);
  // Log space: 2^-n underflows past n ≈ 1074.
  let logChoose = 0;
  let tail = 0;
  for (let i = 0; i <= x; i++) {
    if (i > 0) logChoose += Math.log((n - i + 1) / i);
    tail += Math.exp(logChoose - n * Math.LN2);
  }
  return { improved, degraded, tied, pValue: Math.min(1, 2 * tail) };
}

/**
 * Nested leave-one-query-out over the effective queries: the refit selects on all of them; fold j selects on
 * the other N − 1 and is scored on q_j against the default. Fold means come from the totals minus q_j, so the
 * N selections cost N × 70 lookups rather than N × N × 384.
 */
export function runNestedLoo(table: PrimaryScoreTable, effective: readonly number[]): LooResult {
  const refit = selectCondition(table, effective);
  const totals = sumScores(table, effective);
  const n = effective.length;
  const foldSelections: number[] = [];
  const heldOutDiffs: number[] = [];
  for (const held of effective) {
    const score = (c: number) => (n <= 1 ? 0 : (totals[c]! - scoreAt(table, c, held)) / (n - 1));
    const chosen = pickCondition(score);
    foldSelections.push(chosen);
    heldOutDiffs.push(scoreAt(table, chosen, held) - scoreAt(table, DEFAULT_CONDITION, held));
  }
  const meanDelta = n === 0 ? 0 : heldOutDiffs.reduce((s, d) => s + d, 0) / n;
  const agreeing = foldSelections.filter((c) => c === refit.condition).length;
  return {
    refit,
    foldSelections,
    heldOutDiffs,
    meanDelta,
    pairedSe: computePairedSe(heldOutDiffs),
    selectionStability: n === 0 ? 0 : agreeing / n,
    signTest: runSignTest(heldOutDiffs),
  };
}
