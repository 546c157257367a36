// Writes what an indexing run changed in the SQLite working copy back to the shared store: new and rewritten
// documents one transaction each, then removals, new file dates, vectors stored behind, the facts and judgments.
import type {
  DocumentBundle,
  IndexContents,
  IndexStorage,
  StoredRow,
  WriteBackSummary,
} from '../../core/index-storage.js';

/** Vectors written per transaction when embeddings were stored behind the text (as the embedding stage batches). */
const VECTORS_PER_TRANSACTION = 256;

interface StoredState {
  sizeBytes: number;
  mtimeMs: number;
}

function stateOf(document: StoredRow): StoredState {
  return { sizeBytes: document.size_bytes as number, mtimeMs: document.mtime_ms as number };
}

/**
 * Write `after` (the working copy once the run ended) over `before` (what the store held when it was read).
 * SQLite gives a rewritten document a new id (ids are never reused), so a document is new exactly when its id
 * is; it replaces whatever the store holds at its path. A crash or a dropped connection part-way leaves every
 * document in the store whole, old or new; the next run finds the rest changed and writes it again.
 */
export async function writeBack(
  storage: IndexStorage,
  before: IndexContents | null,
  after: IndexContents,
): Promise<WriteBackSummary> {
  const summary: WriteBackSummary = {
    documentsWritten: 0,
    documentsDeleted: 0,
    vectorsWritten: 0,
    generation: 0,
    version: 0,
  };
  const old = new Map((before?.documents ?? []).map((b) => [b.document.id as number, b]));
  const kept = new Set<number>();
  await storage.beginWriteBack(before?.generation ?? 0);
  await storage.addTerms(newTerms(before?.terms, after.terms));
  const touched: { id: number; sizeBytes: number; mtimeMs: number }[] = [];
  const settled: [DocumentBundle, DocumentBundle][] = [];
  for (const bundle of after.documents) {
    const id = bundle.document.id as number;
    const previous = old.get(id);
    if (!previous) {
      await storage.replaceDocument(bundle, []);
      summary.documentsWritten++;
      continue;
    }
    kept.add(id);
    const now = stateOf(bundle.document);
    const then = stateOf(previous.document);
    if (now.sizeBytes !== then.sizeBytes || now.mtimeMs !== then.mtimeMs) touched.push({ id, ...now });
    settled.push([previous, bundle]);
  }
  const gone = [...old.keys()].filter((id) => !kept.has(id));
  await storage.deleteDocuments(gone);
  summary.documentsDeleted = gone.length;
  await storage.touchDocuments(touched);
  summary.vectorsWritten = await writeVectorsStoredBehind(storage, settled);
  await storage.writeMeta(after.meta);
  if (!sameRows(before, after)) await storage.replaceFeedback(after.feedbackServes, after.feedbackItems);
  Object.assign(summary, await storage.endWriteBack());
  return summary;
}

/** Terms the run added (the dictionary only grows). */
function newTerms(before: ReadonlyMap<string, number> | undefined, after: ReadonlyMap<string, number>) {
  const added = new Map<string, number>();
  for (const [term, id] of after) if (!before?.has(term)) added.set(term, id);
  return added;
}

/** Vectors the embedding stage stored for documents the run did not rewrite, with the queue entries they settle. */
async function writeVectorsStoredBehind(
  storage: IndexStorage,
  pairs: readonly [DocumentBundle, DocumentBundle][],
): Promise<number> {
  let vectors = new Map<number, Float32Array>();
  let dequeued: number[] = [];
  let written = 0;
  const flush = async () => {
    await storage.storeVectors({ vectors, dequeued });
    written += vectors.size;
    vectors = new Map();
    dequeued = [];
  };
  for (const [previous, current] of pairs) {
    const waiting = new Set(current.queue.map((row) => row.chunk_id as number));
    for (const row of previous.queue) {
      const chunkId = row.chunk_id as number;
      if (waiting.has(chunkId)) continue;
      dequeued.push(chunkId);
      const vector = current.vectors.get(chunkId);
      if (vector) vectors.set(chunkId, vector);
    }
    if (vectors.size + dequeued.length >= VECTORS_PER_TRANSACTION) await flush();
  }
  await flush();
  return written;
}

/** Whether the judgments are unchanged (re-indexing moves or drops them only with renamed or removed files). */
function sameRows(before: IndexContents | null, after: IndexContents): boolean {
  const key = (contents: Pick<IndexContents, 'feedbackServes' | 'feedbackItems'>) =>
    JSON.stringify([contents.feedbackServes, contents.feedbackItems]);
  return key(before ?? { feedbackServes: [], feedbackItems: [] }) === key(after);
}
