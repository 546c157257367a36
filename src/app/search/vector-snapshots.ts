// The session's vector snapshot: every chunk vector of one data_version (store/vector-index.ts), refreshed from
// the changes since (vector-changes.ts) and held within `[search] memory_budget_mb` (snapshot-budget.ts).
import type { EmbeddingQueue } from '../../store/embedding-queue.js';
import type { ReadConnection } from '../../store/read-connection.js';
import { readMaxChunkId, readVectorChanges, type VectorMark } from '../../store/vector-changes.js';
import { VectorIndex } from '../../store/vector-index.js';
import type { SnapshotBudget } from './snapshot-budget.js';

/**
 * The vector snapshot of one data_version, with where it stands (`mark`: its highest chunk id and the chunks then
 * waiting for a vector), so the next version's snapshot is this one with the changes since applied.
 */
export interface VectorSnapshotRead {
  version: number;
  text: string;
  mark: VectorMark;
  index: VectorIndex | null;
}

/** Where a vector snapshot is read from: the connection, its embedding queue, the text it holds, the budget. */
export interface VectorSource {
  connection: ReadConnection;
  queue: EmbeddingQueue;
  /** The text the index holds now (the session's, read again only after a commit). */
  textKey: () => string;
  budget: SnapshotBudget;
}

/**
 * The snapshot of the current data_version: `previous` with the changes since applied when there is one (see
 * vector-changes.ts), else loaded whole — with its codes only if they fit the budget; a refreshed snapshot whose
 * codes grew past it, or were left out and fit now, is loaded whole again. The queue and the vectors are read in
 * one read transaction, so a commit in between cannot be missed or counted twice.
 */
export function readVectorSnapshot(
  source: VectorSource,
  dimension: number,
  previous: VectorSnapshotRead | null,
): VectorSnapshotRead {
  const { connection, budget } = source;
  const db = connection.db;
  return connection.atomically((): VectorSnapshotRead => {
    const version = connection.dataVersion();
    const key = source.textKey();
    const queuedNow = source.queue.readIds();
    const mark = { maxChunkId: readMaxChunkId(db), queued: Int32Array.from(queuedNow) };
    // Without the text generation counter (an index from before it) a text change is not told apart: load.
    const base = previous?.index && key.startsWith('g') ? previous.index : null;
    const load = () => VectorIndex.load(db, dimension, { maxCodeBytes: budget.vectorRoom() });
    const refreshed = base
      ? base.withChanges(
          readVectorChanges(db, base, {
            mark: previous!.mark,
            queuedNow,
            textChanged: previous!.text !== key,
          }),
        )
      : null;
    const index = refreshed && !budget.vectorsMisfit(refreshed) ? refreshed : load();
    const kept = index.size > 0 ? index : null;
    budget.noteVectors(kept);
    return { version, text: key, mark, index: kept };
  });
}

/** Yield once so the model's load message goes out first, then load the snapshot of the current data_version. */
export async function preloadVectors(source: VectorSource, dimension: number): Promise<VectorSnapshotRead> {
  await new Promise((resolve) => setImmediate(resolve));
  return readVectorSnapshot(source, dimension, null);
}

/** The vector snapshot a session searches, read again only when another connection committed since. */
export class VectorSnapshots {
  constructor(
    private readonly source: VectorSource,
    /** The model's dimension; 0 for a model that never loaded for this index, which then holds no vectors. */
    private readonly dimension: number,
    private cache: VectorSnapshotRead | null,
  ) {}

  /** The current snapshot, or null when the index holds no vectors (or the model has no dimension). */
  current(): VectorIndex | null {
    if (this.dimension === 0) return null;
    const cached = this.cache;
    if (cached?.version === this.source.connection.dataVersion()) return cached.index;
    this.cache = readVectorSnapshot(this.source, this.dimension, cached);
    return this.cache.index;
  }

  /** Chunks waiting in the embedding queue: the queue the current vector snapshot was read with. */
  pending(): number {
    this.current();
    return this.cache?.mark.queued.length ?? this.source.queue.size();
  }

  /** Drop the snapshot (the session is retired). */
  drop(): void {
    this.cache = null;
  }
}
