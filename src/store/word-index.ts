// The word-level lexical leg in memory: postings built from the per-chunk token counts (word-counts.ts) holding
// each posting's column-weighted frequency, so ranking a query is a few typed-array sums instead of FTS5 scoring
// every matching row. The arithmetic is FTS5's bm25 (core/bm25.ts): the same idf clamp, the same column
// weighting, phrase contributions summed in expression order, ties by rowid — the ranking equals
// `ORDER BY bm25(fts_words, w…), rowid` exactly (test/integration/word-index.test.ts checks it against SQLite).
// After a commit the snapshot is refreshed with the changed rows (see word-changes.ts): rows of removed documents
// are marked deleted, new chunks go to a small second set of postings, and idf and the length normalisation are
// computed at query time from the live rows and FTS5's current totals — so a refreshed snapshot ranks exactly as
// a freshly loaded one.
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

/** CSR postings: term slot t owns entries start[t] … start[t + 1] − 1 (slots past the end own none). */
interface Postings {
  start: Int32Array;
  row: Int32Array;
  frequency: Float64Array;
}

/** Per-row facts; row slots ascend with chunk ids. */
interface Rows {
  chunkIds: Int32Array;
  documentIds: Int32Array;
  quality: Float64Array;
  length: Float64Array;
}

/** Chunk rows as the refresh reads them: id, document, quality score, counts blob. */
export type CountedChunk = [number, number, number, Uint8Array];

