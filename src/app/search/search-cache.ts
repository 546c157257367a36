// What a search reads beside the store's statements: the session's in-memory state over its connection — every
// document's facts and the word snapshot's ranking — as explicit members, never patched into the store's reader.
import type { CorpusQuery, PreparedCorpusRanking } from '../../store/corpus-ranking.js';
import type { WordRankOptions } from '../../store/word-index.js';
import type { Bm25Weights, DocumentFacts } from '../../types.js';

/** The word-level leg ranked in memory (a long-lived session's word snapshot). */
export interface WordRanking {
  /**
   * The same ids as `searchFts('fts_words', …)` for an OR of `terms`, or null when it cannot answer and FTS5
   * must: no snapshot (yet), other weights, a term that is a phrase under the table's tokenizer.
   */
  rankTerms(terms: readonly string[], options: WordRankOptions & { weights: Bm25Weights }): number[] | null;
  /**
   * This index's matches and statistics for bm25 over several indexes as one, from the snapshot without reading
   * postings; null when it cannot answer (no snapshot yet, other weights, exclusions, a phrase), and the
   * reader's prepareCorpusRanking must.
   */
  prepareCorpusRanking(query: CorpusQuery, weights: Bm25Weights): PreparedCorpusRanking | null;
  /**
   * prepareCorpusRanking from the snapshot already held for the current text, never loading, refreshing or
   * counting a search toward loading one (a per-search read beside the ranking, such as the confidence's).
   */
  heldCorpusRanking(query: CorpusQuery, weights: Bm25Weights): PreparedCorpusRanking | null;
}

/** What a search reads from memory instead of the index, when it can. */
export interface SearchCache {
  /** Every document's facts (what filters look at), as of the text the index holds now. */
  documentFacts(): DocumentFacts[];
  /** The in-memory word ranking, or null where there is none (the leg then ranks through FTS5). */
  readonly words: WordRanking | null;
}
