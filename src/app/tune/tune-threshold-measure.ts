// The threshold half of `groove tune`: every golden query through the search pipeline as the KB runs it, its
// confidence kept, then min_confidence fitted on them (measure/tune-threshold.ts). Only a set with enough
// negative and answerable queries is searched.
import { fitThreshold, refuseTooFew, type ThresholdFit } from '../../measure/tune-threshold.js';
import type { GoldenQuery } from '../golden/index.js';
import type { ReadSnapshot } from '../search/index.js';

export async function measureThresholdFit(
  snapshot: ReadSnapshot,
  queries: readonly GoldenQuery[],
  options: { limit: number; currentThreshold: number },
): Promise<ThresholdFit> {
  // A set that cannot support a threshold is refused before any query is searched again.
  const negatives = queries.filter((q) => q.expected.length === 0).length;
  const tooFew = refuseTooFew(queries.length - negatives, negatives);
  if (tooFew) return tooFew;
  const cases: { answerable: boolean; confidence: number }[] = [];
  for (const q of queries) {
    // As eval measures: unfiltered, no quality floor.
    const response = await snapshot.search({ query: q.query, limit: options.limit, includeLowQuality: true });
    cases.push({ answerable: q.expected.length > 0, confidence: response.confidence });
  }
  return fitThreshold(cases, options.currentThreshold);
}
