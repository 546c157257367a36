// The pre-flight check before a forced rebuild: embed one fixed text and verify the vector, so a dead or
// misconfigured endpoint stops the run before the old index is thrown away.

import { GrooveError, isGrooveError } from '../errors.js';
import type { Embedder } from '../types.js';
import { PROBE_TEXT } from './http-embedder.js';

export { PROBE_TEXT };

export type ProbeEmbedderResult =
  | { ok: true; latencyMs: number; dimension: number }
  | { ok: false; latencyMs: number; error: GrooveError };

const UNIT_TOLERANCE = 1e-3;

function checkProbeVector(embedder: Embedder, vectors: Float32Array[]): string | null {
  if (vectors.length !== 1) return `expected 1 vector, got ${vectors.length}`;
  const vector = vectors[0] as Float32Array;
  if (vector.length !== embedder.dimension) {
    return `the vector has ${vector.length} dimensions, expected ${embedder.dimension}`;
  }
  let sum = 0;
  for (const value of vector) {
    if (!Number.isFinite(value)) return 'the vector has a non-finite value';
    sum += value * value;
  }
  if (sum === 0) return 'the vector is all zeros';
  if (Math.abs(Math.sqrt(sum) - 1) > UNIT_TOLERANCE)
    return `the vector has length ${Math.sqrt(sum).toFixed(4)}, not 1`;
  return null;
}

/** Embed `groove endpoint probe` as a document and check the result. Failures are returned, not thrown. */
export async function probeEmbedder(embedder: Embedder): Promise<ProbeEmbedderResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const vectors = await embedder.embedDocuments([PROBE_TEXT]);
    const problem = checkProbeVector(embedder, vectors);
    if (problem === null) return { ok: true, latencyMs: elapsed(), dimension: embedder.dimension };
    return {
      ok: false,
      latencyMs: elapsed(),
      error: new GrooveError('ENDPOINT_FAILED', `Embedder "${embedder.id}" failed the probe: ${problem}.`, {
        hint: 'check the embedding settings before rebuilding the index',
      }),
    };
  } catch (error) {
    const wrapped = isGrooveError(error)
      ? error
      : new GrooveError('ENDPOINT_FAILED', `Embedder "${embedder.id}" failed the probe.`, { cause: error });
    return { ok: false, latencyMs: elapsed(), error: wrapped };
  }
}
