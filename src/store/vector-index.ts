// Nearest-neighbour search over every chunk vector, held in memory: an int8 SIMD pass ranks all rows, then the
// best few hundred are rescored exactly in float32; exact float search is used wherever the first pass is moot.
import { TopRows } from '../core/top-k.js';
import { createInt8DotKernel, type Int8DotKernel } from './int8-dot-kernel.js';
import type { SqliteDatabase } from './open-database.js';

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

/** One stored vector with what the filters look at. */
export interface VectorEntry {
  id: number;
  documentId: number;
  quality: number;
  vector: Float32Array;
}

/**
 * The first pass only has to put the true top k somewhere in its top `rescoreRows`; int8 rounding moves a
 * similarity by ~1e-3, far less than the gap to rank 256 (bench/search-speed.ts measures recall against exact).
 */
const RESCORE_FACTOR = 8;
const RESCORE_MIN = 256;
/** This many candidate rows or fewer (the whole index, or what a document filter leaves) are scored exactly. */
const SMALL_SUBSET_ROWS = 2048;
/** Chunk ids bound per statement when vectors are read by id (well under SQLite's variable limit). */
const ROWS_PER_STATEMENT = 500;

/** A snapshot of all chunk vectors; rebuild it when the index changes. */
export class VectorIndex {
  readonly dimension: number;
  readonly size: number;
  private readonly ids: Int32Array;
  private readonly documentIds: Int32Array;
  private readonly quality: Float32Array;
  private readonly matrix: Float32Array;
  private readonly rowById = new Map<number, number>();
  private readonly rowsByDocument = new Map<number, number[]>();
  private kernel: Int8DotKernel | null = null;
  /** cold → warm after the first search that could use the first pass; the next one builds the int8 codes. */
  private firstPassState: 'cold' | 'warm' | 'built' = 'cold';

  private constructor(size: number, dimension: number) {
    this.dimension = dimension;
    this.size = size;
    this.ids = new Int32Array(size);
    this.documentIds = new Int32Array(size);
    this.quality = new Float32Array(size);
    this.matrix = new Float32Array(size * dimension);
  }

  static load(db: SqliteDatabase, dimension: number): VectorIndex {
    const from = 'FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id';
    // One read transaction (a savepoint when nested), so the count and the rows come from the same snapshot.
    return db.transaction(() => {
      const count = db.prepare(`SELECT count(*) ${from}`).pluck().get() as number;
      const index = new VectorIndex(count, dimension);
      const bytes = new Uint8Array(index.matrix.buffer);
      const rowBytes = dimension * 4;
      let row = 0;
      const rows = db
        .prepare(`SELECT c.id, c.document_id, c.quality_score, v.embedding ${from} ORDER BY c.id`)
        .raw()
        .iterate() as IterableIterator<[number, number, number, Buffer]>;
      for (const [id, documentId, quality, embedding] of rows) {
        bytes.set(embedding.subarray(0, Math.min(embedding.byteLength, rowBytes)), row * rowBytes);
        index.place(row++, id, documentId, quality);
      }
      return index;
    })();
  }

  /** The stored vectors of the given chunks (those that have one), for `withAdded`. */
  static loadRows(db: SqliteDatabase, chunkIds: readonly number[], dimension: number): VectorEntry[] {
    const entries: VectorEntry[] = [];
    for (let start = 0; start < chunkIds.length; start += ROWS_PER_STATEMENT) {
      const ids = chunkIds.slice(start, start + ROWS_PER_STATEMENT);
      const rows = db
        .prepare(
          `SELECT c.id, c.document_id, c.quality_score, v.embedding FROM chunk_vectors v
           JOIN chunks c ON c.id = v.chunk_id WHERE v.chunk_id IN (${ids.map(() => '?').join(',')})`,
        )
        .raw()
        .all(...ids) as [number, number, number, Buffer][];
      for (const [id, documentId, quality, embedding] of rows) {
        const vector = new Float32Array(dimension);
        const bytes = Math.min(embedding.byteLength, dimension * 4);
        new Uint8Array(vector.buffer).set(embedding.subarray(0, bytes));
        entries.push({ id, documentId, quality, vector });
      }
    }
    return entries;
  }

  /** Build from vectors already in memory (each is copied, cut or zero-padded to `dimension`). */
  static fromEntries(entries: readonly VectorEntry[], dimension: number): VectorIndex {
    const index = new VectorIndex(entries.length, dimension);
    entries.forEach((entry, row) => {
      index.matrix.set(entry.vector.subarray(0, dimension), row * dimension);
      index.place(row, entry.id, entry.documentId, entry.quality);
    });
    return index;
  }

