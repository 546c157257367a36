// The arithmetic of a vector search: the float32 dot product every path reports, the query's int8 codes for the
// first pass, and a row mask for a document filter.

/** Σ a[i]·b[i] over `dim` components, in four running sums (the one float32 similarity every path reports). */
export function dotProduct(a: Float32Array, b: Float32Array, dim: number): number {
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  let i = 0;
  for (; i + 3 < dim; i += 4) {
    d0 += a[i]! * b[i]!;
    d1 += a[i + 1]! * b[i + 1]!;
    d2 += a[i + 2]! * b[i + 2]!;
    d3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < dim; i++) d0 += a[i]! * b[i]!;
  return d0 + d1 + d2 + d3;
}

/**
 * The query's int8 codes (symmetric, scaled to its own max |x|). Its scale is one factor common to every row,
 * so the first pass can rank without it. A zero or non-finite query gets zero codes.
 */
export function quantiseQuery(query: Float32Array, dim: number, target: Int8Array): void {
  let maxAbs = 0;
  for (let i = 0; i < dim; i++) {
    const a = Math.abs(query[i]!);
    if (a > maxAbs) maxAbs = a;
  }
  const scale = maxAbs > 0 && Number.isFinite(maxAbs) ? 127 / maxAbs : 0;
  for (let i = 0; i < dim; i++) target[i] = Math.round(query[i]! * scale) || 0;
}

export function maskOf(rows: readonly number[], size: number): Uint8Array {
  const mask = new Uint8Array(size);
  for (const row of rows) mask[row] = 1;
  return mask;
}
