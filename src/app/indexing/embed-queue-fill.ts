// The second stage of a run: embed the queued chunks (written before their vectors, so they are searchable
// lexically already), shortest inputs first so each call holds inputs of about one length, storing each call's
// vectors in one transaction. A killed run loses at most the call in flight; the next run starts with the rest.
import type { QueuedChunk, QueuedChunkText } from '../../store/embedding-queue.js';
import type { Embedder } from '../../types.js';
import { embeddingText } from './embed-rows.js';
import type { IndexEventSink, IndexSummary } from './index-events.js';

/** The queue as the fill stage uses it (store/embedding-queue.ts). */
export interface EmbeddingQueuePort {
  readAll(): QueuedChunk[];
  readTexts(chunkIds: readonly number[]): QueuedChunkText[];
  storeVectors(entries: readonly { chunkId: number; vector: Float32Array }[]): void;
  size(): number;
  /** Empty the queue and forget the embedding keys (the index turned out lexical-only). */
  discardAll(): void;
}

export interface FillOptions {
  embedder: Embedder;
  queue: EmbeddingQueuePort;
  contextual: boolean;
  /** Chunks per inference batch (`[embedding] batch_size`); a call carries CALL_BATCHES of them. */
  batchSize: number;
  onEvent: IndexEventSink;
  /** Asked between batches: true stops the stage (the rest stays queued for the next run). */
  shouldPause?: () => boolean;
  now?: () => number;
}

/**
 * Batches' worth of chunks per embedder call, stored in one transaction. Each call has fixed costs, so a call
 * carries several batches; more per call would lose more work to a crash and keep a live-sync edit waiting
 * longer.
 */
export const CALL_BATCHES = 4;

/** Embed the queue until it is empty or `shouldPause` says stop; counts go into the summary. */
export async function fillEmbeddingQueue(options: FillOptions, summary: IndexSummary): Promise<void> {
  const { embedder, queue, onEvent } = options;
  const now = options.now ?? (() => performance.now());
  const queued = queue.readAll();
  summary.pendingEmbeddings = queued.length;
  if (queued.length === 0) return;
  const startedAt = now();
  onEvent({ kind: 'embed-start', total: queued.length });
  const fit = { overLimit: 0, truncated: 0 };
  let done = 0;
  try {
    const perCall = options.batchSize * CALL_BATCHES;
    for (let start = 0; start < queued.length; start += perCall) {
      if (start > 0 && options.shouldPause?.()) break;
      const ids = queued.slice(start, start + perCall).map((q) => q.chunkId);
      const rows = queue.readTexts(ids);
      const texts = rows.map((row) => embeddingText(row.context, row.content, options));
      const vectors = rows.length === 0 ? [] : await embedder.embedDocuments(texts, fit);
      queue.storeVectors(rows.map((row, i) => ({ chunkId: row.chunkId, vector: vectors[i]! })));
      done += ids.length;
      summary.embeddedChunks += rows.length;
      summary.pendingEmbeddings = queued.length - done;
      onEvent({ kind: 'embedded', done, total: queued.length, elapsedMs: now() - startedAt });
    }
  } finally {
    summary.overLimitInputs += fit.overLimit;
    summary.truncatedInputs += fit.truncated;
  }
}
