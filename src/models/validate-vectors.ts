// Checks every vector an embedder hands back (count, dimension, finite, not all zeros) and scales it to
// unit length, so a broken model or endpoint fails loudly instead of poisoning the index.

import { type ErrorCode, GrooveError } from '../errors.js';

export interface ValidateVectorsOptions {
  expectedCount: number;
  dimension: number;
  /** Who produced the vectors, for the message: `endpoint "http://…"` or `model "…"`. */
  source: string;
  /** ENDPOINT_FAILED for HTTP responses, EMBEDDING_FAILED for local inference. */
  code: ErrorCode;
}

/** Scale `vector` to length 1 in place; returns the original length (0 means it could not be scaled). */
export function normalizeInPlace(vector: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) ** 2;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) {
    const scale = 1 / norm;
    for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale;
  }
  return norm;
}

function fail(options: ValidateVectorsOptions, problem: string): GrooveError {
  return new GrooveError(options.code, `${options.source} returned unusable embeddings: ${problem}.`, {
    hint: 'check that the model and dimension settings match what produces the vectors',
  });
}

/**
 * Turn raw vectors (arrays of numbers or Float32Arrays) into checked unit vectors.
 * Throws `options.code` naming the first problem: wrong count, wrong length, a non-number, NaN/Infinity,
 * or an all-zero vector (which has no direction and would match everything equally).
 */
export function validateVectors(
  raw: ReadonlyArray<ArrayLike<unknown>>,
  options: ValidateVectorsOptions,
): Float32Array[] {
  if (raw.length !== options.expectedCount) {
    throw fail(options, `expected ${options.expectedCount} vectors, got ${raw.length}`);
  }
  return raw.map((values, i) => {
    if (values.length !== options.dimension) {
      throw fail(options, `vector ${i} has ${values.length} dimensions, expected ${options.dimension}`);
    }
    const vector = new Float32Array(values.length);
    for (let d = 0; d < values.length; d++) {
      const value = values[d];
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw fail(options, `vector ${i} has a non-finite value at position ${d} (${String(value)})`);
      }
      vector[d] = value;
    }
    const norm = normalizeInPlace(vector);
    if (norm === 0 || !Number.isFinite(norm)) throw fail(options, `vector ${i} is all zeros`);
    return vector;
  });
}
