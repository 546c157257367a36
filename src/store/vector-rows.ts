// Where the vector index reads exact float32 vectors from when it rescores: the index file itself (one prepared
// statement, chunk ids bound as one JSON array), or vectors held in memory (a runtime without WebAssembly SIMD,
// and indexes built from entries). The snapshot keeps only the int8 codes; a few hundred rows are read per query.
import type { SqliteDatabase } from './open-database.js';

/** Visits `vector` (a scratch view, valid only during the call) for one chunk id. */
export type VectorVisit = (id: number, vector: Float32Array) => void;

export interface VectorSource {
  /**
   * Visit the stored vector, cut or zero-padded to the index dimension, of each of `ids` that has one, in any
   * order; ids without a stored vector (deleted since the snapshot) are skipped.
   */
  read(ids: ArrayLike<number>, visit: VectorVisit): void;
  /** This source holding `entries` too (the file already holds every stored vector: it returns itself). */
  with(entries: readonly VectorEntry[]): VectorSource;
  /** Bytes of vectors held in memory (0 for the file). */
  readonly memoryBytes: number;
}

/** Ids bound per statement run (a JSON array of 4,096 ids is ~40 kB). */
const IDS_PER_READ = 4096;

/** Exact vectors read from `chunk_vectors` by chunk id. */
export function sqliteVectorSource(db: SqliteDatabase, dimension: number): VectorSource {
  const byIds = db
    .prepare(
      'SELECT chunk_id, embedding FROM chunk_vectors WHERE chunk_id IN (SELECT value FROM json_each(?))',
    )
    .raw();
  const scratch = new Float32Array(dimension);
  const bytes = new Uint8Array(scratch.buffer);
  const source: VectorSource = {
    with: () => source,
    memoryBytes: 0,
    read(ids, visit) {
      for (let start = 0; start < ids.length; start += IDS_PER_READ) {
        const batch = Array.prototype.slice.call(ids, start, start + IDS_PER_READ) as number[];
        const rows = byIds.iterate(JSON.stringify(batch)) as IterableIterator<[number, Buffer]>;
        for (const [id, embedding] of rows) {
          copyEmbedding(embedding, bytes);
          visit(id, scratch);
        }
      }
    },
  };
  return source;
}

/** Copy a stored blob into `target` (float32 bytes of the index dimension): cut when longer, zero-filled when shorter. */
export function copyEmbedding(embedding: Uint8Array, target: Uint8Array): void {
  const length = Math.min(embedding.byteLength, target.byteLength);
  target.set(embedding.subarray(0, length));
  if (length < target.byteLength) target.fill(0, length);
}

/** One stored vector with what the filters look at. */
export interface VectorEntry {
  id: number;
  documentId: number;
  quality: number;
  vector: Float32Array;
}

/** Exact vectors held in memory, by chunk id (cut or zero-padded to `dimension` when added). */
export function memoryVectorSource(entries: readonly VectorEntry[], dimension: number): VectorSource {
  const vectors = new Map<number, Float32Array>();
  for (const entry of entries) vectors.set(entry.id, fitted(entry.vector, dimension));
  return memorySource(vectors, dimension);
}

function memorySource(vectors: Map<number, Float32Array>, dimension: number): VectorSource {
  return {
    memoryBytes: vectors.size * dimension * 4,
    read(ids, visit) {
      for (let i = 0; i < ids.length; i++) {
        const vector = vectors.get(ids[i]!);
        if (vector) visit(ids[i]!, vector);
      }
    },
    with(entries) {
      const grown = new Map(vectors);
      for (const entry of entries) grown.set(entry.id, fitted(entry.vector, dimension));
      return memorySource(grown, dimension);
    },
  };
}

/** A copy of `vector` cut or zero-padded to `dimension`. */
function fitted(vector: Float32Array, dimension: number): Float32Array {
  const copy = new Float32Array(dimension);
  copy.set(vector.subarray(0, dimension));
  return copy;
}
