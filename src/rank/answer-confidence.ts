// The answer confidence of a search: how much of what the query asks for the best hit holds, in [0, 1].
import { bm25Idf } from './bm25.js';

/**
 * Words that ask rather than name a topic (interrogatives, auxiliaries, pronouns): left out of the confidence,
 * since a small knowledge base need not use them and a question is not off-topic for them. Lower case.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  (
    'how what when where which who whom whose why do does did done can could should would shall may might must ' +
    'has have had i me my we us our you your he she him her his its them am been being get got' +
    ' 何 どこ いつ 誰 どの どれ どう なぜ どんな'
  ).split(' '),
);

/** The query terms the confidence weighs: each once, question words left out (all of them if nothing else is left). */
export function confidenceTerms(terms: readonly string[]): string[] {
  const unique = [...new Set(terms)];
  const topical = unique.filter((term) => !QUESTION_WORDS.has(term.toLowerCase()));
  return topical.length > 0 ? topical : unique;
}

/** One query term as the word-level table sees it. */
export interface TermEvidence {
  /** Rows (chunks) of the index that hold the term; 0 for a term the knowledge base never uses. */
  rowsHolding: number;
  /** Whether the top hit holds the term. */
  inTopHit: boolean;
}

/**
 * The IDF-weighted share of the query's terms that the top hit holds: Σ idf(t)·[t in top hit] / Σ idf(t), with
 * bm25's idf over `rowCount` rows. A term absent from the index carries the highest idf and is never held, so a
 * question about words the knowledge base does not use scores low; a rare term weighs more than a common one.
 * 0 with no terms or no top hit.
 */
export function answerConfidence(terms: readonly TermEvidence[], rowCount: number): number {
  if (terms.length === 0 || rowCount <= 0) return 0;
  let held = 0;
  let total = 0;
  for (const term of terms) {
    const idf = bm25Idf(Math.min(term.rowsHolding, rowCount), rowCount);
    total += idf;
    if (term.inTopHit) held += idf;
  }
  if (!(total > 0)) return 0;
  return Math.min(1, Math.max(0, held / total));
}

/** `low_confidence`: the confidence is below the threshold (a threshold of 0 never flags). */
export function isLowConfidence(confidence: number, threshold: number): boolean {
  return confidence < threshold;
}
