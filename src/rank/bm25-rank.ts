// FTS5's bm25() recomputed in memory from postings, for many column-weight sets at once (groove tune): phrase
// hits counted from token instances, then every candidate scored through rank/bm25.ts, phrases summed in
// expression order, so the ranking matches `ORDER BY bm25(table, w…), rowid` exactly; callers still verify that
// against SQLite before trusting it.
import {
  bm25Corpus,
  bm25Idf,
  bm25LengthTerm,
  bm25TermScore,
  columnWeights,
  weightedFrequency,
} from './bm25.js';
import { TopRows } from './top-k.js';

/** Occurrences of one token: parallel arrays (row, column index, token offset). */
export interface TokenOccurrences {
  rows: ArrayLike<number>;
  columns: ArrayLike<number>;
  offsets: ArrayLike<number>;
}

/** Where a phrase occurs: each row once, with its hit count per column (`counts[i * columnCount + col]`). */
export interface PhraseHits {
  rows: number[];
  counts: Int32Array;
}

/** A phrase of one or more tokens: an instance is token j at offset o + j in the same row and column. */
export function countPhraseHits(tokens: readonly TokenOccurrences[], columnCount: number): PhraseHits {
  const first = tokens[0];
  if (!first) return { rows: [], counts: new Int32Array(0) };
  const rest = tokens.slice(1).map((t) => {
    const keys = new Set<string>();
    for (let i = 0; i < t.rows.length; i++) keys.add(`${t.rows[i]}:${t.columns[i]}:${t.offsets[i]}`);
    return keys;
  });
  const byRow = new Map<number, Int32Array>();
  for (let i = 0; i < first.rows.length; i++) {
    const row = first.rows[i]!;
    const column = first.columns[i]!;
    if (column < 0 || column >= columnCount) continue;
    const offset = first.offsets[i]!;
    if (!rest.every((keys, j) => keys.has(`${row}:${column}:${offset + j + 1}`))) continue;
    let perColumn = byRow.get(row);
    if (!perColumn) {
      perColumn = new Int32Array(columnCount);
      byRow.set(row, perColumn);
    }
    perColumn[column]!++;
  }
  const rows = [...byRow.keys()];
  const counts = new Int32Array(rows.length * columnCount);
  rows.forEach((row, i) => {
    counts.set(byRow.get(row)!, i * columnCount);
  });
  return { rows, counts };
}

export interface Bm25RankInput {
  /** The rows the MATCH expression selects (only these are ranked). */
  candidates: readonly number[];
  /** Every phrase of the expression, in expression order. */
  phrases: readonly PhraseHits[];
  columnCount: number;
  /** Tokens in a row over all columns. */
  rowLength(row: number): number;
  /** Rows in the table and tokens in the table: FTS5's xRowCount and xColumnTotalSize(-1). */
  rowCount: number;
  tokenTotal: number;
  /**
   * Rows each phrase occurs in, in phrase order, when the corpus bm25 counts is wider than the rows given here
   * (several indexes ranked as one): idf is then computed from these; absent, from each phrase's own rows.
   */
  phraseRowCounts?: readonly number[];
}

/**
 * Rank the candidates under each weight set (weights per column, in column order; a missing one is 1): best
 * bm25 first, ties by rowid ascending, at most `limit` per set.
 */
export function rankByBm25(
  input: Bm25RankInput,
  weightSets: readonly (readonly number[])[],
  limit: number,
): number[][] {
  return rankByBm25Scored(input, weightSets, limit).map((kept) => kept.map((k) => k.row));
}

/** rankByBm25 with each kept row's score (higher is better: FTS5's bm25 negated). */
export function rankByBm25Scored(
  input: Bm25RankInput,
  weightSets: readonly (readonly number[])[],
  limit: number,
): { row: number; score: number }[][] {
  const { candidates, phrases, columnCount } = input;
  const { rowCount, averageLength } = bm25Corpus(input.rowCount, input.tokenTotal);
  const slot = new Map<number, number>();
  candidates.forEach((row, i) => {
    slot.set(row, i);
  });
  // Sparse (candidate, phrase) entries, each candidate's in phrase order so scores sum in FTS5's order.
  const entryCount = new Int32Array(candidates.length + 1);
  for (const phrase of phrases) {
    for (const row of phrase.rows) {
      const c = slot.get(row);
      if (c !== undefined) entryCount[c + 1]!++;
    }
  }
  for (let c = 0; c < candidates.length; c++) entryCount[c + 1]! += entryCount[c]!;
  const start = entryCount;
  const fill = start.slice(0, candidates.length);
  const total = start[candidates.length]!;
  const entryPhrase = new Int32Array(total);
  const entryHits = new Int32Array(total * columnCount);
  phrases.forEach((phrase, p) => {
    phrase.rows.forEach((row, i) => {
      const c = slot.get(row);
      if (c === undefined) return;
      const e = fill[c]!++;
      entryPhrase[e] = p;
      for (let col = 0; col < columnCount; col++) {
        entryHits[e * columnCount + col] = phrase.counts[i * columnCount + col]!;
      }
    });
  });
  const idf = phrases.map((phrase, p) => bm25Idf(input.phraseRowCounts?.[p] ?? phrase.rows.length, rowCount));
  const lengthTerm = candidates.map((row) => bm25LengthTerm(input.rowLength(row), averageLength));

  const top = new TopRows(limit);
  return weightSets.map((weights) => {
    const w = columnWeights(Array.from({ length: columnCount }, (_, col) => weights[col] ?? 1));
    top.clear();
    for (let c = 0; c < candidates.length; c++) {
      let score = 0;
      for (let e = start[c]!; e < start[c + 1]!; e++) {
        const freq = weightedFrequency(entryHits, e * columnCount, w);
        if (freq === 0) continue;
        score += bm25TermScore(idf[entryPhrase[e]!]!, freq, lengthTerm[c]!);
      }
      top.offer(score, candidates[c]!);
    }
    return top.sorted();
  });
}

/** The statistics bm25 divides by: FTS5's row and token totals, and the live rows holding each phrase. */
export interface CorpusStats {
  rowCount: number;
  tokenTotal: number;
  /** Per phrase, in the query's phrase order. */
  phraseRows: number[];
}

/** The statistics of several indexes ranked as one: their sums. */
export function sumCorpusStats(parts: readonly CorpusStats[]): CorpusStats {
  const phraseCount = Math.max(0, ...parts.map((p) => p.phraseRows.length));
  return {
    rowCount: parts.reduce((sum, p) => sum + p.rowCount, 0),
    tokenTotal: parts.reduce((sum, p) => sum + p.tokenTotal, 0),
    phraseRows: Array.from({ length: phraseCount }, (_, i) =>
      parts.reduce((sum, p) => sum + (p.phraseRows[i] ?? 0), 0),
    ),
  };
}
