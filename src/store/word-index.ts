// The word-level lexical leg in memory: postings built from the per-chunk token counts (word-counts.ts) with each
// posting's bm25 contribution precomputed, so ranking a query is a few typed-array sums instead of FTS5 scoring
// every matching row. The arithmetic is FTS5's bm25 (core/bm25.ts): the same idf clamp, the same column
// weighting, phrase contributions summed in expression order, ties by rowid — the ranking equals
// `ORDER BY bm25(fts_words, w…), rowid` exactly (test/integration/word-index.test.ts checks it against SQLite).
import {
  bm25Corpus,
  bm25Idf,
  bm25LengthTerm,
  bm25TermScore,
  columnWeights,
  weightedFrequency,
} from '../core/bm25.js';
import { TopRows } from '../core/top-k.js';
import type { Bm25Weights } from '../types.js';
import { readFtsTotals } from './fts-postings.js';
import type { SqliteDatabase } from './open-database.js';
import { decodeTermCounts } from './word-counts.js';
import type { WordTokenizer } from './word-tokenizer.js';

export interface WordRankOptions {
  /** Rows wanted, best first. */
  limit: number;
  minQuality: number;
  /** Restrict to chunks of these documents; null = all. */
  documentIds: ReadonlySet<number> | null;
}

export class WordIndex {
  private constructor(
    /** Chunk id per row slot, ascending. */
    private readonly chunkIds: Int32Array,
    private readonly documentIds: Int32Array,
    private readonly quality: Float64Array,
    private readonly termSlots: Map<string, number>,
    /** CSR postings: term slot t owns entries postingStart[t] … postingStart[t + 1] − 1. */
    private readonly postingStart: Int32Array,
    private readonly postingRow: Int32Array,
    private readonly postingScore: Float64Array,
    readonly postingCount: number,
  ) {}

  get rowCount(): number {
    return this.chunkIds.length;
  }

  /**
   * Build the snapshot, or null when some chunk has no stored counts (an index written before schema 3 that
   * `groove index` has not refreshed yet): then the caller ranks through FTS5.
   */
  static load(db: SqliteDatabase, weights: Bm25Weights): WordIndex | null {
    return db.transaction(() => WordIndex.read(db, weights))();
  }

