// The word snapshot's memory: per-row facts and CSR postings (word-index.ts ranks from them). A whole load reads
// the counts blobs twice — once to count each term's postings, once to write them straight into arrays of the
// final size — so it never holds more than what it keeps, and knows what it will keep before allocating it
// (the `[search] memory_budget_mb` check). The rows added after a commit are few: they are collected and sorted.
import { type ColumnWeights, columnWeights, weightedFrequency } from '../rank/bm25.js';
import type { Bm25Weights } from '../types.js';
import { decodeTermCounts } from './word-counts.js';

/** Chunk rows as the loads read them: id, document, quality score, counts blob. */
export type CountedChunk = [number, number, number, Uint8Array];

/**
 * CSR postings: term slot t owns entries start[t] … start[t + 1] − 1 (slots past the end own none). Weighted
 * frequencies are held in 2 bytes each when every one is an integer up to 65,535 (always so under integral
 * column weights and ordinary chunks), else as doubles: either way the exact value bm25 sums.
 */
export interface Postings {
  start: Int32Array;
  row: Int32Array;
  frequency: Frequencies;
}

type Frequencies = Uint16Array | Float64Array;

/** Per-row facts; row slots ascend with chunk ids. */
export interface Rows {
  chunkIds: Int32Array;
  documentIds: Int32Array;
  quality: Float64Array;
  length: Float64Array;
}

/** The largest weighted frequency the 2-byte form holds. */
const SMALL_FREQUENCY_MAX = 0xffff;
/** Bytes per row of `Rows`. */
const ROW_BYTES = 24;
/** What one term costs in the two lookup maps (keys, entries, the string), roughly. */
const TERM_BYTES = 128;

export const EMPTY_POSTINGS: Postings = {
  start: new Int32Array(1),
  row: new Int32Array(0),
  frequency: new Uint16Array(0),
};

/** Bytes held by `rows` and `postings` arrays (subarrays count their whole buffer). */
export function heldBytes(rows: Rows, postings: readonly Postings[], terms: number): number {
  let bytes = terms * TERM_BYTES;
  for (const array of [rows.chunkIds, rows.documentIds, rows.quality, rows.length])
    bytes += array.buffer.byteLength;
  for (const p of postings) bytes += p.start.byteLength + p.row.byteLength + p.frequency.byteLength;
  return bytes;
}

/** What a whole load will hold, counted before anything is allocated: posting counts per term slot. */
export interface PostingsPlan {
  /** Postings per term slot. */
  perSlot: Int32Array;
  entries: number;
  /** Every weighted frequency fits the 2-byte form. */
  small: boolean;
  bytes: number;
}

/** First pass of a whole load: count each slot's postings in `blobs` (every chunk's counts, in any order). */
export function planPostings(
  blobs: Iterable<Uint8Array>,
  shape: { rows: number; slotById: ReadonlyMap<number, number>; weights: Bm25Weights },
): PostingsPlan {
  const slots = shape.slotById.size;
  const perSlot = new Int32Array(slots);
  const w = weightsOf(shape.weights);
  const counts = new Int32Array(3);
  let entries = 0;
  let small = true;
  for (const blob of blobs) {
    decodeTermCounts(blob, (termId, heading, context, content) => {
      const slot = shape.slotById.get(termId);
      if (slot === undefined) return;
      perSlot[slot]!++;
      entries++;
      if (small) {
        counts[0] = heading;
        counts[1] = context;
        counts[2] = content;
        small = isSmall(weightedFrequency(counts, 0, w));
      }
    });
  }
  const bytes = shape.rows * ROW_BYTES + (slots + 1) * 4 + entries * (small ? 6 : 12) + slots * TERM_BYTES;
  return { perSlot, entries, small, bytes };
}

/**
 * Second pass: decode `chunks` (in chunk-id order, the same rows the plan counted) into rows and postings of
 * exactly the planned size.
 */