  /**
   * This snapshot with `added` rows merged in by chunk id, as `load` would order them after those vectors were
   * stored (a row whose id is already here is replaced). Copies the matrix once instead of re-reading every vector;
   * the int8 codes are built again when wanted.
   */
  withAdded(added: readonly VectorEntry[]): VectorIndex {
    const incoming = [...added].sort((a, b) => a.id - b.id);
    const replaced = new Set(incoming.filter((e) => this.rowById.has(e.id)).map((e) => e.id));
    const index = new VectorIndex(this.size - replaced.size + incoming.length, this.dimension);
    const dim = this.dimension;
    let row = 0;
    let next = 0;
    const takeIncoming = () => {
      const entry = incoming[next++]!;
      index.matrix.set(entry.vector.subarray(0, dim), row * dim);
      index.place(row++, entry.id, entry.documentId, entry.quality);
    };
    for (let old = 0; old < this.size; old++) {
      const id = this.ids[old]!;
      while (next < incoming.length && incoming[next]!.id < id) takeIncoming();
      if (replaced.has(id)) continue;
      index.matrix.set(this.matrix.subarray(old * dim, (old + 1) * dim), row * dim);
      index.place(row++, id, this.documentIds[old]!, this.quality[old]!);
    }
    while (next < incoming.length) takeIncoming();
    return index;
  }

  /** Whether the int8 codes exist (built by the second large search; never without WebAssembly SIMD). */
  get quantised(): boolean {
    return this.kernel !== null;
  }

  /** Stored vector of a chunk (a view, do not mutate), or null. */
  vectorOf(chunkId: number): Float32Array | null {
    const row = this.rowById.get(chunkId);
    if (row === undefined) return null;
    return this.matrix.subarray(row * this.dimension, (row + 1) * this.dimension);
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
    const kernel =
      options.exact || candidates <= rescoreRows || candidates <= SMALL_SUBSET_ROWS
        ? null
        : this.firstPassKernel();
    if (!kernel) return this.rescore(query, subset ?? allRows(this.size), options, k);
    const allowed = subset ? maskOf(subset, this.size) : null;
    return this.rescore(query, this.firstPass(kernel, query, options, allowed, rescoreRows), options, k);
  }

  /**
   * The int8 codes, built on the second search that wants them: quantising costs about one exact scan, so a
   * one-shot process (a cold `groove search`) scans exactly once instead of quantising and then searching.
   */
  private firstPassKernel(): Int8DotKernel | null {
    if (this.firstPassState === 'cold') this.firstPassState = 'warm';
    else if (this.firstPassState === 'warm') {
      this.firstPassState = 'built'; // built once; stays null without WebAssembly SIMD
      this.quantise();
    }
    return this.kernel;
  }

  private place(row: number, id: number, documentId: number, quality: number): void {
    this.ids[row] = id;
    this.documentIds[row] = documentId;
    this.quality[row] = quality;
    this.rowById.set(id, row);
    const rows = this.rowsByDocument.get(documentId);
    if (rows) rows.push(row);
    else this.rowsByDocument.set(documentId, [row]);
  }

  /** Symmetric per-row int8 codes for the first pass (none without a SIMD kernel). */
  private quantise(): void {
    const kernel = createInt8DotKernel(this.size, this.dimension);
    if (!kernel) return;
    kernel.quantise(this.matrix, this.dimension);
    this.kernel = kernel;
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

  /** Exact float32 scoring of `rows` (filters applied), sorted, cut to k. */
  private rescore(
    query: Float32Array,
    rows: ArrayLike<number>,
    options: VectorSearchOptions,
    k: number,
  ): VectorHit[] {
    const dim = this.dimension;
    const m = this.matrix;
    const top = new TopRows(k);
    const { minQuality, excluded } = options;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      if (this.quality[row]! < minQuality) continue;
      const base = row * dim;
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      let i = 0;
      for (; i + 3 < dim; i += 4) {
        d0 += m[base + i]! * query[i]!;
        d1 += m[base + i + 1]! * query[i + 1]!;
        d2 += m[base + i + 2]! * query[i + 2]!;
        d3 += m[base + i + 3]! * query[i + 3]!;
      }
      for (; i < dim; i++) d0 += m[base + i]! * query[i]!;
      const dot = d0 + d1 + d2 + d3;
      if (top.full && dot < top.minScore) continue;
      const id = this.ids[row]!;
      if (excluded.size > 0 && excluded.has(id)) continue;
      top.offer(dot, id);
    }
    return top.sorted().map((kept) => ({ id: kept.row, similarity: kept.score }));
  }
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
