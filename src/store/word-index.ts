// The word-level lexical leg in memory: postings built from the per-chunk token counts (word-counts.ts) holding
// each posting's column-weighted frequency, so ranking a query is a few typed-array sums instead of FTS5 scoring
// every matching row. The arithmetic is FTS5's bm25 (rank/bm25.ts): the same idf clamp, the same column
// weighting, phrase contributions summed in expression order, ties by rowid — the ranking equals
// `ORDER BY bm25(fts_words, w…), rowid` exactly (test/integration/word-index.test.ts checks it against SQLite).
// After a commit the snapshot is refreshed with the changed rows (see word-changes.ts): rows of removed documents
// are marked deleted, new chunks go to a small second set of postings, and idf and the length normalisation are
// computed at query time from the live rows and FTS5's current totals — so a refreshed snapshot ranks exactly as
// a freshly loaded one.

import { bm25Corpus, bm25Idf, bm25LengthTerm, bm25TermScore } from '../rank/bm25.js';
import type { CorpusStats } from '../rank/bm25-rank.js';
import { TopRows } from '../rank/top-k.js';
import type { Bm25Weights } from '../types.js';
import { readFtsTotals } from './fts-postings.js';
import type { SqliteDatabase } from './open-database.js';
import {
  type CountedChunk,
  copyRows,
  decodeRows,
  EMPTY_POSTINGS,
  emptyRows,
  fillPostings,
  heldBytes,
  mergePostings,
  type Postings,
  planPostings,
  type Rows,
  range,
  sliceRows,
} from './word-postings.js';
import type { WordTokenizer } from './word-tokenizer.js';

export type { CountedChunk } from './word-postings.js';

export interface WordRankOptions {
  /** Rows wanted, best first. */
  limit: number;
  minQuality: number;
  /** Restrict to chunks of these documents; null = all. */
  documentIds: ReadonlySet<number> | null;
}

/** What changed since the snapshot: the rows to add (ids past its last) and the documents still there. */
export interface WordChanges {
  /** Every document the index holds now: rows of any other are gone. */
  presentDocuments: ReadonlySet<number>;
  added: readonly CountedChunk[];
  /** Terms written since (id, term), in any order. */
  newTerms: readonly [number, string][];
}

/**
 * A whole load: the snapshot, or no snapshot with the bytes it would have needed (over the budget) or with
 * `neededBytes` null (some chunk has no stored counts, or the counts and FTS5's table disagree).
 */
export type WordLoad =
  | { index: WordIndex; neededBytes: number }
  | { index: null; neededBytes: number | null };

/** Added rows beyond this share of the loaded ones (or deleted rows beyond it) make a refresh load whole instead. */
const MAX_CHANGED_SHARE = 0.125;
/** …but never fewer rows than this may be added or deleted before that. */
const MIN_CHANGED_ROWS = 1024;

export class WordIndex {
  private constructor(
    private readonly rows: Rows,
    private readonly terms: { slots: Map<string, number>; slotById: Map<number, number> },
    /** Postings of the rows loaded whole, and of the rows added since (`baseRows` onwards). */
    private readonly base: Postings,
    private readonly added: Postings,
    private readonly baseRows: number,
    /** Rows deleted since the load (1 = gone), or null when none is. */
    private readonly dead: Uint8Array | null,
    private readonly deadCount: number,
    /** FTS5's row and token totals (what bm25 divides by). */
    private readonly totals: { rowCount: number; tokenTotal: number },
    private readonly weights: Bm25Weights,
  ) {}

  get rowCount(): number {
    return this.rows.chunkIds.length - this.deadCount;
  }

  /** Bytes this snapshot holds (its arrays, its terms roughly); what `[search] memory_budget_mb` counts. */
  get memoryBytes(): number {
    const deadBytes = this.dead ? this.dead.byteLength : 0;
    return heldBytes(this.rows, [this.base, this.added], this.terms.slots.size) + deadBytes;
  }

  /** Postings held in memory (those of deleted rows included until the next whole load). */
  get postingCount(): number {
    return this.base.row.length + this.added.row.length;
  }

  /** The highest chunk id in the snapshot (0 when empty): chunks written later have higher ids. */
  get maxChunkId(): number {
    const ids = this.rows.chunkIds;
    return ids.length > 0 ? ids[ids.length - 1]! : 0;
  }

