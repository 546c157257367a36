// The low_confidence flag: the top score does not stand out from the mean.

/**
 * True iff there are at least two scores, `ratio` is not 0, the mean is positive and max / mean < ratio.
 * With a reranker the mean is often ≤ 0 (negative logits), which makes this false; that is the reference
 * behaviour and is documented as unreliable rather than patched here.
 */
export function isLowConfidence(scores: number[], ratio: number): boolean {
  if (scores.length < 2 || ratio === 0 || !Number.isFinite(ratio)) return false;
  let sum = 0;
  let max = Number.NEGATIVE_INFINITY;
  for (const score of scores) {
    if (!Number.isFinite(score)) return false;
    sum += score;
    if (score > max) max = score;
  }
  const mean = sum / scores.length;
  if (!(mean > 0)) return false;
  return max / mean < ratio;
}
