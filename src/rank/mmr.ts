// Maximal marginal relevance re-ordering, the pipeline's step after rerank: trade relevance against similarity to what is
// already picked, with an extra penalty for a second chunk of a document already shown.

import { GrooveError } from '../errors.js';

export interface MmrCandidate {
  id: number;
  docId: number;
  /** Any scale; min-max normalised over the pool. */
  relevance: number;
  /** Chunk embedding; null when the chunk has none (its similarity to everything counts as 0). */
  vector: Float32Array | null;
}

export interface SelectMmrOptions {
  /** 1 = relevance only, 0 = diversity only. */
  lambda: number;
  /** Subtracted when the candidate's document already has a picked chunk. */
  sameDocPenalty: number;
  /** How many ids to pick. */
  limit: number;
}

/** Below this relevance range every candidate is equally relevant (normalised to 0). */
const RELEVANCE_RANGE_EPSILON = 1e-9;

function cosineSimilarity(a: Float32Array, b: Float32Array, normA: number, normB: number): number {
  if (a.length !== b.length) {
    throw new GrooveError(
      'INVALID_ARGUMENT',
      `MMR vectors have different dimensions (${a.length} and ${b.length})`,
      { hint: 're-index so every chunk is embedded by the same model' },
    );
  }
  if (normA === 0 || normB === 0) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot / (normA * normB);
}

function vectorNorm(vector: Float32Array | null): number {
  if (vector === null) return 0;
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  return Math.sqrt(sum);
}

function normaliseRelevance(candidates: MmrCandidate[]): number[] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const candidate of candidates) {
    min = Math.min(min, candidate.relevance);
    max = Math.max(max, candidate.relevance);
  }
  const range = max - min;
  if (!(range > RELEVANCE_RANGE_EPSILON)) return candidates.map(() => 0);
  return candidates.map((candidate) => (candidate.relevance - min) / range);
}

/**
 * Greedily pick up to `limit` ids maximising λ·rel − (1−λ)·max cos(c, picked) − penalty·[same doc picked].
 * Ties go to the earlier candidate (the better fused rank). Returns ids in pick order.
 */
export function selectMmr(candidates: MmrCandidate[], options: SelectMmrOptions): number[] {
  const { lambda, sameDocPenalty, limit } = options;
  const relevance = normaliseRelevance(candidates);
  const norms = candidates.map((candidate) => vectorNorm(candidate.vector));
  // Max similarity to anything picked so far, updated incrementally after each pick: O(limit · n · dim).
  // It starts at -∞ (not 0) because a negative cosine to every pick is a real maximum, not "no similarity".
  const maxSimilarity = new Float64Array(candidates.length).fill(Number.NEGATIVE_INFINITY);
  const picked = new Uint8Array(candidates.length);
  const pickedDocs = new Set<number>();
  const order: number[] = [];
  const count = Math.min(Math.max(0, Math.floor(limit)), candidates.length);

  while (order.length < count) {
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < candidates.length; i++) {
      if (picked[i]) continue;
      const candidate = candidates[i]!;
      const penalty = pickedDocs.has(candidate.docId) ? sameDocPenalty : 0;
      const similarity = order.length === 0 ? 0 : maxSimilarity[i]!;
      const score = lambda * relevance[i]! - (1 - lambda) * similarity - penalty;
      // Strictly greater keeps ties on the earlier index; `best === -1` guards against NaN scores.
      if (best === -1 || score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    const chosen = candidates[best]!;
    picked[best] = 1;
    pickedDocs.add(chosen.docId);
    order.push(chosen.id);
    for (let i = 0; i < candidates.length; i++) {
      const other = candidates[i]!;
      if (picked[i]) continue;
      const similarity =
        chosen.vector === null || other.vector === null
          ? 0
          : cosineSimilarity(chosen.vector, other.vector, norms[best]!, norms[i]!);
      if (similarity > maxSimilarity[i]!) maxSimilarity[i] = similarity;
    }
  }
  return order;
}
