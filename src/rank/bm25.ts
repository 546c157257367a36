// FTS5's bm25() arithmetic, once: the constants, the clamped idf, the column-weighted term frequency and one
// term's score. Every in-memory ranking that must equal `ORDER BY bm25(table, w…), rowid` computes through these
// functions, in FTS5's operation order, so its doubles are bit-identical to SQLite's.

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Rows and average row length as bm25 divides by them: an empty table counts as one row. */
export function bm25Corpus(
  rowCount: number,
  tokenTotal: number,
): { rowCount: number; averageLength: number } {
  const rows = rowCount > 0 ? rowCount : 1;
  return { rowCount: rows, averageLength: tokenTotal / rows };
}

/** IDF of a term found in `hitRows` of `rowCount` rows, clamped to 1e-6 where it would be ≤ 0 (common terms). */
export function bm25Idf(hitRows: number, rowCount: number): number {
  const idf = Math.log((rowCount - hitRows + 0.5) / (hitRows + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/** The length normalisation of a row of `rowLength` tokens: k1 · (1 − b + b · length / average). */
export function bm25LengthTerm(rowLength: number, averageLength: number): number {
  return BM25_K1 * (1 - BM25_B + (BM25_B * rowLength) / averageLength);
}

/** One term's contribution to a row's score (FTS5 negates the sum; here higher is better). */
export function bm25TermScore(idf: number, frequency: number, lengthTerm: number): number {
  return idf * ((frequency * (BM25_K1 + 1.0)) / (frequency + lengthTerm));
}

/** Per-column weights, in column order, with how their weighted frequency may be summed. */
export interface ColumnWeights {
  readonly values: readonly number[];
  /** Every weight is an integer: count × weight is then exactly the per-instance sum. */
  readonly integral: boolean;
}

export function columnWeights(values: readonly number[]): ColumnWeights {
  return { values, integral: values.every(Number.isInteger) };
}

/**
 * A term's column-weighted frequency in one row, from its hit count per column (`hits[at + column]`), exactly as
 * FTS5 sums it: the column's weight added once per instance, columns in order. With integral weights every
 * partial sum is an integer (far below 2^53), so the products give the same double at a fraction of the cost.
 */
export function weightedFrequency(hits: ArrayLike<number>, at: number, weights: ColumnWeights): number {
  const w = weights.values;
  let frequency = 0;
  if (weights.integral) {
    for (let column = 0; column < w.length; column++) frequency += hits[at + column]! * w[column]!;
    return frequency;
  }
  for (let column = 0; column < w.length; column++) {
    const count = hits[at + column]!;
    for (let i = 0; i < count; i++) frequency += w[column]!;
  }
  return frequency;
}
