// The evidence rank/answer-confidence.ts weighs, read from the word-level table: for each query term, how many
// chunks hold it and whether the top hit does.
import { answerConfidence, confidenceTerms, type TermEvidence } from '../../rank/answer-confidence.js';
import { quoteFtsPhrase } from '../../rank/fts-query.js';
import type { SearchReader } from '../../store/chunk-search.js';

/**
 * The confidence of a search whose best hit is chunk `topId` (null: nothing was found, confidence 0) for the
 * query's word-level terms. A table that cannot answer gives 0: nothing then vouches for the answer.
 */
export function measureAnswerConfidence(
  reader: SearchReader,
  terms: readonly string[],
  topId: number | null,
): number {
  if (topId === null) return 0;
  try {
    const evidence: TermEvidence[] = confidenceTerms(terms).map((term) => {
      const expression = quoteFtsPhrase(term);
      return {
        rowsHolding: reader.countFtsUnion([{ table: 'fts_words', expression }]),
        inTopHit: reader.confirmMatch('fts_words', expression, topId),
      };
    });
    return answerConfidence(evidence, reader.countRows('fts_words'));
  } catch {
    return 0;
  }
}
