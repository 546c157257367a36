// The rows a vector snapshot holds in memory: per-row facts, the int8 codes and the rows of each document, sized
// with room to append, and how rows are appended or copied into it.
import { createInt8DotKernel, type Int8DotKernel } from './int8-dot-kernel.js';
import type { VectorEntry } from './vector-rows.js';

/** Room left for rows appended after a commit: 1/32 of the rows, at least this many (then a compacting copy). */
const APPEND_SLACK_MIN = 1024;
const APPEND_SLACK_DIVISOR = 32;
/** Bytes per row of the facts (id, document, quality) and of the per-document row lists, roughly. */
export const FACT_BYTES = 12;
export const ROW_LIST_BYTES = 16;

/**
 * The rows a snapshot shares with the snapshots refreshed from it: per-row facts (ids ascend), the int8 codes
 * and the rows of each document, sized with room to append. Rows are only ever appended, and only by the
 * snapshot that wrote the last one, so an older snapshot never sees a row change under it.
 */
export interface RowStore {
  capacity: number;
  ids: Int32Array;
  documentIds: Int32Array;
  quality: Float32Array;
  /** The int8 codes of every row; null without WebAssembly SIMD (every search is then exact). */
  kernel: Int8DotKernel | null;
  rowsByDocument: Map<number, number[]>;
  /** Rows written so far. */
  used: number;
  /** Loaded without codes because they did not fit (`maxCodeBytes`); searches read every vector from the file. */
  codesLeftOut: boolean;
}

/** An empty store with room for `rows` and the slack to append after commits; codes only if `quantised`. */
export function createStore(rows: number, dimension: number, quantised: boolean): RowStore {
  const capacity = capacityFor(rows);
  return {
    capacity,
    ids: new Int32Array(capacity),
    documentIds: new Int32Array(capacity),
    quality: new Float32Array(capacity),
    kernel: quantised ? createInt8DotKernel(capacity, dimension) : null,
    rowsByDocument: new Map(),
    used: 0,
    codesLeftOut: false,
  };
}

/** Rows a store for `rows` has room for: the slack lets a few commits append in place. */
export function capacityFor(rows: number): number {
  return rows + Math.max(APPEND_SLACK_MIN, Math.ceil(rows / APPEND_SLACK_DIVISOR));
}

export function appendFacts(store: RowStore, id: number, documentId: number, quality: number): void {
  const row = store.used++;
  store.ids[row] = id;
  store.documentIds[row] = documentId;
  store.quality[row] = quality;
  const rows = store.rowsByDocument.get(documentId);
  if (rows) rows.push(row);
  else store.rowsByDocument.set(documentId, [row]);
}

/** Append `entries` (ids ascending past the store's last), quantising their vectors cut or padded to `dimension`. */
export function appendEntries(store: RowStore, entries: readonly VectorEntry[], dimension: number): void {
  if (entries.length === 0) return;
  const firstRow = store.used;
  for (const entry of entries) appendFacts(store, entry.id, entry.documentId, entry.quality);
  if (!store.kernel) return;
  const matrix = new Float32Array(entries.length * dimension);
  entries.forEach((entry, i) => {
    matrix.set(entry.vector.subarray(0, dimension), i * dimension);
  });
  store.kernel.quantise(matrix, dimension, firstRow);
}

export function copyCodes(from: Int8DotKernel, fromRow: number, to: Int8DotKernel, toRow: number): void {
  const stride = from.stride;
  to.codes.set(from.codes.subarray(fromRow * stride, (fromRow + 1) * stride), toRow * stride);
  to.scales[toRow] = from.scales[fromRow]!;
}

/** `added` in chunk-id order, one entry per id: a chunk listed twice keeps its later vector. */
export function lastOfEachId(added: readonly VectorEntry[]): VectorEntry[] {
  const byId = new Map<number, VectorEntry>();
  for (const entry of added) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
