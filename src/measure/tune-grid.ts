// The `groove tune` grid (docs/tune.md): 6 rrf_k values × 4³ bm25 column weights = 384 conditions, their
// indexing, the built-in default, distances to the grid centre, and the normalised k list / limit / pool.
import { GrooveError } from '../errors.js';

export const RRF_K_VALUES = [5, 10, 20, 30, 60, 100] as const;
export const BM25_WEIGHT_VALUES = [0.5, 1.0, 2.0, 4.0] as const;
export const WEIGHT_SET_COUNT = BM25_WEIGHT_VALUES.length ** 3;
export const CONDITION_COUNT = WEIGHT_SET_COUNT * RRF_K_VALUES.length;
/** The primary metric is nDCG at this k; it is always part of the k list. */
export const PRIMARY_K = 5;
/** Above this, a k or a limit is a typo, not a measurement. */
export const MAX_TUNE_DEPTH = 10_000;

/** A point of the grid by value, in the shape of `[search.fusion]`. */
export interface FusionCondition {
  rrfK: number;
  bm25HeadingWeight: number;
  bm25ContextWeight: number;
  bm25ContentWeight: number;
}

/** A point of the grid by position: each field indexes RRF_K_VALUES or BM25_WEIGHT_VALUES. */
export interface GridPosition {
  k: number;
  heading: number;
  context: number;
  content: number;
}

/** heading 2.0, context 1.0, content 1.0 and k 60: the built-in `[search.fusion]`. */
export const DEFAULT_POSITION: GridPosition = { k: 4, heading: 2, context: 1, content: 1 };

/** Weight set index: heading major, then context, then content. */
export function weightSetIndexOf(position: Omit<GridPosition, 'k'>): number {
  const n = BM25_WEIGHT_VALUES.length;
  return (position.heading * n + position.context) * n + position.content;
}

/** Condition index: k major, then the weight set; this is the "grid index" ties fall back to. */
export function conditionIndexOf(position: GridPosition): number {
  return position.k * WEIGHT_SET_COUNT + weightSetIndexOf(position);
}

export function positionOf(condition: number): GridPosition {
  const n = BM25_WEIGHT_VALUES.length;
  const weightSet = condition % WEIGHT_SET_COUNT;
  return {
    k: Math.floor(condition / WEIGHT_SET_COUNT),
    heading: Math.floor(weightSet / (n * n)),
    context: Math.floor(weightSet / n) % n,
    content: weightSet % n,
  };
}

export const DEFAULT_CONDITION = conditionIndexOf(DEFAULT_POSITION);
export const DEFAULT_K_INDEX = DEFAULT_POSITION.k;

export function conditionValues(condition: number): FusionCondition {
  const p = positionOf(condition);
  return {
    rrfK: RRF_K_VALUES[p.k]!,
    bm25HeadingWeight: BM25_WEIGHT_VALUES[p.heading]!,
    bm25ContextWeight: BM25_WEIGHT_VALUES[p.context]!,
    bm25ContentWeight: BM25_WEIGHT_VALUES[p.content]!,
  };
}

/** The bm25 weights of weight set `index` (0–63). */
export function weightSetValues(index: number): { heading: number; context: number; content: number } {
  const c = conditionValues(index);
  return { heading: c.bm25HeadingWeight, context: c.bm25ContextWeight, content: c.bm25ContentWeight };
}

/** L1 distance to the grid centre in index space (1.5 on each weight axis, 2.5 on the k axis). */
export function centreDistance(condition: number): number {
  const p = positionOf(condition);
  const weightCentre = (BM25_WEIGHT_VALUES.length - 1) / 2;
  const kCentre = (RRF_K_VALUES.length - 1) / 2;
  return (
    Math.abs(p.k - kCentre) +
    Math.abs(p.heading - weightCentre) +
    Math.abs(p.context - weightCentre) +
    Math.abs(p.content - weightCentre)
  );
}

/** The extremes `bm25_sensitive` compares: heading-heavy (4.0/1.0/0.5) against content-heavy (0.5/1.0/4.0). */
export const HEADING_HEAVY_WEIGHT_SET = weightSetIndexOf({ heading: 3, context: 1, content: 0 });
export const CONTENT_HEAVY_WEIGHT_SET = weightSetIndexOf({ heading: 0, context: 1, content: 3 });

export interface TuneDepth {
  /** Positive, deduplicated, ascending, always containing PRIMARY_K. */
  kValues: number[];
  /** Hits scored per query: at least the largest k. */
  limit: number;
  /** Candidates per leg: max(limit × 5, 50) — a floor, not a cap. */
  candidatePool: number;
}

/** Normalise `--k` and `--limit` as the reference does; a value past MAX_TUNE_DEPTH is an error. */
export function normalizeTuneDepth(options: { kValues: readonly number[]; limit?: number }): TuneDepth {
  for (const value of [...options.kValues, ...(options.limit === undefined ? [] : [options.limit])]) {
    if (!Number.isInteger(value) || value < 1) {
      throw new GrooveError('INVALID_ARGUMENT', `k and limit must be positive integers, got "${value}"`, {
        hint: 'e.g. --k 1,5,10 --limit 10',
      });
    }
    if (value > MAX_TUNE_DEPTH) {
      throw new GrooveError(
        'INVALID_ARGUMENT',
        `k or limit "${value}" is above ${MAX_TUNE_DEPTH}, which tune does not measure`,
        { hint: `pass --k and --limit of at most ${MAX_TUNE_DEPTH}` },
      );
    }
  }
  const kValues = [...new Set([...options.kValues, PRIMARY_K])].sort((a, b) => a - b);
  const limit = Math.max(options.limit ?? 0, kValues[kValues.length - 1]!);
  return { kValues, limit, candidatePool: Math.max(limit * 5, 50) };
}
