// Groups an index's rows, read table by table, into one bundle per document (the unit a shared store writes).
import type { DocumentBundle, StoredRow } from './index-storage.js';

/** The rows of every per-document table, each in its primary-key order. */
export interface IndexTables {
  documents: readonly StoredRow[];
  chunks: readonly StoredRow[];
  wordCounts: readonly StoredRow[];
  queue: readonly StoredRow[];
  links: readonly StoredRow[];
  names: readonly StoredRow[];
  vectors: ReadonlyMap<number, Float32Array>;
}

function groupBy(rows: readonly StoredRow[], key: string): Map<number, StoredRow[]> {
  const groups = new Map<number, StoredRow[]>();
  for (const row of rows) {
    const id = row[key] as number;
    const group = groups.get(id);
    if (group) group.push(row);
    else groups.set(id, [row]);
  }
  return groups;
}

/** One bundle per document, in the order of `tables.documents`; rows of unknown documents are dropped. */
export function bundleDocuments(tables: IndexTables): DocumentBundle[] {
  const chunks = groupBy(tables.chunks, 'document_id');
  const wordCounts = groupBy(tables.wordCounts, 'chunk_id');
  const queue = groupBy(tables.queue, 'chunk_id');
  const links = groupBy(tables.links, 'document_id');
  const names = groupBy(tables.names, 'document_id');
  return tables.documents.map((document): DocumentBundle => {
    const id = document.id as number;
    const own = chunks.get(id) ?? [];
    const chunkIds = own.map((chunk) => chunk.id as number);
    return {
      document,
      chunks: own,
      wordCounts: chunkIds.flatMap((chunkId) => wordCounts.get(chunkId) ?? []),
      queue: chunkIds.flatMap((chunkId) => queue.get(chunkId) ?? []),
      vectors: new Map(
        chunkIds.flatMap((chunkId): [number, Float32Array][] => {
          const vector = tables.vectors.get(chunkId);
          return vector ? [[chunkId, vector]] : [];
        }),
      ),
      links: links.get(id) ?? [],
      names: names.get(id) ?? [],
    };
  });
}
