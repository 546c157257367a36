// Nearest-neighbour search over every chunk vector: an int8 SIMD pass over codes held in memory ranks all rows,
// then the best few hundred are rescored exactly in float32 from vectors read by chunk id (the index file; see
// vector-rows.ts). The float32 vectors themselves stay on disk; a runtime without WebAssembly SIMD holds them in
// memory and scans them exactly. A snapshot loaded without codes (they would not fit `[search] memory_budget_mb`)
// holds only the per-row facts and scores every vector exactly as it streams from the file.
import { TopRows } from '../rank/top-k.js';
import { type Int8DotKernel, int8FixedBytes, int8RowBytes } from './int8-dot-kernel.js';
import type { SqliteDatabase } from './open-database.js';
import {
  appendEntries,
  appendFacts,
  capacityFor,
  copyCodes,
  createStore,
  FACT_BYTES,
  lastOfEachId,
  ROW_LIST_BYTES,
  type RowStore,
} from './vector-row-store.js';
import {
  copyEmbedding,
  memoryVectorSource,
  sqliteVectorSource,
  type VectorEntry,
  type VectorSource,
} from './vector-rows.js';
import { dotProduct, maskOf, quantiseQuery } from './vector-scoring.js';

export type { VectorEntry } from './vector-rows.js';

export interface VectorHit {
  id: number;
  similarity: number;
}

export interface VectorSearchOptions {
  k: number;
  minQuality: number;
  documentIds: ReadonlySet<number> | null;
  excluded: ReadonlySet<number>;
  /** Skip the int8 first pass and score every allowed vector in float32 (the oracle the benchmark checks). */
  exact?: boolean;
  /** Rows the int8 pass hands to exact rescoring; default max(8·k, 256). */
  rescoreRows?: number;
}

/**
 * The first pass only has to put the true top k somewhere in its top `rescoreRows`; int8 rounding moves a
 * similarity by ~1e-3, far less than the gap to rank 256 (bench/search-speed.ts measures recall against exact).
 * When no more rows than that pass the filters, they are all scored exactly and the first pass is skipped.
 */
const RESCORE_FACTOR = 8;
const RESCORE_MIN = 256;
/** Rows quantised per kernel call while loading (1.5 MB of float32 at 384 dimensions). */
const LOAD_BATCH_ROWS = 1024;
/** Rows deleted beyond this share of the store's rows are dropped by a compacting copy. */
const MAX_DEAD_SHARE = 0.25;

export interface VectorLoadOptions {
  /** Load int8 codes only if they (with the facts) take at most this many bytes; else load without codes. */
  maxCodeBytes?: number;
}

/** What changed in the index since a snapshot was taken. */
export interface VectorChanges {
  /** Documents gone from the index: their rows leave the snapshot. */
  removedDocuments: readonly number[];
  /** Stored vectors to add (a row whose chunk id is already here is replaced). */
  added: readonly VectorEntry[];
}

/** A snapshot of all chunk vectors; refreshed by `withChanges` or rebuilt when the index changes. */
export class VectorIndex {
  readonly dimension: number;
  /** Rows this snapshot searches (deleted ones not counted). */
  readonly size: number;

  private constructor(
    private readonly store: RowStore,
    /** Rows of the store this snapshot sees: 0 … rows − 1. */
    private readonly rows: number,
    /** Rows deleted since the store was built (1 = gone), or null when none is. */
    private readonly dead: Uint8Array | null,
    private readonly deadCount: number,
    dimension: number,
    /** Where exact float32 vectors are read from, by chunk id. */
    private readonly source: VectorSource,
  ) {
    this.dimension = dimension;
    this.size = rows - deadCount;
  }

  /**
   * What a snapshot of `rows` vectors holds with its int8 codes (codes, per-row scores and scales, facts, the
   * room left to append, the kernel's staging buffer).
   */
  static codeBytes(rows: number, dimension: number): number {
    const capacity = capacityFor(rows);
    return (
      capacity * (int8RowBytes(dimension) + FACT_BYTES) + rows * ROW_LIST_BYTES + int8FixedBytes(dimension)
    );
  }

