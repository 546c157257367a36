// Per-query facts the `groove tune` report prints: why a query's ranking cannot depend on the bm25 weights,
// whether the weight extremes change its top list, and how many neighbouring fused scores tie.
import type { FtsQuery, WordQuery } from '../rank/fts-query.js';

/** Why a query with fewer than 2 lexical candidates is not effective, in words; null when it is effective. */
export function describeInsensitive(
  compiled: { trigram: FtsQuery; words: WordQuery },
  candidates: number,
): string | null {
  if (candidates >= 2) return null;
  const { words, trigram } = compiled;
  if (!words.expression && !trigram.expression && trigram.shortTerms.length === 0) {
    return 'nothing reaches FTS: the query has no word and no term of 3 or more characters';
  }
  if (candidates === 0) return 'none of its terms occurs in the index, so it is vector-only';
  return 'a single candidate has a fixed rank whatever the weights';
}

/** True when two ranked id lists differ in length or at any rank. */
export function rankingsDiffer(a: readonly number[], b: readonly number[]): boolean {
  return a.length !== b.length || a.some((id, i) => id !== b[i]);
}

/** Adjacent scores equal once rounded to float32 (the precision the fused scores are compared at). */
export function countScoreTies(ranked: readonly { score: number }[]): number {
  let ties = 0;
  for (let i = 1; i < ranked.length; i++) {
    if (Math.fround(ranked[i]!.score) === Math.fround(ranked[i - 1]!.score)) ties++;
  }
  return ties;
}