/** What changed since the snapshot: the rows to add (ids past its last) and the documents still there. */
export interface WordChanges {
  /** Every document the index holds now: rows of any other are gone. */
  presentDocuments: ReadonlySet<number>;
  added: readonly CountedChunk[];
  /** Terms written since (id, term), in any order. */
  newTerms: readonly [number, string][];
}

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
    /** FTS5's row count and average row length, as bm25 sees them. */
    private readonly corpus: { rowCount: number; averageLength: number },
    private readonly weights: Bm25Weights,
  ) {}

  get rowCount(): number {
    return this.rows.chunkIds.length - this.deadCount;
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
    return db.transaction(() => WordIndex.read(db, weights))();
  }

  private static read(db: SqliteDatabase, weights: Bm25Weights): WordIndex | null {
    const chunkCount = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    const counted = db.prepare('SELECT count(*) FROM chunk_word_counts').pluck().get() as number;
    if (counted !== chunkCount) return null;
    const termRows = db.prepare('SELECT id, term FROM word_terms').raw().all() as [number, string][];
    const terms = { slots: new Map<string, number>(), slotById: new Map<number, number>() };
    addTerms(terms, termRows);
    const chunks = db
      .prepare(`SELECT c.id, c.document_id, c.quality_score, w.counts FROM chunks c
        JOIN chunk_word_counts w ON w.chunk_id = c.id ORDER BY c.id`)
      .raw()
      .iterate() as IterableIterator<CountedChunk>;
    const rows = emptyRows(chunkCount);
    const entries = decodeRows(chunks, { rows, firstRow: 0, limit: chunkCount, terms, weights });
    const corpus = readCorpus(db, entries.rows);
    if (!corpus) return null;
    return new WordIndex(
      sliceRows(rows, entries.rows),
      terms,
      entries.postings(terms.slots.size),
      { start: new Int32Array(1), row: new Int32Array(0), frequency: new Float64Array(0) },
      entries.rows,
      null,
      0,
      corpus,
      weights,
    );
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
    const size = this.rows.chunkIds.length;
    const scores = new Float64Array(size);
    const seen = new Uint8Array(size);
    const touched: number[] = [];
    const { rowCount, averageLength } = this.corpus;
    const length = this.rows.length;
    for (const token of tokens) {
      const t = this.terms.slots.get(token);
      if (t === undefined) continue;
      // A row is in one of the two posting sets, so its contributions still add up in expression order.
      const idf = bm25Idf(this.liveHits(this.base, t) + this.liveHits(this.added, t), rowCount);
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
    return top.sorted().map((kept) => this.rows.chunkIds[kept.row]!);
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

function range(postings: Postings, t: number): [number, number] {
  if (t + 1 >= postings.start.length) return [0, 0];
  return [postings.start[t]!, postings.start[t + 1]!];
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
function readCorpus(
  db: SqliteDatabase,
  liveRows: number,
): { rowCount: number; averageLength: number } | null {
  const totals = readFtsTotals(db, 'fts_words');
  if (totals.rowCount < liveRows) return null;
  return bm25Corpus(totals.rowCount, totals.tokenTotal);
}

function emptyRows(size: number): Rows {
  return {
    chunkIds: new Int32Array(size),
    documentIds: new Int32Array(size),
    quality: new Float64Array(size),
    length: new Float64Array(size),
  };
}

function copyRows(from: Rows, to: Rows): void {
  to.chunkIds.set(from.chunkIds);
  to.documentIds.set(from.documentIds);
  to.quality.set(from.quality);
  to.length.set(from.length);
}

function sliceRows(rows: Rows, size: number): Rows {
  return {
    chunkIds: rows.chunkIds.subarray(0, size),
    documentIds: rows.documentIds.subarray(0, size),
    quality: rows.quality.subarray(0, size),
    length: rows.length.subarray(0, size),
  };
}

/**
 * Decode counts blobs into `rows` from `firstRow` (at most `limit`), collecting one entry (term slot, row,
 * weighted frequency) per term and row; `postings(slots)` sorts them by term into CSR over `slots` term slots.
 */
function decodeRows(
  chunks: Iterator<CountedChunk>,
  into: {
    rows: Rows;
    firstRow: number;
    limit: number;
    terms: { slotById: Map<number, number> };
    weights: Bm25Weights;
  },
): { rows: number; postings: (slots: number) => Postings } {
  const { rows, terms } = into;
  let entryTerm = new Int32Array(1 << 10);
  let entryRow = new Int32Array(1 << 10);
  let entryFrequency = new Float64Array(1 << 10);
  let entries = 0;
  const w = columnWeights([into.weights.heading, into.weights.context, into.weights.content]);
  const counts = new Int32Array(3);
  let row = into.firstRow;
  const end = into.firstRow + into.limit;
  for (let next = chunks.next(); !next.done && row < end; next = chunks.next()) {
    const [id, documentId, score, blob] = next.value;
    rows.chunkIds[row] = id;
    rows.documentIds[row] = documentId;
    rows.quality[row] = score;
    let length = 0;
    decodeTermCounts(blob, (termId, heading, context, content) => {
      length += heading + context + content;
      const slot = terms.slotById.get(termId);
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
    rows.length[row] = length;
    row++;
  }
  return {
    rows: row - into.firstRow,
    postings: (slots) => toPostings(entryTerm, entryRow, entryFrequency, entries, slots),
  };
}

/** Counting sort by term slot into CSR; entries of one slot keep their order (rows ascending). */
function toPostings(
  term: Int32Array,
  row: Int32Array,
  frequency: Float64Array,
  entries: number,
  slots: number,
): Postings {
  const start = new Int32Array(slots + 1);
  for (let e = 0; e < entries; e++) start[term[e]! + 1]!++;
  for (let t = 0; t < slots; t++) start[t + 1]! += start[t]!;
  const fill = start.slice(0, slots);
  const sortedRow = new Int32Array(entries);
  const sortedFrequency = new Float64Array(entries);
  for (let e = 0; e < entries; e++) {
    const at = fill[term[e]!]!++;
    sortedRow[at] = row[e]!;
    sortedFrequency[at] = frequency[e]!;
  }
  return { start, row: sortedRow, frequency: sortedFrequency };
}

/** `older` followed, term by term, by `newer` (whose rows all come after older's), over newer's slots. */
function mergePostings(older: Postings, newer: Postings): Postings {
  const slots = newer.start.length - 1;
  const start = new Int32Array(slots + 1);
  for (let t = 0; t < slots; t++) {
    const [from, to] = range(older, t);
    start[t + 1] = start[t]! + (to - from) + (newer.start[t + 1]! - newer.start[t]!);
  }
  const row = new Int32Array(start[slots]!);
  const frequency = new Float64Array(start[slots]!);
  for (let t = 0; t < slots; t++) {
    let at = start[t]!;
    for (const [postings, [from, to]] of [
      [older, range(older, t)],
      [newer, range(newer, t)],
    ] as const) {
      row.set(postings.row.subarray(from, to), at);
      frequency.set(postings.frequency.subarray(from, to), at);
      at += to - from;
    }
  }
  return { start, row, frequency };
}

function grow<T extends Int32Array | Float64Array>(array: T): T {
  const bigger = new (array.constructor as new (n: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}
