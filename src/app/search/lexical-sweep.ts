// The lexical leg of one query under all 64 bm25 weight sets. When the word-level table alone fills the pool,
// the leg is exactly "top pool by bm25 over fts_words", which is recomputed in memory from the postings (one
// read instead of 64 ranked FTS queries) and accepted only if it reproduces SQLite's
// ranking at the default weights. Otherwise — fills from trigram or substring hits, or any mismatch — the leg
// runs through SQL once per weight set, exactly as the searcher runs it.

import { WEIGHT_SET_COUNT, weightSetValues } from '../../measure/tune-grid.js';
import { countPhraseHits, type PhraseHits, rankByBm25 } from '../../rank/bm25-rank.js';
import type { SearchReader } from '../../store/chunk-search.js';
import type { FtsPostingsReader } from '../../store/fts-postings.js';
import { type CompiledLegQuery, runLexicalLeg } from './candidate-legs.js';

export interface LexicalSweepResult {
  /** Lexical candidate ids per weight set (index = weight set). */
  lists: number[][];
  /** How the lists were computed. */
  path: 'memory' | 'sql';
}

/** Postings shared by every query of one run: stop words recur in most queries and are read only once. */
export interface PostingsCache {
  postings: FtsPostingsReader;
  /** Live-row phrase hits by the phrase's tokens joined with a space. */
  phrases: Map<string, PhraseHits>;
}

export function createPostingsCache(postings: FtsPostingsReader): PostingsCache {
  return { postings, phrases: new Map() };
}

export interface LexicalSweepOptions {
  reader: SearchReader;
  /** Null when the index cannot be read this way; the SQL path is then always used. */
  postings: PostingsCache | null;
  compiled: Extract<CompiledLegQuery, { kind: 'query' }>;
  candidatePool: number;
  /** The SQL lexical leg at the default weights (from the pre-flight) and the weight set it used. */
  defaultIds: number[];
  defaultWeightSet: number;
}

export function sweepLexicalLeg(options: LexicalSweepOptions): LexicalSweepResult {
  const memory = options.postings ? rankInMemory(options, options.postings) : null;
  if (memory) return { lists: memory, path: 'memory' };
  const lists: number[][] = [];
  for (let w = 0; w < WEIGHT_SET_COUNT; w++) {
    lists.push(
      w === options.defaultWeightSet
        ? options.defaultIds
        : runLexicalLeg(options.reader, options.compiled, {
            weights: weightSetValues(w),
            pool: options.candidatePool,
            minQuality: 0,
            documentIds: null,
          }).ids,
    );
  }
  return { lists, path: 'sql' };
}

/** The 64 lists from postings, or null when the in-memory ranking does not apply or does not verify. */
function rankInMemory(options: LexicalSweepOptions, cache: PostingsCache): number[][] | null {
  const { compiled, candidatePool } = options;
  const { postings } = cache;
  const expression = compiled.words.expression;
  // Fewer word matches than the pool means trigram/substring fills, which only SQL reproduces.
  if (!expression || options.defaultIds.length < candidatePool) return null;
  try {
    const candidates = postings.matchRowIds(expression);
    if (candidates.length < candidatePool) return null;
    // The expression's phrases in order: the positive terms, then the excluded ones, which score 0 on every
    // matching row and so are left out.
    const tokens = postings.tokenize(compiled.words.terms);
    if (tokens.some((phrase) => phrase.length === 0)) return null;
    const { lengths, rowCount, tokenTotal } = postings.readRowLengths();
    const phrases = tokens.map((phrase) => phraseHitsOf(cache, phrase, lengths));
    const weightSets = Array.from({ length: WEIGHT_SET_COUNT }, (_, w) => {
      const v = weightSetValues(w);
      const byName: Record<string, number> = { heading: v.heading, context: v.context, content: v.content };
      return postings.columns.map((name) => byName[name] ?? 1);
    });
    const lists = rankByBm25(
      {
        candidates,
        phrases,
        columnCount: postings.columns.length,
        rowLength: (row) => lengths.get(row) ?? 0,
        rowCount,
        tokenTotal,
      },
      weightSets,
      candidatePool,
    );
    const check = lists[options.defaultWeightSet]!;
    const verified =
      check.length === options.defaultIds.length && check.every((id, i) => id === options.defaultIds[i]);
    return verified ? lists : null;
  } catch {
    return null;
  }
}

/** Hits of one phrase over live rows (a deleted row's postings can linger in a contentless table until a merge). */
function phraseHitsOf(
  cache: PostingsCache,
  tokens: string[],
  lengths: ReadonlyMap<number, number>,
): PhraseHits {
  const key = tokens.join(' ');
  const cached = cache.phrases.get(key);
  if (cached) return cached;
  const columnCount = cache.postings.columns.length;
  const all = countPhraseHits(
    tokens.map((token) => cache.postings.readInstances(token)),
    columnCount,
  );
  const keep = all.rows.flatMap((row, i) => (lengths.has(row) ? [i] : []));
  let hits = all;
  if (keep.length < all.rows.length) {
    const counts = new Int32Array(keep.length * columnCount);
    keep.forEach((i, j) => {
      counts.set(all.counts.subarray(i * columnCount, (i + 1) * columnCount), j * columnCount);
    });
    hits = { rows: keep.map((i) => all.rows[i]!), counts };
  }
  cache.phrases.set(key, hits);
  return hits;
}