  /** Whether term id `id` has a slot here (a refresh reads the terms written since only when one has none). */
  knowsTerm(id: number): boolean {
    return this.terms.slotById.has(id);
  }

  /**
   * Build the snapshot, or null when some chunk has no stored counts (an index written before schema 3 that
   * `groove index` has not refreshed yet): then the caller ranks through FTS5.
   */
  static load(db: SqliteDatabase, weights: Bm25Weights): WordIndex | null {
    return WordIndex.loadWithin(db, weights, Number.POSITIVE_INFINITY).index;
  }

  /**
   * `load`, unless the snapshot would hold more than `maxBytes`: that is known from a counting pass before
   * anything is allocated, and answered with the bytes it would need.
   */
  static loadWithin(db: SqliteDatabase, weights: Bm25Weights, maxBytes: number): WordLoad {
    return db.transaction(() => WordIndex.read(db, weights, maxBytes))();
  }

  private static read(db: SqliteDatabase, weights: Bm25Weights, maxBytes: number): WordLoad {
    const noCounts = { index: null, neededBytes: null } as const;
    const chunkCount = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    const counted = db.prepare('SELECT count(*) FROM chunk_word_counts').pluck().get() as number;
    if (counted !== chunkCount) return noCounts;
    const termRows = db.prepare('SELECT id, term FROM word_terms').raw().all() as [number, string][];
    const terms = { slots: new Map<string, number>(), slotById: new Map<number, number>() };
    addTerms(terms, termRows);
    const shape = { rows: chunkCount, slotById: terms.slotById, weights };
    const blobs = db
      .prepare('SELECT w.counts FROM chunk_word_counts w JOIN chunks c ON c.id = w.chunk_id')
      .pluck()
      .iterate() as IterableIterator<Uint8Array>;
    const plan = planPostings(blobs, shape);
    if (plan.bytes > maxBytes) return { index: null, neededBytes: plan.bytes };
    const chunks = db
      .prepare(`SELECT c.id, c.document_id, c.quality_score, w.counts FROM chunks c
        JOIN chunk_word_counts w ON w.chunk_id = c.id ORDER BY c.id`)
      .raw()
      .iterate() as IterableIterator<CountedChunk>;
    const filled = fillPostings(chunks, plan, shape);
    const corpus = filled && readCorpus(db, chunkCount);
    if (!filled || !corpus) return noCounts;
    const index = new WordIndex(
      filled.rows,
      terms,
      filled.postings,
      EMPTY_POSTINGS,
      chunkCount,
      null,
      0,
      corpus,
      weights,
    );
    return { index, neededBytes: plan.bytes };
  }

