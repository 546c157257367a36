// Nearest-neighbour search over every chunk vector: an int8 SIMD pass over codes held in memory ranks all rows,
// then the best few hundred are rescored exactly in float32 from vectors read by chunk id (the index file; see
// vector-rows.ts). The float32 vectors themselves stay on disk; a runtime without WebAssembly SIMD holds them in
// memory and scans them exactly.
import { TopRows } from '../core/top-k.js';
import { createInt8DotKernel, type Int8DotKernel } from './int8-dot-kernel.js';
import type { SqliteDatabase } from './open-database.js';
import {
  copyEmbedding,
  memoryVectorSource,
  sqliteVectorSource,
  type VectorEntry,
  type VectorSource,
} from './vector-rows.js';

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

/** The per-row facts a snapshot keeps beside the codes; ids ascend. */
interface RowFacts {
  ids: Int32Array;
  documentIds: Int32Array;
  quality: Float32Array;
}

/** A snapshot of all chunk vectors; rebuild it when the index changes. */
export class VectorIndex {
  readonly dimension: number;
  readonly size: number;
  private readonly ids: Int32Array;
  private readonly documentIds: Int32Array;
  private readonly quality: Float32Array;
  private readonly rowsByDocument = new Map<number, number[]>();

  private constructor(
    rows: RowFacts,
    dimension: number,
    /** The int8 codes of every row; null without WebAssembly SIMD (every search is then exact). */
    private readonly kernel: Int8DotKernel | null,
    /** Where exact float32 vectors are read from, by chunk id. */
    private readonly source: VectorSource,
  ) {
    this.dimension = dimension;
    this.size = rows.ids.length;
    this.ids = rows.ids;
    this.documentIds = rows.documentIds;
    this.quality = rows.quality;
    for (let row = 0; row < this.size; row++) {
      const documentId = this.documentIds[row]!;
      const found = this.rowsByDocument.get(documentId);
      if (found) found.push(row);
      else this.rowsByDocument.set(documentId, [row]);
    }
  }

  /** Every stored vector of the index file, quantised as it streams in; exact vectors are read back on demand. */
  static load(db: SqliteDatabase, dimension: number): VectorIndex {
    const from = 'FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id';
    // One read transaction (a savepoint when nested), so the count and the rows come from the same snapshot.
    return db.transaction(() => {
      const count = db.prepare(`SELECT count(*) ${from}`).pluck().get() as number;
      const facts = allocateFacts(count);
      const kernel = createInt8DotKernel(count, dimension);
      const batchRows = kernel ? LOAD_BATCH_ROWS : count;
      const batch = new Float32Array(Math.max(1, Math.min(count, batchRows)) * dimension);
      const resident: VectorEntry[] = [];
      const rowBytes = dimension * 4;
      let row = 0;
      const rows = db
        .prepare(`SELECT c.id, c.document_id, c.quality_score, v.embedding ${from} ORDER BY c.id`)
        .raw()
        .iterate() as IterableIterator<[number, number, number, Buffer]>;
      for (const [id, documentId, quality, embedding] of rows) {
        const slot = row % batchRows;
        const vector = batch.subarray(slot * dimension, (slot + 1) * dimension);
        copyEmbedding(embedding, new Uint8Array(vector.buffer, vector.byteOffset, rowBytes));
        setFacts(facts, row++, id, documentId, quality);
        if (!kernel) resident.push({ id, documentId, quality, vector });
        else if (slot === batchRows - 1) kernel.quantise(batch, dimension, row - batchRows);
      }
      if (kernel && row % batchRows !== 0) {
        const left = row % batchRows;
        kernel.quantise(batch.subarray(0, left * dimension), dimension, row - left);
      }
      const source = kernel ? sqliteVectorSource(db, dimension) : memoryVectorSource(resident, dimension);
      return new VectorIndex(facts, dimension, kernel, source);
    })();
  }

