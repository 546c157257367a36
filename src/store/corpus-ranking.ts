// bm25 over several indexes as if they were one: each index states its share of the statistics bm25 divides by
// (rows, tokens, rows holding each phrase), the caller adds them up, and each index then scores its own matches
// with the sums. The arithmetic is FTS5's (rank/bm25-rank.ts), so one index ranked with its own statistics gets
// `ORDER BY bm25(table, w…), rowid` exactly, and several ranked with their sums get what one index holding all
// their rows would. Postings come from the table's fts5vocab 'instance' view (fts-postings.ts).
import { type CorpusStats, countPhraseHits, type PhraseHits, rankByBm25Scored } from '../rank/bm25-rank.js';
import { quoteFtsPhrase } from '../rank/fts-query.js';
import type { Bm25Weights } from '../types.js';
import { createFtsPostingsReader, docsizeColumns, readFtsTotals } from './fts-postings.js';
import type { SqliteDatabase } from './open-database.js';
import type { WordIndex } from './word-index.js';
import type { WordTokenizer } from './word-tokenizer.js';

export type { CorpusStats } from '../rank/bm25-rank.js';

export interface CorpusQuery {
  table: 'fts_words' | 'fts_chunks';
  /** The MATCH expression (it decides which rows match, exclusions included). */
  expression: string;
  /** The expression's positive phrases as written, in expression order (what bm25 sums over). */
  phrases: readonly string[];
}

export interface CorpusRankOptions {
  weights: Bm25Weights;
  limit: number;
  minQuality: number;
  /** Restrict to chunks of these documents; null = all. */
  documentIds: readonly number[] | null;
}

/** One index's matches for a query, read once, ready to be scored under any corpus statistics. */
export interface PreparedCorpusRanking {
  /** This index's share of the statistics. */
  stats: CorpusStats;
  /** This index's best matches under `corpus` (the sums over every index ranked together): score desc, id asc. */
  rank(corpus: CorpusStats, options: CorpusRankOptions): { id: number; score: number }[];
}

/** Exact-match ranking per column name: bm25 takes weights in the table's declared column order. */
function weightsInOrder(columns: readonly string[], weights: Bm25Weights): number[] {
  const byName: Record<string, number> = {
    heading: weights.heading,
    context: weights.context,
    content: weights.content,
  };
  return columns.map((name) => byName[name] ?? 1);
}

/** Tokens per row over all columns for `rows`; a row without a size record is deleted (not live). */
function readRowLengths(
  db: SqliteDatabase,
  table: CorpusQuery['table'],
  rows: readonly number[],
  columnCount: number,
): Map<number, number> {
  const lengths = new Map<number, number>();
  if (rows.length === 0) return lengths;
  const sizes = db
    .prepare(`SELECT id, sz FROM ${table}_docsize WHERE id IN (SELECT value FROM json_each(?))`)
    .raw()
    .iterate(JSON.stringify(rows)) as IterableIterator<[number, Uint8Array]>;
  for (const [id, sz] of sizes) {
    lengths.set(
      id,
      docsizeColumns(sz, columnCount).reduce((sum, n) => sum + n, 0),
    );
  }
  return lengths;
}

/** A phrase's hits on live rows only (a deleted row's postings can linger in a contentless table). */
function liveHits(hits: PhraseHits, lengths: ReadonlyMap<number, number>, columnCount: number): PhraseHits {
  const keep = hits.rows.flatMap((row, i) => (lengths.has(row) ? [i] : []));
  if (keep.length === hits.rows.length) return hits;
  const counts = new Int32Array(keep.length * columnCount);
  keep.forEach((i, j) => {
    counts.set(hits.counts.subarray(i * columnCount, (i + 1) * columnCount), j * columnCount);
  });
  return { rows: keep.map((i) => hits.rows[i]!), counts };
}

/** The candidates that pass the quality floor and the document filter (all of them when neither is set). */
function allowedRows(db: SqliteDatabase, rows: readonly number[], options: CorpusRankOptions): number[] {
  if (options.minQuality <= 0 && options.documentIds === null) return [...rows];
  if (rows.length === 0) return [];
  const documentClause =
    options.documentIds === null ? '' : 'AND document_id IN (SELECT value FROM json_each(@documentIds))';
  return db
    .prepare(`SELECT id FROM chunks WHERE id IN (SELECT value FROM json_each(@ids))
      AND quality_score >= @minQuality ${documentClause}`)
    .pluck()
    .all({
      ids: JSON.stringify(rows),
      minQuality: options.minQuality,
      documentIds: JSON.stringify(options.documentIds ?? []),
    }) as number[];
}

/** Read one index's matches and postings for `query` (one pass), to be ranked under the combined statistics. */
export function prepareCorpusRanking(db: SqliteDatabase, query: CorpusQuery): PreparedCorpusRanking {
  const postings = createFtsPostingsReader(db, query.table);
  const columnCount = postings.columns.length;
  const candidates = postings.matchRowIds(query.expression);
  const hits = postings.tokenize(query.phrases).map((tokens) =>
    countPhraseHits(
      tokens.map((token) => postings.readInstances(token)),
      columnCount,
    ),
  );
  const lengths = readRowLengths(
    db,
    query.table,
    [...new Set([...candidates, ...hits.flatMap((h) => h.rows)])],
    columnCount,
  );
  const phrases = hits.map((h) => liveHits(h, lengths, columnCount));
  const totals = readFtsTotals(db, query.table);
  const stats = { ...totals, phraseRows: phrases.map((p) => p.rows.length) };
  return {
    stats,
    rank(corpus, options) {
      const input = {
        candidates: allowedRows(db, candidates, options),
        phrases,
        columnCount,
        rowLength: (row: number) => lengths.get(row) ?? 0,
        rowCount: corpus.rowCount,
        tokenTotal: corpus.tokenTotal,
        phraseRowCounts: corpus.phraseRows,
      };
      const [ranked] = rankByBm25Scored(
        input,
        [weightsInOrder(postings.columns, options.weights)],
        options.limit,
      );
      return (ranked ?? []).map((kept) => ({ id: kept.row, score: kept.score }));
    },
  };
}

/**
 * The word-level ranking of `query` from a long-lived session's word snapshot (word-index.ts), which ranks as
 * FTS5 does without reading postings; null when only the postings can answer: another table, an expression with
 * exclusions (anything but the OR of its phrases), or a phrase of several tokens.
 */
export function prepareSnapshotRanking(
  index: WordIndex,
  tokenizer: WordTokenizer,
  query: CorpusQuery,
): PreparedCorpusRanking | null {
  if (query.table !== 'fts_words') return null;
  if (query.expression !== query.phrases.map(quoteFtsPhrase).join(' OR ')) return null;
  const tokens = tokenizer.tokenize(query.phrases);
  if (tokens.some((phrase) => phrase.length > 1)) return null;
  const single = tokens.map((phrase) => phrase[0] ?? null);
  return {
    stats: index.shareOf(single),
    rank: (corpus, options) =>
      index.rankScored(
        single,
        {
          limit: options.limit,
          minQuality: options.minQuality,
          documentIds: options.documentIds && new Set(options.documentIds),
        },
        corpus,
      ),
  };
}
