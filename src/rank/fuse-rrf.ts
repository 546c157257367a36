// Reciprocal rank fusion of ranked id lists: score = Σ weight / (k + rank), rank 1-based.

import { GrooveError } from '../errors.js';

export interface RrfLeg {
  /** Leg name, reported back in `ranks` (e.g. `fts`, `vector`). */
  name: string;
  /** Ids best first. A repeated id keeps its first (best) rank. */
  ids: number[];
  /** Multiplier for this leg's contribution; 1 when absent. */
  weight?: number;
}

export interface FuseRrfOptions {
  /** The RRF constant; larger values flatten the difference between ranks. */
  k: number;
}

export interface FusedId {
  id: number;
  score: number;
  /** 1-based rank of the id in each leg that returned it. */
  ranks: Record<string, number>;
}

/** Fuse legs into one list, best first; equal scores are ordered by id ascending so results are stable. */
export function fuseRrf(legs: RrfLeg[], options: FuseRrfOptions): FusedId[] {
  const { k } = options;
  if (!Number.isFinite(k) || k <= 0) {
    throw new GrooveError('INVALID_ARGUMENT', `RRF constant k=${k} is not a positive finite number`, {
      hint: 'set [search.fusion] rrf_k to a value between 1 and 1e6',
    });
  }
  const fused = new Map<number, FusedId>();
  for (const leg of legs) {
    const weight = leg.weight ?? 1;
    if (!Number.isFinite(weight) || weight < 0) {
      throw new GrooveError(
        'INVALID_ARGUMENT',
        `RRF weight ${weight} of leg "${leg.name}" is not a finite number ≥ 0`,
      );
    }
    leg.ids.forEach((id, index) => {
      let entry = fused.get(id);
      if (entry === undefined) {
        entry = { id, score: 0, ranks: {} };
        fused.set(id, entry);
      }
      if (entry.ranks[leg.name] !== undefined) return;
      const rank = index + 1;
      entry.ranks[leg.name] = rank;
      entry.score += weight / (k + rank);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.id - b.id);
}