  /**
   * Every stored vector of the index file, quantised as it streams in; exact vectors are read back on demand.
   * Over `maxCodeBytes` no codes are made: every search then scores every vector read from the file.
   */
  static load(db: SqliteDatabase, dimension: number, options: VectorLoadOptions = {}): VectorIndex {
    const from = 'FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id';
    // One read transaction (a savepoint when nested), so the count and the rows come from the same snapshot.
    return db.transaction(() => {
      const count = db.prepare(`SELECT count(*) ${from}`).pluck().get() as number;
      const withCodes =
        VectorIndex.codeBytes(count, dimension) <= (options.maxCodeBytes ?? Number.POSITIVE_INFINITY);
      if (!withCodes) return VectorIndex.loadFacts(db, from, dimension, count);
      const store = createStore(count, dimension, true);
      const kernel = store.kernel;
      const batchRows = kernel ? LOAD_BATCH_ROWS : count;
      const batch = new Float32Array(Math.max(1, Math.min(count, batchRows)) * dimension);
      const resident: VectorEntry[] = [];
      const rowBytes = dimension * 4;
      const rows = db
        .prepare(`SELECT c.id, c.document_id, c.quality_score, v.embedding ${from} ORDER BY c.id`)
        .raw()
        .iterate() as IterableIterator<[number, number, number, Buffer]>;
      for (const [id, documentId, quality, embedding] of rows) {
        const row = store.used;
        const slot = row % batchRows;
        const vector = batch.subarray(slot * dimension, (slot + 1) * dimension);
        copyEmbedding(embedding, new Uint8Array(vector.buffer, vector.byteOffset, rowBytes));
        appendFacts(store, id, documentId, quality);
        if (!kernel) resident.push({ id, documentId, quality, vector });
        else if (slot === batchRows - 1) kernel.quantise(batch, dimension, row + 1 - batchRows);
      }
      const left = store.used % batchRows;
      if (kernel && left !== 0)
        kernel.quantise(batch.subarray(0, left * dimension), dimension, store.used - left);
      const source = kernel ? sqliteVectorSource(db, dimension) : memoryVectorSource(resident, dimension);
      return new VectorIndex(store, store.used, null, 0, dimension, source);
    })();
  }

  /** The facts of every row, no codes, no vectors: each search streams and scores every vector of the file. */
  private static loadFacts(db: SqliteDatabase, from: string, dimension: number, count: number): VectorIndex {
    const store = createStore(count, dimension, false);
    store.codesLeftOut = true;
    const rows = db
      .prepare(`SELECT c.id, c.document_id, c.quality_score ${from} ORDER BY c.id`)
      .raw()
      .iterate() as IterableIterator<[number, number, number]>;
    for (const [id, documentId, quality] of rows) appendFacts(store, id, documentId, quality);
    return new VectorIndex(store, store.used, null, 0, dimension, sqliteVectorSource(db, dimension));
  }

  /** The stored vectors of the given chunks (those that have one), for `withChanges`. */
  static loadRows(db: SqliteDatabase, chunkIds: readonly number[], dimension: number): VectorEntry[] {
    const facts = new Map<number, [number, number]>();
    const byIds = db
      .prepare(
        'SELECT id, document_id, quality_score FROM chunks WHERE id IN (SELECT value FROM json_each(?))',
      )
      .raw();
    for (const [id, documentId, quality] of byIds.iterate(JSON.stringify(chunkIds)) as IterableIterator<
      [number, number, number]
    >)
      facts.set(id, [documentId, quality]);
    const entries: VectorEntry[] = [];
    sqliteVectorSource(db, dimension).read(chunkIds, (id, vector) => {
      const fact = facts.get(id);
      if (fact) entries.push({ id, documentId: fact[0], quality: fact[1], vector: vector.slice() });
    });
    return entries;
  }

  /**
   * Build from vectors already in memory (each is copied, cut or zero-padded to `dimension`); they stay in
   * memory as the exact vectors.
   */
  static fromEntries(entries: readonly VectorEntry[], dimension: number): VectorIndex {
    const sorted = [...entries].sort((a, b) => a.id - b.id);
    const store = createStore(sorted.length, dimension, true);
    appendEntries(store, sorted, dimension);
    return new VectorIndex(store, store.used, null, 0, dimension, memoryVectorSource(sorted, dimension));
  }

