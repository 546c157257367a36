// Exact nearest-neighbour search over every chunk vector, held in one contiguous Float32Array in memory.
import { bufferToVector } from './document-store.js';
import type { SqliteDatabase } from './open-database.js';

export interface VectorHit {
  id: number;
  similarity: number;
}

/** A snapshot of all chunk vectors; rebuild it when the index changes. */
export class VectorIndex {
  readonly dimension: number;
  readonly size: number;
  private readonly ids: Int32Array;
  private readonly documentIds: Int32Array;
  private readonly quality: Float32Array;
  private readonly matrix: Float32Array;
  private readonly rowById: Map<number, number>;

  private constructor(
    rows: { id: number; documentId: number; quality: number; embedding: Buffer }[],
    dimension: number,
  ) {
    this.dimension = dimension;
    this.size = rows.length;
    this.ids = new Int32Array(rows.length);
    this.documentIds = new Int32Array(rows.length);
    this.quality = new Float32Array(rows.length);
    this.matrix = new Float32Array(rows.length * dimension);
    this.rowById = new Map();
    rows.forEach((row, i) => {
      this.ids[i] = row.id;
      this.documentIds[i] = row.documentId;
      this.quality[i] = row.quality;
      this.matrix.set(bufferToVector(row.embedding).subarray(0, dimension), i * dimension);
      this.rowById.set(row.id, i);
    });
  }

  static load(db: SqliteDatabase, dimension: number): VectorIndex {
    const rows = db
      .prepare(`SELECT c.id AS id, c.document_id AS documentId, c.quality_score AS quality, v.embedding AS embedding
        FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id ORDER BY c.id`)
      .all() as { id: number; documentId: number; quality: number; embedding: Buffer }[];
    return new VectorIndex(rows, dimension);
  }

  /** Stored vector of a chunk (a view, do not mutate), or null. */
  vectorOf(chunkId: number): Float32Array | null {
    const row = this.rowById.get(chunkId);
    if (row === undefined) return null;
    return this.matrix.subarray(row * this.dimension, (row + 1) * this.dimension);
  }

  /**
   * The `k` most similar chunks by dot product (vectors are unit length, so this is cosine), among those passing
   * the quality floor, the allowed documents and not excluded. Exact: every vector is scored.
   */
  search(
    query: Float32Array,
    options: {
      k: number;
      minQuality: number;
      documentIds: ReadonlySet<number> | null;
      excluded: ReadonlySet<number>;
    },
  ): VectorHit[] {
    const { k } = options;
    const dim = this.dimension;
    const top: VectorHit[] = [];
    let floor = Number.NEGATIVE_INFINITY;
    for (let row = 0; row < this.size; row++) {
      if (this.quality[row]! < options.minQuality) continue;
      if (options.documentIds && !options.documentIds.has(this.documentIds[row]!)) continue;
      const base = row * dim;
      let dot = 0;
      for (let i = 0; i < dim; i++) dot += this.matrix[base + i]! * query[i]!;
      if (top.length >= k && dot <= floor) continue;
      const id = this.ids[row]!;
      if (options.excluded.has(id)) continue;
      insertSorted(top, { id, similarity: dot }, k);
      if (top.length >= k) floor = top[top.length - 1]!.similarity;
    }
    return top;
  }
}

/** Keep `top` sorted by similarity desc (ties by id asc), at most `k` long. */
function insertSorted(top: VectorHit[], hit: VectorHit, k: number): void {
  let i = top.length;
  while (i > 0) {
    const prev = top[i - 1]!;
    if (prev.similarity > hit.similarity || (prev.similarity === hit.similarity && prev.id < hit.id)) break;
    i--;
  }
  top.splice(i, 0, hit);
  if (top.length > k) top.pop();
}