export function fillPostings(
  chunks: Iterable<CountedChunk>,
  plan: PostingsPlan,
  shape: { rows: number; slotById: ReadonlyMap<number, number>; weights: Bm25Weights },
): { rows: Rows; postings: Postings } | null {
  const rows = emptyRows(shape.rows);
  const slots = plan.perSlot.length;
  const start = new Int32Array(slots + 1);
  for (let t = 0; t < slots; t++) start[t + 1] = start[t]! + plan.perSlot[t]!;
  const fill = start.slice(0, slots);
  const row = new Int32Array(plan.entries);
  const frequency = frequencyArray(plan.entries, plan.small);
  const w = weightsOf(shape.weights);
  const counts = new Int32Array(3);
  let r = 0;
  for (const [id, documentId, score, blob] of chunks) {
    if (r === shape.rows) return null;
    rows.chunkIds[r] = id;
    rows.documentIds[r] = documentId;
    rows.quality[r] = score;
    let length = 0;
    let fits = true;
    decodeTermCounts(blob, (termId, heading, context, content) => {
      length += heading + context + content;
      const slot = shape.slotById.get(termId);
      if (slot === undefined) return;
      const at = fill[slot]!++;
      if (at >= start[slot + 1]!) {
        fits = false;
        return;
      }
      counts[0] = heading;
      counts[1] = context;
      counts[2] = content;
      row[at] = r;
      frequency[at] = weightedFrequency(counts, 0, w);
    });
    if (!fits) return null;
    rows.length[r] = length;
    r++;
  }
  // The two passes read one transaction's rows: a mismatch is a bug, answered by ranking through FTS5.
  if (r !== shape.rows) return null;
  return { rows, postings: { start, row, frequency } };
}

function weightsOf(weights: Bm25Weights): ColumnWeights {
  return columnWeights([weights.heading, weights.context, weights.content]);
}

function isSmall(frequency: number): boolean {
  return Number.isInteger(frequency) && frequency >= 0 && frequency <= SMALL_FREQUENCY_MAX;
}

export function range(postings: Postings, t: number): [number, number] {
  if (t + 1 >= postings.start.length) return [0, 0];
  return [postings.start[t]!, postings.start[t + 1]!];
}

export function emptyRows(size: number): Rows {
  return {
    chunkIds: new Int32Array(size),
    documentIds: new Int32Array(size),
    quality: new Float64Array(size),
    length: new Float64Array(size),
  };
}

export function copyRows(from: Rows, to: Rows): void {
  to.chunkIds.set(from.chunkIds);
  to.documentIds.set(from.documentIds);
  to.quality.set(from.quality);
  to.length.set(from.length);
}

export function sliceRows(rows: Rows, size: number): Rows {
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
export function decodeRows(
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
  const sortedFrequency = frequencyArray(entries, allSmall(frequency, entries));
  for (let e = 0; e < entries; e++) {
    const at = fill[term[e]!]!++;
    sortedRow[at] = row[e]!;
    sortedFrequency[at] = frequency[e]!;
  }
  return { start, row: sortedRow, frequency: sortedFrequency };
}

/** `older` followed, term by term, by `newer` (whose rows all come after older's), over newer's slots. */
export function mergePostings(older: Postings, newer: Postings): Postings {
  const slots = newer.start.length - 1;
  const start = new Int32Array(slots + 1);
  for (let t = 0; t < slots; t++) {
    const [from, to] = range(older, t);
    start[t + 1] = start[t]! + (to - from) + (newer.start[t + 1]! - newer.start[t]!);
  }
  const row = new Int32Array(start[slots]!);
  const small = older.frequency instanceof Uint16Array && newer.frequency instanceof Uint16Array;
  const frequency = frequencyArray(start[slots]!, small);
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

/** Whether every one of the first `entries` frequencies fits the 2-byte form exactly. */
function allSmall(frequency: Float64Array, entries: number): boolean {
  for (let e = 0; e < entries; e++) {
    if (!isSmall(frequency[e]!)) return false;
  }
  return true;
}

function frequencyArray(entries: number, small: boolean): Frequencies {
  return small ? new Uint16Array(entries) : new Float64Array(entries);
}

function grow<T extends Int32Array | Float64Array>(array: T): T {
  const bigger = new (array.constructor as new (n: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}