  /** `withChanges` with additions only (what the embedding stage stores). */
  withAdded(added: readonly VectorEntry[]): VectorIndex {
    return this.withChanges({ removedDocuments: [], added });
  }

  /**
   * This snapshot after `changes`, searching exactly as a fresh `load` of the changed index would. Rows of
   * removed documents (and replaced chunk ids) are marked deleted; added rows whose ids all follow this
   * snapshot's last one are appended in place (quantising only them); otherwise, or once too many rows are
   * deleted or the room runs out, the live rows are copied into a new store in chunk-id order.
   */
  withChanges(changes: VectorChanges): VectorIndex {
    const incoming = lastOfEachId(changes.added);
    const dead = this.dead ? this.dead.slice() : new Uint8Array(this.store.capacity);
    let deadCount = this.deadCount;
    const kill = (row: number) => {
      if (dead[row] === 0) {
        dead[row] = 1;
        deadCount++;
      }
    };
    for (const documentId of changes.removedDocuments) {
      for (const row of this.store.rowsByDocument.get(documentId) ?? []) if (row < this.rows) kill(row);
    }
    for (const entry of incoming) {
      const row = this.rowOf(entry.id);
      if (row >= 0) kill(row);
    }
    const { store } = this;
    const lastId = this.rows > 0 ? store.ids[this.rows - 1]! : -1;
    const appendable =
      store.used === this.rows &&
      (incoming.length === 0 || incoming[0]!.id > lastId) &&
      this.rows + incoming.length <= store.capacity &&
      deadCount <= MAX_DEAD_SHARE * (this.rows + incoming.length);
    const source = this.source.with(incoming);
    if (appendable) {
      appendEntries(store, incoming, this.dimension);
      const anyDead = deadCount > 0 ? dead : null;
      return new VectorIndex(store, store.used, anyDead, deadCount, this.dimension, source);
    }
    return this.compacted(dead, incoming, source);
  }

  /** The live rows of this snapshot merged with `incoming` by chunk id, in a new store. */
  private compacted(dead: Uint8Array, incoming: readonly VectorEntry[], source: VectorSource): VectorIndex {
    const old = this.store;
    let live = 0;
    for (let row = 0; row < this.rows; row++) if (dead[row] === 0) live++;
    const store = createStore(live + incoming.length, this.dimension, old.kernel !== null);
    store.codesLeftOut = old.codesLeftOut;
    let next = 0;
    for (let row = 0; row < this.rows; row++) {
      if (dead[row] === 1) continue;
      const id = old.ids[row]!;
      while (next < incoming.length && incoming[next]!.id < id)
        appendEntries(store, [incoming[next++]!], this.dimension);
      if (store.kernel) copyCodes(old.kernel!, row, store.kernel, store.used);
      appendFacts(store, id, old.documentIds[row]!, old.quality[row]!);
    }
    appendEntries(store, incoming.slice(next), this.dimension);
    return new VectorIndex(store, store.used, null, 0, this.dimension, source);
  }

  /** Whether the int8 codes exist (never without WebAssembly SIMD, nor when loaded without them). */
  get quantised(): boolean {
    return this.store.kernel !== null;
  }

  /** What this snapshot's rows would hold with their codes (`codeBytes`). */
  get codeBytesNeeded(): number {
    return VectorIndex.codeBytes(this.size, this.dimension);
  }

  /** Whether the codes were left out for `maxCodeBytes` (not for want of WebAssembly SIMD). */
  get codesLeftOut(): boolean {
    return this.store.codesLeftOut;
  }

  /** Bytes the snapshot holds: codes (with scores, scales and staging), facts, the per-document row lists. */
  get memoryBytes(): number {
    const { store } = this;
    const codes = store.kernel ? store.kernel.memoryBytes : 0;
    const dead = this.dead ? this.dead.byteLength : 0;
    return codes + store.capacity * FACT_BYTES + store.used * ROW_LIST_BYTES + dead + this.source.memoryBytes;
  }

  /** The documents with rows in this snapshot that are not in `present` (what a refresh must remove). */
  documentsMissingFrom(present: ReadonlySet<number>): number[] {
    const missing: number[] = [];
    for (const [documentId, rows] of this.store.rowsByDocument) {
      if (!present.has(documentId) && rows.some((row) => this.live(row))) missing.push(documentId);
    }
    return missing;
  }