  /**
   * This snapshot after `changes` (read in the same read transaction as `db`'s totals), ranking exactly as a
   * fresh load would; null when a whole load is the better deal (too much changed) or the totals say the
   * table no longer mirrors the counts.
   */
  withChanges(db: SqliteDatabase, changes: WordChanges): WordIndex | null {
    const size = this.rows.chunkIds.length;
    const dead = this.dead ? this.dead.slice() : new Uint8Array(size);
    let deadCount = this.deadCount;
    for (let r = 0; r < size; r++) {
      if (dead[r] === 0 && !changes.presentDocuments.has(this.rows.documentIds[r]!)) {
        dead[r] = 1;
        deadCount++;
      }
    }
    // Added rows must come after every row here (new chunk ids); anything else is not a change this can apply.
    if (changes.added.some(([id]) => id <= this.maxChunkId)) return null;
    const addedRows = size - this.baseRows + changes.added.length;
    const budget = Math.max(MIN_CHANGED_ROWS, MAX_CHANGED_SHARE * this.baseRows);
    if (addedRows > budget || deadCount > budget) return null;
    const terms = { slots: new Map(this.terms.slots), slotById: new Map(this.terms.slotById) };
    addTerms(terms, changes.newTerms);
    const rows = emptyRows(size + changes.added.length);
    copyRows(this.rows, rows);
    const grown = new Uint8Array(size + changes.added.length);
    grown.set(dead);
    const decoded = decodeRows(changes.added.values(), {
      rows,
      firstRow: size,
      limit: changes.added.length,
      terms,
      weights: this.weights,
    });
    const corpus = readCorpus(db, rows.chunkIds.length - deadCount);
    if (!corpus) return null;
    const added = mergePostings(this.added, decoded.postings(terms.slots.size));
    return new WordIndex(
      sliceRows(rows, size + decoded.rows),
      terms,
      this.base,
      added,
      this.baseRows,
      deadCount > 0 ? grown : null,
      deadCount,
      corpus,
      this.weights,
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
    return this.rankScored(tokens, options, null).map((kept) => kept.id);
  }

  /**
   * This snapshot's share of the statistics bm25 divides by for `tokens` (each one token, in expression order):
   * FTS5's totals and the live rows holding each token. Several snapshots' shares add up to one corpus's.
   */
  shareOf(tokens: readonly (string | null)[]): CorpusStats {
    return { ...this.totals, phraseRows: tokens.map((token) => (token === null ? 0 : this.hitsOf(token))) };
  }

  /**
   * `rank` with each row's score (higher is better), under `corpus` (the statistics of several indexes ranked as
   * one, see shareOf) or, when null, this snapshot's own. A null token (a term with no token) matches nothing.
   */
  rankScored(
    tokens: readonly (string | null)[],
    options: WordRankOptions,
    corpus: CorpusStats | null,
  ): { id: number; score: number }[] {
    const size = this.rows.chunkIds.length;
    const scores = new Float64Array(size);
    const seen = new Uint8Array(size);
    const touched: number[] = [];
    const { rowCount, averageLength } = corpus
      ? bm25Corpus(corpus.rowCount, corpus.tokenTotal)
      : bm25Corpus(this.totals.rowCount, this.totals.tokenTotal);
    const length = this.rows.length;
    for (const [i, token] of tokens.entries()) {
      const t = token === null ? undefined : this.terms.slots.get(token);
      if (t === undefined) continue;
      // A row is in one of the two posting sets, so its contributions still add up in expression order.
      const idf = bm25Idf(corpus ? corpus.phraseRows[i]! : this.hitsOf(token!), rowCount);
      for (const postings of [this.base, this.added]) {
        const [from, to] = range(postings, t);
        for (let e = from; e < to; e++) {
          const r = postings.row[e]!;
          if (this.dead !== null && this.dead[r] === 1) continue;
          if (seen[r] === 0) {
            seen[r] = 1;
            touched.push(r);
          }
          scores[r]! += bm25TermScore(idf, postings.frequency[e]!, bm25LengthTerm(length[r]!, averageLength));
        }
      }
    }
    // Row slots ascend with chunk ids, so ties by slot are ties by chunk id.
    const top = new TopRows(options.limit);
    for (const r of touched) {
      if (this.rows.quality[r]! < options.minQuality) continue;
      if (options.documentIds && !options.documentIds.has(this.rows.documentIds[r]!)) continue;
      top.offer(scores[r]!, r);
    }
    return top.sorted().map((kept) => ({ id: this.rows.chunkIds[kept.row]!, score: kept.score }));
  }

  /** Live rows holding `token` (0 for a token the snapshot does not know). */
  private hitsOf(token: string): number {
    const t = this.terms.slots.get(token);
    return t === undefined ? 0 : this.liveHits(this.base, t) + this.liveHits(this.added, t);
  }

  /** Postings of term slot `t` in `postings` whose row is live: the rows bm25 counts as hits. */
  private liveHits(postings: Postings, t: number): number {
    const [from, to] = range(postings, t);
    if (this.dead === null) return to - from;
    let hits = 0;
    for (let e = from; e < to; e++) if (this.dead[postings.row[e]!] === 0) hits++;
    return hits;
  }
}

function addTerms(
  terms: { slots: Map<string, number>; slotById: Map<number, number> },
  rows: readonly [number, string][],
): void {
  for (const [id, term] of rows) {
    if (terms.slotById.has(id)) continue;
    const slot = terms.slots.size;
    terms.slotById.set(id, slot);
    terms.slots.set(term, slot);
  }
}

/** FTS5's own totals, not the live rows': they still count deleted rows (see readFtsTotals); null when the table
 * holds fewer rows than the counts (it lost rows, or was emptied, and no longer is what the counts mirror). */
function readCorpus(db: SqliteDatabase, liveRows: number): { rowCount: number; tokenTotal: number } | null {
  const totals = readFtsTotals(db, 'fts_words');
  return totals.rowCount < liveRows ? null : totals;
}
