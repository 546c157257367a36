// Which candidate legs one search runs — both, or one left out by the request's `legs` or by eval's stage
// ablation — and the health a leg left out reports.
import type { SearchLegs } from '../../config/search-params.js';
import { disabledLeg } from '../../measure/leg-health.js';
import type { LegHealth } from '../../types.js';

/** The two candidate legs fusion combines. */
export type CandidateLeg = 'lexical' | 'vector';

export interface LegSelection {
  /** The leg not run, or null when both run. */
  skipped: CandidateLeg | null;
  /** The health the skipped leg reports: disabled, with the reason when the request chose it. */
  skippedHealth: LegHealth;
  /** The leg the request asked to run alone, or null. */
  requestedAlone: CandidateLeg | null;
}

/**
 * Eval's ablation wins over the request; a leg eval leaves out reports a bare `disabled`, one the request
 * leaves out says so in `reason`.
 */
export function selectLegs(
  requested: SearchLegs | undefined,
  ablated: CandidateLeg | undefined,
): LegSelection {
  if (ablated !== undefined) return { skipped: ablated, skippedHealth: disabledLeg(), requestedAlone: null };
  if (requested === undefined || requested === 'both') {
    return { skipped: null, skippedHealth: disabledLeg(), requestedAlone: null };
  }
  return {
    skipped: requested === 'lexical' ? 'vector' : 'lexical',
    skippedHealth: disabledLeg(`not run: the request asked for legs: ${requested}`),
    requestedAlone: requested,
  };
}

/** The vector leg's health when the request asked for it alone and the index has no embedding model. */
export const VECTOR_ONLY_WITHOUT_MODEL: LegHealth = disabledLeg(
  'no embedding model: this index is lexical-only, so legs: vector finds nothing; search with legs: lexical or both',
);