  /** Stored vector of a chunk in this snapshot (a fresh copy), or null. */
  vectorOf(chunkId: number): Float32Array | null {
    const row = this.rowOf(chunkId);
    if (row < 0 || !this.live(row)) return null;
    let found: Float32Array | null = null;
    this.source.read([chunkId], (_, vector) => {
      found = vector.slice();
    });
    return found;
  }

  /**
   * The `k` most similar chunks by dot product (vectors are unit length, so this is cosine), among those passing
   * the quality floor, the allowed documents and not excluded; best first, ties by id. Similarities are exact
   * float32 dot products whichever path picked the rows.
   */
  search(query: Float32Array, options: VectorSearchOptions): VectorHit[] {
    const k = Math.floor(options.k);
    if (k <= 0 || this.size === 0) return [];
    const subset = options.documentIds ? this.rowsOf(options.documentIds) : null;
    const rescoreRows = Math.max(k, options.rescoreRows ?? Math.max(k * RESCORE_FACTOR, RESCORE_MIN));
    const candidates = subset ? subset.length : this.size;
    const kernel = options.exact || candidates <= rescoreRows ? null : this.store.kernel;
    if (!kernel) return this.rescore(query, subset ?? this.liveRows(), options, k);
    const allowed = subset ? maskOf(subset, this.rows) : null;
    return this.rescore(query, this.firstPass(kernel, query, options, allowed, rescoreRows), options, k);
  }

  private live(row: number): boolean {
    return row < this.rows && (this.dead === null || this.dead[row] === 0);
  }

  /** The row of chunk `id` (ids ascend), or −1. */
  private rowOf(id: number): number {
    const ids = this.store.ids;
    let low = 0;
    let high = this.rows - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = ids[mid]!;
      if (at === id) return mid;
      if (at < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  private liveRows(): number[] {
    const rows: number[] = [];
    for (let row = 0; row < this.rows; row++) if (this.live(row)) rows.push(row);
    return rows;
  }

  private rowsOf(documentIds: ReadonlySet<number>): number[] {
    const rows: number[] = [];
    for (const documentId of documentIds) {
      const found = this.store.rowsByDocument.get(documentId);
      if (found) for (const row of found) if (this.live(row)) rows.push(row);
    }
    return rows;
  }

  /** The `keep` allowed rows with the highest int8 scores (unordered). */
  private firstPass(
    kernel: Int8DotKernel,
    query: Float32Array,
    options: VectorSearchOptions,
    allowed: Uint8Array | null,
    keep: number,
  ): Float64Array {
    quantiseQuery(query, this.dimension, kernel.query);
    kernel.run(this.rows);
    const { scores, scales } = kernel;
    const { ids, quality } = this.store;
    const dead = this.dead;
    // Scores alone rank here (an equal score never displaces a kept row): rescoring orders what is kept.
    const heap = new TopRows(keep, 'none');
    const { minQuality, excluded } = options;
    for (let row = 0; row < this.rows; row++) {
      const approx = scores[row]! * scales[row]!;
      if (heap.full && approx <= heap.minScore) continue;
      if (quality[row]! < minQuality) continue;
      if (dead && dead[row] === 1) continue;
      if (allowed && allowed[row] === 0) continue;
      if (excluded.size > 0 && excluded.has(ids[row]!)) continue;
      heap.offer(approx, row);
    }
    return heap.unorderedRows();
  }

  /** Exact float32 scoring of `rows` (filters applied, vectors read from the source), sorted, cut to k. */
  private rescore(
    query: Float32Array,
    rows: ArrayLike<number>,
    options: VectorSearchOptions,
    k: number,
  ): VectorHit[] {
    const { minQuality, excluded } = options;
    const { ids, quality } = this.store;
    const wanted: number[] = [];
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      if (quality[row]! < minQuality) continue;
      const id = ids[row]!;
      if (excluded.size > 0 && excluded.has(id)) continue;
      wanted.push(id);
    }
    const top = new TopRows(k);
    const dim = this.dimension;
    this.source.read(wanted, (id, vector) => {
      const dot = dotProduct(vector, query, dim);
      if (!top.full || dot >= top.minScore) top.offer(dot, id);
    });
    return top.sorted().map((kept) => ({ id: kept.row, similarity: kept.score }));
  }
}
