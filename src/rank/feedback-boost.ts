// The boost: how far a chunk moves because agents judged its document before. Pure: a function of the counted
// judgments (counted-judgments.ts) and the settings, never of the feedback table, so eval can hand it any subset.
//
// Evidence of a chunk = the judgments on its whole document (no heading) plus those on its own heading
// (trimmed, case-insensitive — the golden hit rule): H = Σ weight of `helped`, N = Σ weight of `noise` and
// `wrong`, n = how many judgments (unweighted).
//
//   helpfulness c = (H − N) / (H + N + 2)                 Beta(1, 1) smoothing: one fresh vote gives ±1/3
//   gap          = 1 / (rrf_k + 1) − 1 / (rrf_k + 2)       one leg's score step from rank 1 to rank 2
//   boost        = strength × c × gap                      when n ≥ min_judgments, else 0
//
// |c| < 1, so |boost| < strength × gap: at the top of one leg's ranking no boost moves a hit past more than
// `strength` others (further down, where RRF steps are smaller, past a few more). Reordering bound: two hits
// whose fused scores differ by at least 2 × strength × gap keep their order whatever was judged.
import type { CountedJudgment } from './counted-judgments.js';

/** [search.boost] without its switch. */
export interface BoostParams {
  /** 0 – 100: the largest boost is strength × (1 / (rrf_k + 1) − 1 / (rrf_k + 2)). */
  strength: number;
  /** A judgment's weight halves every this many days. */
  halfLifeDays: number;
  /** A chunk with fewer judgments than this is not boosted. */
  minJudgments: number;
  /** Judgments older than this many days do not count. */
  horizonDays: number;
}

export interface BoostEvidence {
  /** Σ weight of helped judgments. */
  helped: number;
  /** Σ weight of noise and wrong judgments. */
  negative: number;
  /** How many judgments, unweighted. */
  judgments: number;
}

/** Pseudo-judgments of the prior: one helped and one not, so a single vote cannot swing a document fully. */
export const BOOST_PRIOR_WEIGHT = 2;

export interface BoostTable {
  /** Judged documents (paths with any counted judgment). */
  readonly documents: number;
  /** The evidence for the chunks of `path` under `heading`, or null when nothing judged them. */
  evidenceFor(path: string, heading: string | null): BoostEvidence | null;
}

const WHOLE_DOCUMENT = '';

/** How judgments on a heading are matched to chunks: trimmed, case-insensitive; '' for the whole document. */
export function headingKey(heading: string | null): string {
  return heading === null ? WHOLE_DOCUMENT : heading.trim().toLowerCase();
}

/** Sum the judgments per document and per (document, heading). */
export function buildBoostTable(judgments: readonly CountedJudgment[]): BoostTable {
  const byPath = new Map<string, Map<string, BoostEvidence>>();
  for (const j of judgments) {
    let headings = byPath.get(j.path);
    if (!headings) {
      headings = new Map();
      byPath.set(j.path, headings);
    }
    const key = headingKey(j.heading);
    const evidence = headings.get(key) ?? { helped: 0, negative: 0, judgments: 0 };
    if (j.verdict === 'helped') evidence.helped += j.weight;
    else evidence.negative += j.weight;
    evidence.judgments++;
    headings.set(key, evidence);
  }
  return {
    documents: byPath.size,
    evidenceFor(path, heading) {
      const headings = byPath.get(path);
      if (!headings) return null;
      const whole = headings.get(WHOLE_DOCUMENT);
      const own = heading === null ? undefined : headings.get(headingKey(heading));
      if (!whole && !own) return null;
      return {
        helped: (whole?.helped ?? 0) + (own?.helped ?? 0),
        negative: (whole?.negative ?? 0) + (own?.negative ?? 0),
        judgments: (whole?.judgments ?? 0) + (own?.judgments ?? 0),
      };
    },
  };
}

/** Smoothed helpfulness in (−1, 1): (H − N) / (H + N + 2). */
export function helpfulnessOf(evidence: BoostEvidence): number {
  return (evidence.helped - evidence.negative) / (evidence.helped + evidence.negative + BOOST_PRIOR_WEIGHT);
}

/** One leg's RRF score step between rank 1 and rank 2: the boost's unit. */
export function topRankGap(rrfK: number): number {
  return 1 / (rrfK + 1) - 1 / (rrfK + 2);
}

/** The additive boost of a chunk with this evidence (0 below the judgment floor). */
export function boostOf(
  evidence: BoostEvidence | null,
  params: Pick<BoostParams, 'strength' | 'minJudgments'>,
  rrfK: number,
): number {
  if (!evidence || evidence.judgments < params.minJudgments) return 0;
  return params.strength * helpfulnessOf(evidence) * topRankGap(rrfK);
}

/** The bound no boost reaches: strength × the top rank gap. */
export function maxBoost(params: Pick<BoostParams, 'strength'>, rrfK: number): number {
  return params.strength * topRankGap(rrfK);
}