  /** The stored vectors of the given chunks (those that have one), for `withAdded`. */
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
    const facts = allocateFacts(sorted.length);
    sorted.forEach((entry, row) => {
      setFacts(facts, row, entry.id, entry.documentId, entry.quality);
    });
    const kernel = createInt8DotKernel(sorted.length, dimension);
    quantiseEntries(kernel, sorted, 0, dimension);
    return new VectorIndex(facts, dimension, kernel, memoryVectorSource(sorted, dimension));
  }

  /**
   * This snapshot with `added` rows merged in by chunk id, as `load` would order them after those vectors were
   * stored (a row whose id is already here is replaced). Copies the int8 codes once and quantises only the new
   * rows instead of re-reading every vector.
   */
  withAdded(added: readonly VectorEntry[]): VectorIndex {
    const incoming = [...added].sort((a, b) => a.id - b.id);
    const replaced = new Set(incoming.filter((e) => this.rowOf(e.id) >= 0).map((e) => e.id));
    const size = this.size - replaced.size + incoming.length;
    const facts = allocateFacts(size);
    const kernel = this.kernel ? createInt8DotKernel(size, this.dimension) : null;
    let row = 0;
    let next = 0;
    const takeIncoming = () => {
      const entry = incoming[next++]!;
      setFacts(facts, row, entry.id, entry.documentId, entry.quality);
      quantiseEntries(kernel, [entry], row++, this.dimension);
    };
    for (let old = 0; old < this.size; old++) {
      const id = this.ids[old]!;
      while (next < incoming.length && incoming[next]!.id < id) takeIncoming();
      if (replaced.has(id)) continue;
      setFacts(facts, row, id, this.documentIds[old]!, this.quality[old]!);
      if (kernel) copyCodes(this.kernel!, old, kernel, row);
      row++;
    }
    while (next < incoming.length) takeIncoming();
    return new VectorIndex(facts, this.dimension, kernel, this.source.with(incoming));
  }

  /** Whether the int8 codes exist (never without WebAssembly SIMD). */
  get quantised(): boolean {
    return this.kernel !== null;
  }

  /** Stored vector of a chunk in this snapshot (a fresh copy), or null. */
  vectorOf(chunkId: number): Float32Array | null {
    if (this.rowOf(chunkId) < 0) return null;
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
    const kernel = options.exact || candidates <= rescoreRows ? null : this.kernel;
    if (!kernel) return this.rescore(query, subset ?? allRows(this.size), options, k);
    const allowed = subset ? maskOf(subset, this.size) : null;
    return this.rescore(query, this.firstPass(kernel, query, options, allowed, rescoreRows), options, k);
  }

  /** The row of chunk `id` (ids ascend), or −1. */
  private rowOf(id: number): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = this.ids[mid]!;
      if (at === id) return mid;
      if (at < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  private rowsOf(documentIds: ReadonlySet<number>): number[] {
    const rows: number[] = [];
    for (const documentId of documentIds) {
      const found = this.rowsByDocument.get(documentId);
      if (found) for (const row of found) rows.push(row);
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
    kernel.run();
    const { scores, scales } = kernel;
    // Scores alone rank here (an equal score never displaces a kept row): rescoring orders what is kept.
    const heap = new TopRows(keep, 'none');
    const { minQuality, excluded } = options;
    for (let row = 0; row < this.size; row++) {
      const approx = scores[row]! * scales[row]!;
      if (heap.full && approx <= heap.minScore) continue;
      if (this.quality[row]! < minQuality) continue;
      if (allowed && allowed[row] === 0) continue;
      if (excluded.size > 0 && excluded.has(this.ids[row]!)) continue;
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
    const wanted: number[] = [];
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      if (this.quality[row]! < minQuality) continue;
      const id = this.ids[row]!;
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

/** Σ a[i]·b[i] over `dim` components, in four running sums (the one float32 similarity every path reports). */
function dotProduct(a: Float32Array, b: Float32Array, dim: number): number {
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  let i = 0;
  for (; i + 3 < dim; i += 4) {
    d0 += a[i]! * b[i]!;
    d1 += a[i + 1]! * b[i + 1]!;
    d2 += a[i + 2]! * b[i + 2]!;
    d3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < dim; i++) d0 += a[i]! * b[i]!;
  return d0 + d1 + d2 + d3;
}

function allocateFacts(size: number): RowFacts {
  return { ids: new Int32Array(size), documentIds: new Int32Array(size), quality: new Float32Array(size) };
}

function setFacts(facts: RowFacts, row: number, id: number, documentId: number, quality: number): void {
  facts.ids[row] = id;
  facts.documentIds[row] = documentId;
  facts.quality[row] = quality;
}

/** Quantise `entries` into rows `firstRow` … of `kernel` (cut or zero-padded to `dimension`). */
function quantiseEntries(
  kernel: Int8DotKernel | null,
  entries: readonly VectorEntry[],
  firstRow: number,
  dimension: number,
): void {
  if (!kernel || entries.length === 0) return;
  const matrix = new Float32Array(entries.length * dimension);
  entries.forEach((entry, i) => {
    matrix.set(entry.vector.subarray(0, dimension), i * dimension);
  });
  kernel.quantise(matrix, dimension, firstRow);
}

function copyCodes(from: Int8DotKernel, fromRow: number, to: Int8DotKernel, toRow: number): void {
  const stride = from.stride;
  to.codes.set(from.codes.subarray(fromRow * stride, (fromRow + 1) * stride), toRow * stride);
  to.scales[toRow] = from.scales[fromRow]!;
}

/**
 * The query's int8 codes (symmetric, scaled to its own max |x|). Its scale is one factor common to every row,
 * so the first pass can rank without it. A zero or non-finite query gets zero codes.
 */
function quantiseQuery(query: Float32Array, dim: number, target: Int8Array): void {
  let maxAbs = 0;
  for (let i = 0; i < dim; i++) {
    const a = Math.abs(query[i]!);
    if (a > maxAbs) maxAbs = a;
  }
  const scale = maxAbs > 0 && Number.isFinite(maxAbs) ? 127 / maxAbs : 0;
  for (let i = 0; i < dim; i++) target[i] = Math.round(query[i]! * scale) || 0;
}

function allRows(size: number): Int32Array {
  const rows = new Int32Array(size);
  for (let i = 0; i < size; i++) rows[i] = i;
  return rows;
}

function maskOf(rows: readonly number[], size: number): Uint8Array {
  const mask = new Uint8Array(size);
  for (const row of rows) mask[row] = 1;
  return mask;
}