  private static read(db: SqliteDatabase, weights: Bm25Weights): WordIndex | null {
    const chunkCount = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    const counted = db.prepare('SELECT count(*) FROM chunk_word_counts').pluck().get() as number;
    if (counted !== chunkCount) return null;
    const terms = db.prepare('SELECT id, term FROM word_terms').raw().all() as [number, string][];
    const termSlotById = new Map<number, number>();
    const termSlots = new Map<string, number>();
    terms.forEach(([id, term], slot) => {
      termSlotById.set(id, slot);
      termSlots.set(term, slot);
    });
    const chunkIds = new Int32Array(chunkCount);
    const documentIds = new Int32Array(chunkCount);
    const quality = new Float64Array(chunkCount);
    const rowLength = new Float64Array(chunkCount);
    // Pass 1: decode every blob once into flat arrays (term slot, row slot, weighted frequency).
    let entryTerm = new Int32Array(1 << 16);
    let entryRow = new Int32Array(1 << 16);
    let entryFrequency = new Float64Array(1 << 16);
    let entries = 0;
    const w = columnWeights([weights.heading, weights.context, weights.content]);
    const counts = new Int32Array(3);
    const rows = db
      .prepare(`SELECT c.id, c.document_id, c.quality_score, w.counts FROM chunks c
        JOIN chunk_word_counts w ON w.chunk_id = c.id ORDER BY c.id`)
      .raw()
      .iterate() as IterableIterator<[number, number, number, Uint8Array]>;
    let row = 0;
    for (const [id, documentId, score, blob] of rows) {
      if (row >= chunkCount) break;
      chunkIds[row] = id;
      documentIds[row] = documentId;
      quality[row] = score;
      let length = 0;
      decodeTermCounts(blob, (termId, heading, context, content) => {
        length += heading + context + content;
        const slot = termSlotById.get(termId);
        if (slot === undefined) return;
        if (entries === entryTerm.length) {
          entryTerm = grow(entryTerm);
          entryRow = grow(entryRow);
          entryFrequency = grow(entryFrequency);
        }
        counts[0] = heading;
        counts[1] = context;
        counts[2] = content;
        entryTerm[entries] = slot;
        entryRow[entries] = row;
        entryFrequency[entries] = weightedFrequency(counts, 0, w);
        entries++;
      });
      rowLength[row] = length;
      row++;
    }
    // Pass 2: counting sort by term into CSR, computing each posting's contribution as FTS5 would.
    const postingStart = new Int32Array(terms.length + 1);
    for (let e = 0; e < entries; e++) postingStart[entryTerm[e]! + 1]!++;
    for (let t = 0; t < terms.length; t++) postingStart[t + 1]! += postingStart[t]!;
    const fill = postingStart.slice(0, terms.length);
    const postingRow = new Int32Array(entries);
    const postingScore = new Float64Array(entries);
    // FTS5's own totals, not the live rows': they still count deleted rows (see readFtsTotals).
    const totals = readFtsTotals(db, 'fts_words');
    // Fewer FTS rows than chunks: the table lost rows (or was emptied) and no longer is what the counts mirror.
    if (totals.rowCount < row) return null;
    const { rowCount, averageLength } = bm25Corpus(totals.rowCount, totals.tokenTotal);
    const idf = new Float64Array(terms.length);
    for (let t = 0; t < terms.length; t++)
      idf[t] = bm25Idf(postingStart[t + 1]! - postingStart[t]!, rowCount);
    for (let e = 0; e < entries; e++) {
      const t = entryTerm[e]!;
      const r = entryRow[e]!;
      const at = fill[t]!++;
      postingRow[at] = r;
      postingScore[at] = bm25TermScore(
        idf[t]!,
        entryFrequency[e]!,
        bm25LengthTerm(rowLength[r]!, averageLength),
      );
    }
    return new WordIndex(
      chunkIds.subarray(0, row),
      documentIds.subarray(0, row),
      quality.subarray(0, row),
      termSlots,
      postingStart,
      postingRow,
      postingScore,
      entries,
    );
  }

  /**
   * Rank query terms (words as the query compiler gives them): tokenized as fts_words does, or null when a term
   * is a phrase under the tokenizer — only FTS5 can match phrases.
   */
  rankTerms(tokenizer: WordTokenizer, terms: readonly string[], options: WordRankOptions): number[] | null {
    const tokens = tokenizer.tokenize(terms);
    if (tokens.some((t) => t.length > 1)) return null;
    return this.rank(tokens.flat(), options);
  }

  /**
   * Chunk ids matching any of `tokens` (each one token of the table's tokenizer, in expression order), best bm25
   * first, ties by chunk id; filtered rows never take a slot.
   */
  rank(tokens: readonly string[], options: WordRankOptions): number[] {
    const scores = new Float64Array(this.chunkIds.length);
    const seen = new Uint8Array(this.chunkIds.length);
    const touched: number[] = [];
    for (const token of tokens) {
      const t = this.termSlots.get(token);
      if (t === undefined) continue;
      for (let e = this.postingStart[t]!; e < this.postingStart[t + 1]!; e++) {
        const r = this.postingRow[e]!;
        if (seen[r] === 0) {
          seen[r] = 1;
          touched.push(r);
        }
        scores[r]! += this.postingScore[e]!;
      }
    }
    // Row slots ascend with chunk ids, so ties by slot are ties by chunk id.
    const top = new TopRows(options.limit);
    for (const r of touched) {
      if (this.quality[r]! < options.minQuality) continue;
      if (options.documentIds && !options.documentIds.has(this.documentIds[r]!)) continue;
      top.offer(scores[r]!, r);
    }
    return top.sorted().map((kept) => this.chunkIds[kept.row]!);
  }
}

function grow<T extends Int32Array | Float64Array>(array: T): T {
  const bigger = new (array.constructor as new (n: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}
