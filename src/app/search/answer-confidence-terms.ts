// The evidence rank/answer-confidence.ts weighs, read from the word-level table: for each query term, how many
// chunks hold it and whether the top hit does.
import { answerConfidence, confidenceTerms, type TermEvidence } from '../../rank/answer-confidence.js';
import { quoteFtsPhrase } from '../../rank/fts-query.js';
import type { SearchReader } from '../../store/chunk-search.js';
import type { Bm25Weights } from '../../types.js';
import type { WordRanking } from './search-cache.js';

/** Rows in the word-level table and rows holding each term, in term order. */
interface TermCounts {
  rowCount: number;
  rowsHolding: number[];
}

/**
 * The confidence of a search whose best hit is chunk `topId` (null: nothing was found, confidence 0) for the
 * query's word-level terms. A table that cannot answer gives 0: nothing then vouches for the answer.
 */
export function measureAnswerConfidence(
  reader: SearchReader,
  terms: readonly string[],
  topId: number | null,
  snapshot: { words: WordRanking | null; weights: Bm25Weights },
): number {
  if (topId === null) return 0;
  try {
    const weighed = confidenceTerms(terms);
    const counts = countFromSnapshot(weighed, snapshot) ?? countFromTable(reader, weighed);
    const evidence: TermEvidence[] = weighed.map((term, i) => ({
      rowsHolding: counts.rowsHolding[i]!,
      inTopHit: reader.confirmMatch('fts_words', quoteFtsPhrase(term), topId),
    }));
    return answerConfidence(evidence, counts.rowCount);
  } catch {
    return 0;
  }
}

/**
 * The counts from the word snapshot the session already holds, without touching the table; null where it holds
 * none (a one-shot search never loads one for this) or it cannot answer.
 */
function countFromSnapshot(
  terms: readonly string[],
  snapshot: { words: WordRanking | null; weights: Bm25Weights },
): TermCounts | null {
  if (!snapshot.words || terms.length === 0) return null;
  const expression = terms.map(quoteFtsPhrase).join(' OR ');
  const prepared = snapshot.words.heldCorpusRanking(
    { table: 'fts_words', expression, phrases: terms },
    snapshot.weights,
  );
  if (!prepared) return null;
  return { rowCount: prepared.stats.rowCount, rowsHolding: prepared.stats.phraseRows };
}

/** The counts from FTS5: one count per term and the table's row total. */
function countFromTable(reader: SearchReader, terms: readonly string[]): TermCounts {
  return {
    rowCount: reader.countRows('fts_words'),
    rowsHolding: terms.map((term) =>
      reader.countFtsUnion([{ table: 'fts_words', expression: quoteFtsPhrase(term) }]),
    ),
  };
}
