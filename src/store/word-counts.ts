// Per-chunk token counts of the word-level table, written next to its FTS rows: which tokens (as the table's own
// tokenizer produces them, porter stems included) occur how often in each column. They let a long-lived search
// session rank word matches in memory (word-index.ts) with exactly FTS5's bm25, without FTS5's per-row cost.
import type { SqliteDatabase } from './open-database.js';
import { WordTokenizer } from './word-tokenizer.js';

/** Token counts of one chunk: parallel arrays sorted by term id; counts per column (heading, context, content). */
export interface ChunkTermCounts {
  termIds: number[];
  counts: [number, number, number][];
}

export interface WordColumns {
  heading: string;
  context: string;
  content: string;
}

/** Writes `value` as a little-endian base-128 varint at `at`; returns the position after it. */
function putVarint(out: Uint8Array, at: number, value: number): number {
  let v = value;
  let next = at;
  while (v >= 0x80) {
    out[next++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[next++] = v;
  return next;
}

/** Bytes a varint of a JS safe integer can take (7 bits each). */
const MAX_VARINT_BYTES = 8;

/** Little-endian base-128 varints: entry count, then per entry the term-id delta and three column counts. */
export function encodeTermCounts(entries: ChunkTermCounts): Uint8Array {
  const out = new Uint8Array(MAX_VARINT_BYTES * (1 + 4 * entries.termIds.length));
  let at = putVarint(out, 0, entries.termIds.length);
  let previous = 0;
  entries.termIds.forEach((termId, i) => {
    at = putVarint(out, at, termId - previous);
    previous = termId;
    const [h, c, b] = entries.counts[i]!;
    at = putVarint(out, at, h);
    at = putVarint(out, at, c);
    at = putVarint(out, at, b);
  });
  return out.slice(0, at);
}

/** Calls `visit(termId, heading, context, content)` for each entry of an encoded blob, in term-id order. */
export function decodeTermCounts(
  blob: Uint8Array,
  visit: (termId: number, heading: number, context: number, content: number) => void,
): void {
  let at = 0;
  const next = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = blob[at++];
      if (byte === undefined) throw new Error('truncated word-count blob');
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  const count = next();
  let termId = 0;
  for (let i = 0; i < count; i++) {
    termId += next();
    const heading = next();
    const context = next();
    visit(termId, heading, context, next());
  }
}

function growUint32(array: Uint32Array): Uint32Array {
  const bigger = new Uint32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Whitespace-separated pieces whose tokens are remembered; the cache is dropped when it grows past this. */
const PIECE_CACHE_LIMIT = 200_000;
const COLUMNS = ['heading', 'context', 'content'] as const;

/**
 * Tokenizes chunks with the word table's own tokenizer and stores their counts. Whitespace always separates
 * tokens under unicode61, so a text's tokens are its whitespace pieces' tokens in order: each distinct piece is
 * tokenized once and remembered. Tokenizing happens on a private connection (WordTokenizer.forWordTable), so it
 * opens no savepoint in the index's write transaction.
 */
export class WordCountWriter {
  private readonly statements;
  private readonly tokenizer: WordTokenizer;
  private termIds = new Map<string, number>();
  /** The newest term this writer knows, with its id: gone from the table means a rollback undid some inserts. */
  private newest: { term: string; id: number } | null = null;
  private nextId = 1;
  /** Term ids of each whitespace piece seen so far (dropped with the term cache after a rollback). */
  private readonly pieceTerms = new Map<string, number[]>();
  /** Per-term column counts of the chunk being counted, indexed by term id × 3; reset through `touched`. */
  private counts = new Int32Array(3 * 1024);
  /** The distinct term ids of the chunk being counted (a reused buffer), and the buffer its blob is encoded in. */
  private touched: Uint32Array = new Uint32Array(1024);
  private encoded = new Uint8Array(8 * 1024);

  constructor(db: SqliteDatabase) {
    this.tokenizer = WordTokenizer.forWordTable(db);
    this.statements = {
      allTerms: db.prepare('SELECT term, id FROM word_terms').raw(),
      idOfTerm: db.prepare('SELECT id FROM word_terms WHERE term = ?').pluck(),
      insertTerm: db.prepare('INSERT INTO word_terms(term, id) VALUES (?, ?)'),
      // A plain INSERT: OR REPLACE opens a statement journal, whose savepoint makes FTS5 flush its pending terms
      // into a new segment on every row.
      insertCounts: db.prepare('INSERT INTO chunk_word_counts(chunk_id, counts) VALUES (?, ?)'),
    };
  }

  /**
   * Tokenize and store the counts of these chunks, in the caller's transaction. The columns are
   * `segmentForIndex` output: words joined by single spaces.
   */
  write(chunks: readonly { id: number; words: WordColumns }[]): void {
    if (chunks.length === 0) return;
    this.syncTermCache();
    // Every piece in order (chunk → column → piece) resolved to its term ids; unseen pieces wait for one pass.
    const terms: (number[] | null)[] = [];
    const columnEnds: number[] = [];
    const unseen = new Map<string, number[]>();
    for (const chunk of chunks) {
      for (const column of COLUMNS) {
        // One native split per column: much cheaper than slicing piece by piece (runs of spaces give '').
        for (const piece of chunk.words[column].split(' ')) {
          if (piece === '') continue;
          const known = this.pieceTerms.get(piece);
          if (known) terms.push(known);
          else {
            const waiting = unseen.get(piece);
            if (waiting) waiting.push(terms.length);
            else unseen.set(piece, [terms.length]);
            terms.push(null);
          }
        }
        columnEnds.push(terms.length);
      }
    }
    if (unseen.size > 0) this.learnPieces(unseen, terms);
    let from = 0;
    chunks.forEach((chunk, i) => {
      this.statements.insertCounts.run(chunk.id, this.encodeChunk(terms, from, columnEnds, i * 3));
      from = columnEnds[i * 3 + 2]!;
    });
  }

  /**
   * Count one chunk's term ids per column (`terms[from…ends[at + c])` is column c) and encode them as
   * `encodeTermCounts` does, straight from the count table: this runs once per chunk of every indexed file.
   */
  private encodeChunk(
    terms: readonly (number[] | null)[],
    from: number,
    ends: readonly number[],
    at: number,
  ): Uint8Array {
    let touched = 0;
    let position = from;
    for (let column = 0; column < 3; column++) {
      const end = ends[at + column]!;
      for (; position < end; position++) {
        const ids = terms[position]!;
        for (let k = 0; k < ids.length; k++) {
          const termId = ids[k]!;
          const slot = termId * 3;
          if (slot + 3 > this.counts.length) this.growCounts(slot + 3);
          if (this.counts[slot]! + this.counts[slot + 1]! + this.counts[slot + 2]! === 0) {
            if (touched === this.touched.length) this.touched = growUint32(this.touched);
            this.touched[touched++] = termId;
          }
          this.counts[slot + column]!++;
        }
      }
    }
    const ids = this.touched.subarray(0, touched).sort();
    const needed = MAX_VARINT_BYTES * (1 + 4 * touched);
    if (this.encoded.length < needed)
      this.encoded = new Uint8Array(Math.max(needed, this.encoded.length * 2));
    const out = this.encoded;
    let next = putVarint(out, 0, touched);
    let previous = 0;
    for (const termId of ids) {
      const slot = termId * 3;
      next = putVarint(out, next, termId - previous);
      previous = termId;
      next = putVarint(out, next, this.counts[slot]!);
      next = putVarint(out, next, this.counts[slot + 1]!);
      next = putVarint(out, next, this.counts[slot + 2]!);
      this.counts[slot] = 0;
      this.counts[slot + 1] = 0;
      this.counts[slot + 2] = 0;
    }
    return out.slice(0, next);
  }

  private growCounts(minimum: number): void {
    const bigger = new Int32Array(Math.max(minimum, this.counts.length * 2));
    bigger.set(this.counts);
    this.counts = bigger;
  }

  /** Tokenize the unseen pieces in one pass, remember them, and fill in the positions waiting for them. */
  private learnPieces(unseen: Map<string, number[]>, terms: (number[] | null)[]): void {
    if (this.pieceTerms.size + unseen.size > PIECE_CACHE_LIMIT) this.pieceTerms.clear();
    const pieces = [...unseen.keys()];
    const tokens = this.tokenizer.tokenize(pieces);
    pieces.forEach((piece, i) => {
      const ids = tokens[i]!.map((token) => this.termId(token));
      this.pieceTerms.set(piece, ids);
      for (const position of unseen.get(piece)!) terms[position] = ids;
    });
  }

  /** Reload the term cache unless its newest term is still stored with its id (terms are only ever added). */
  close(): void {
    this.tokenizer.close();
  }

  private syncTermCache(): void {
    const { newest } = this;
    if (newest && this.statements.idOfTerm.get(newest.term) === newest.id) return;
    const rows = this.statements.allTerms.all() as [string, number][];
    this.termIds = new Map(rows);
    this.pieceTerms.clear();
    this.newest = null;
    this.nextId = 1;
    for (const [term, id] of rows) {
      if (id >= this.nextId) {
        this.nextId = id + 1;
        this.newest = { term, id };
      }
    }
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.nextId++;
      this.statements.insertTerm.run(term, id);
      this.termIds.set(term, id);
      this.newest = { term, id };
    }
    return id;
  }
}
