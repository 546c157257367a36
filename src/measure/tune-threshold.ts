// `groove tune`'s fit of min_confidence on a golden set with negative queries: the threshold that maximises
// balanced accuracy (the mean of abstention recall on negatives and of answering on answerable queries), chosen
// by the same nested leave-one-query-out as the fusion sweep — fold j fits on every other query and decides
// query j — so the held-out numbers are what a fitted threshold does on a query it never saw. Pure.
import { type AbstentionCase, type AbstentionMetrics, computeAbstention } from './abstention-metrics.js';

/** Thresholds tried: 0.05 to 0.95 in steps of 0.05. */
export const THRESHOLD_GRID: readonly number[] = Array.from({ length: 19 }, (_, i) => (i + 1) / 20);
/** Fewer negative or answerable queries than this cannot place a threshold with any precision. */
export const MIN_QUERIES_PER_KIND = 10;
/** At or below this AUC the confidence does not separate the two kinds on this set: no threshold helps. */
export const MIN_AUC = 0.6;

/** One golden query's confidence and whether the KB should answer it. */
export interface ThresholdCase {
  answerable: boolean;
  confidence: number;
}

export type ThresholdFit =
  | { kind: 'refused'; reason: string; answerable: number; negatives: number }
  | {
      kind: 'fitted';
      /** Fitted on every query: the value to put in [search] min_confidence. */
      threshold: number;
      /** Balanced accuracy of `threshold` on the queries it was fitted on. */
      balancedAccuracy: number;
      /** Abstention when each query is decided by the threshold fitted without it (held-out). */
      heldOut: AbstentionMetrics;
      /** The same queries decided by the threshold in effect now (`currentThreshold`), for comparison. */
      atDefault: AbstentionMetrics;
      currentThreshold: number;
      /** Share of folds that chose `threshold`. */
      stability: number;
    };

/** Per grid threshold: abstained negatives and abstained answerable queries. */
function countAbstained(cases: readonly ThresholdCase[]): { negatives: Int32Array; answerable: Int32Array } {
  const negatives = new Int32Array(THRESHOLD_GRID.length);
  const answerable = new Int32Array(THRESHOLD_GRID.length);
  for (const c of cases) {
    THRESHOLD_GRID.forEach((t, g) => {
      if (c.confidence < t) (c.answerable ? answerable : negatives)[g]!++;
    });
  }
  return { negatives, answerable };
}

/**
 * The grid threshold of best balanced accuracy given abstention counts over `negatives` and `answerable`
 * queries; ties go to the threshold nearest `preferred`, then to the lower (fewer false abstentions).
 */
function pickThreshold(
  abstained: (g: number) => { negatives: number; answerable: number },
  totals: { negatives: number; answerable: number },
  preferred: number,
): { g: number; score: number } {
  let best = { g: 0, score: Number.NEGATIVE_INFINITY };
  THRESHOLD_GRID.forEach((t, g) => {
    const counts = abstained(g);
    const score = (counts.negatives / totals.negatives + 1 - counts.answerable / totals.answerable) / 2;
    const closer = Math.abs(t - preferred) < Math.abs(THRESHOLD_GRID[best.g]! - preferred) - 1e-12;
    if (score > best.score + 1e-12 || (Math.abs(score - best.score) <= 1e-12 && closer)) best = { g, score };
  });
  return best;
}

function refusal(reason: string, answerable: number, negatives: number): ThresholdFit {
  return { kind: 'refused', reason, answerable, negatives };
}

/** The refusal of a set with too few queries of either kind to place a threshold, else null. */
export function refuseTooFew(answerable: number, negatives: number): ThresholdFit | null {
  if (negatives >= MIN_QUERIES_PER_KIND && answerable >= MIN_QUERIES_PER_KIND) return null;
  return refusal(
    `the golden set has ${negatives} negative and ${answerable} answerable queries; fitting min_confidence needs at least ${MIN_QUERIES_PER_KIND} of each (a negative query has \`expected: []\`)`,
    answerable,
    negatives,
  );
}

/** Fit min_confidence, or refuse with the reason when the set cannot support a threshold. */
export function fitThreshold(cases: readonly ThresholdCase[], currentThreshold: number): ThresholdFit {
  const answerable = cases.filter((c) => c.answerable).length;
  const negatives = cases.length - answerable;
  const tooFew = refuseTooFew(answerable, negatives);
  if (tooFew) return tooFew;
  const decided = (threshold: number) => (c: ThresholdCase) => ({
    ...c,
    abstained: c.confidence < threshold,
  });
  const atDefault = computeAbstention(cases.map(decided(currentThreshold)), currentThreshold)!;
  if (atDefault.auc !== null && atDefault.auc <= MIN_AUC) {
    return refusal(
      `confidence does not separate the answerable queries from the negative ones on this set (AUC ${atDefault.auc.toFixed(2)}, at most ${MIN_AUC}): no threshold would abstain usefully`,
      answerable,
      negatives,
    );
  }
  const counts = countAbstained(cases);
  const totals = { negatives, answerable };
  const refit = pickThreshold(
    (g) => ({ negatives: counts.negatives[g]!, answerable: counts.answerable[g]! }),
    totals,
    currentThreshold,
  );
  const threshold = THRESHOLD_GRID[refit.g]!;
  const heldOutCases: AbstentionCase[] = [];
  let agreeing = 0;
  for (const held of cases) {
    // Fold: every query but `held`, from the totals minus its own counts.
    const without = held.answerable
      ? { negatives, answerable: answerable - 1 }
      : { negatives: negatives - 1, answerable };
    const own = (g: number) => (held.confidence < THRESHOLD_GRID[g]! ? 1 : 0);
    const fold = pickThreshold(
      (g) => ({
        negatives: counts.negatives[g]! - (held.answerable ? 0 : own(g)),
        answerable: counts.answerable[g]! - (held.answerable ? own(g) : 0),
      }),
      without,
      currentThreshold,
    );
    if (fold.g === refit.g) agreeing++;
    heldOutCases.push({ ...held, abstained: held.confidence < THRESHOLD_GRID[fold.g]! });
  }
  return {
    kind: 'fitted',
    threshold,
    balancedAccuracy: refit.score,
    heldOut: computeAbstention(heldOutCases, threshold)!,
    atDefault,
    currentThreshold,
    stability: agreeing / cases.length,
  };
}

/** The groove.toml lines that make a KB use the fitted threshold. */
export function formatThresholdSnippet(threshold: number): string {
  return `[search]\nmin_confidence = ${threshold}`;
}
