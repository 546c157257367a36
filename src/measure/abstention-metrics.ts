// Abstention measured on a golden set with negative queries (`expected: []`, questions the KB should not
// answer): a query abstains when its search set `low_confidence`. Answerable queries are those with expected
// entries; negatives never enter the ranking metrics, and the ranking metrics never enter these.

/** z of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** A share with its 95% Wilson score interval; all null when nothing was counted. */
export interface RateWithInterval {
  /** What was counted as a success. */
  count: number;
  /** What the share is of. */
  of: number;
  value: number | null;
  low: number | null;
  high: number | null;
}

/** One measured query: whether the golden set expects an answer, its confidence, whether it abstained. */
export interface AbstentionCase {
  answerable: boolean;
  confidence: number;
  abstained: boolean;
}

export interface AbstentionMetrics {
  /** The `min_confidence` the searches ran with. */
  threshold: number;
  answerable: number;
  negatives: number;
  /** Of the queries that abstained, the share that were negatives. */
  precision: RateWithInterval;
  /** Of the negatives, the share that abstained. */
  recall: RateWithInterval;
  /** Of the answerable queries, the share that abstained. */
  falseAbstain: RateWithInterval;
  /**
   * The chance that an answerable query's confidence exceeds a negative's (ties count half): 0.5 is no
   * separation, 1 perfect; null without both kinds.
   */
  auc: number | null;
}

/** The Wilson score interval of `count` successes in `of` trials at 95%. */
export function wilsonInterval(count: number, of: number): RateWithInterval {
  if (of <= 0) return { count, of, value: null, low: null, high: null };
  const p = count / of;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * of)) / (1 + z2 / of);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / of + z2 / (4 * of * of))) / (1 + z2 / of);
  // At 0 and at `of` the bound on that side is exactly 0 or 1; rounding must not move it.
  const low = count === 0 ? 0 : Math.max(0, centre - half);
  const high = count === of ? 1 : Math.min(1, centre + half);
  return { count, of, value: p, low, high };
}

/**
 * The area under the ROC curve of `confidence` as a detector of answerable queries (Mann–Whitney U / (P·N)),
 * from ranks with ties averaged; null without both answerable and negative queries.
 */
export function confidenceAuc(cases: readonly AbstentionCase[]): number | null {
  const positives = cases.filter((c) => c.answerable).length;
  const negatives = cases.length - positives;
  if (positives === 0 || negatives === 0) return null;
  const sorted = [...cases].sort((a, b) => a.confidence - b.confidence);
  let positiveRankSum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j]!.confidence === sorted[i]!.confidence) j++;
    // Ranks i+1 … j share their mean.
    const meanRank = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) if (sorted[t]!.answerable) positiveRankSum += meanRank;
    i = j;
  }
  const u = positiveRankSum - (positives * (positives + 1)) / 2;
  return u / (positives * negatives);
}

/** The abstention metrics of a run; null when the golden set holds no negative query. */
export function computeAbstention(
  cases: readonly AbstentionCase[],
  threshold: number,
): AbstentionMetrics | null {
  const negatives = cases.filter((c) => !c.answerable);
  if (negatives.length === 0) return null;
  const answerable = cases.filter((c) => c.answerable);
  const abstained = cases.filter((c) => c.abstained);
  const negativesAbstained = negatives.filter((c) => c.abstained).length;
  return {
    threshold,
    answerable: answerable.length,
    negatives: negatives.length,
    precision: wilsonInterval(negativesAbstained, abstained.length),
    recall: wilsonInterval(negativesAbstained, negatives.length),
    falseAbstain: wilsonInterval(answerable.filter((c) => c.abstained).length, answerable.length),
    auc: confidenceAuc(cases),
  };
}

/** The measured queries as abstention cases (queries measured without a confidence are left out). */
export function abstentionCases(
  perQuery: readonly { expected: readonly unknown[]; confidence?: { value: number; abstained: boolean } }[],
): AbstentionCase[] {
  return perQuery.flatMap((q) =>
    q.confidence
      ? [
          {
            answerable: q.expected.length > 0,
            confidence: q.confidence.value,
            abstained: q.confidence.abstained,
          },
        ]
      : [],
  );
}
