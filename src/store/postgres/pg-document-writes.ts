// The shared store's document writes, each inside a write transaction and scoped to one kb_id: a document
// replaced with every row under it, documents removed, new file dates, vectors stored behind the text. Each
// returns the chunks it changed, for the change log replicas follow.
import type pg from 'pg';
import { toSql } from 'pgvector';
import type { DocumentBundle, StoredRow, VectorBatch } from '../../core/index-storage.js';
import type { ChunkChange } from './commit-notices.js';
import { insertRows } from './pg-rows.js';
import { DOCUMENT_TABLES } from './pg-schema.js';

/** Replace the documents `replacedIds` and whatever sits at the bundle's path with `bundle`. */
export async function replaceDocumentRows(
  client: pg.ClientBase,
  kbId: number,
  bundle: DocumentBundle,
  replacedIds: readonly number[],
): Promise<ChunkChange[]> {
  const replaced = await client.query<{ id: number }>(
    'SELECT id FROM groove_documents WHERE kb_id = $1 AND (id = ANY($2) OR path = $3)',
    [kbId, [...replacedIds], bundle.document.path as string],
  );
  const gone = await deleteDocumentRows(
    client,
    kbId,
    replaced.rows.map((row) => row.id),
  );
  await insertRows(client, 'groove_documents', kbId, [bundle.document]);
  await insertRows(client, DOCUMENT_TABLES.chunks, kbId, bundle.chunks);
  await insertRows(client, DOCUMENT_TABLES.wordCounts, kbId, bundle.wordCounts);
  await insertRows(client, DOCUMENT_TABLES.queue, kbId, bundle.queue);
  await insertVectors(client, kbId, bundle.vectors);
  await insertRows(client, DOCUMENT_TABLES.links, kbId, bundle.links);
  await insertRows(client, DOCUMENT_TABLES.names, kbId, bundle.names);
  const added = bundle.chunks.map((chunk): ChunkChange => ({ chunkId: chunk.id as number, op: 'upsert' }));
  return [...gone, ...added];
}

/** Delete documents with everything under them; the chunks they held, as change-log deletes. */
export async function deleteDocumentRows(
  client: pg.ClientBase,
  kbId: number,
  ids: readonly number[],
): Promise<ChunkChange[]> {
  if (ids.length === 0) return [];
  const chunks = await client.query<{ id: number }>(
    `SELECT id FROM ${DOCUMENT_TABLES.chunks} WHERE kb_id = $1 AND document_id = ANY($2)`,
    [kbId, [...ids]],
  );
  await client.query('DELETE FROM groove_documents WHERE kb_id = $1 AND id = ANY($2)', [kbId, [...ids]]);
  return chunks.rows.map((row) => ({ chunkId: row.id, op: 'delete' }));
}

/** New size and mtime of documents whose bytes did not change. */
export async function touchDocumentRows(
  client: pg.ClientBase,
  kbId: number,
  rows: readonly { id: number; sizeBytes: number; mtimeMs: number }[],
): Promise<void> {
  await client.query(
    `UPDATE groove_documents d SET size_bytes = v.size_bytes, mtime_ms = v.mtime_ms
     FROM unnest($2::integer[], $3::bigint[], $4::double precision[]) AS v(id, size_bytes, mtime_ms)
     WHERE d.kb_id = $1 AND d.id = v.id`,
    [kbId, rows.map((r) => r.id), rows.map((r) => r.sizeBytes), rows.map((r) => r.mtimeMs)],
  );
}

/** Vectors stored for queued chunks, and the queue entries they settle. */
export async function storeVectorRows(
  client: pg.ClientBase,
  kbId: number,
  batch: VectorBatch,
): Promise<ChunkChange[]> {
  await client.query('DELETE FROM groove_chunk_vectors WHERE kb_id = $1 AND chunk_id = ANY($2)', [
    kbId,
    [...batch.vectors.keys()],
  ]);
  await insertVectors(client, kbId, batch.vectors);
  await client.query('DELETE FROM groove_embedding_queue WHERE kb_id = $1 AND chunk_id = ANY($2)', [
    kbId,
    batch.dequeued,
  ]);
  const touched = new Set([...batch.vectors.keys(), ...batch.dequeued]);
  return [...touched].map((chunkId): ChunkChange => ({ chunkId, op: 'upsert' }));
}

async function insertVectors(
  client: pg.ClientBase,
  kbId: number,
  vectors: ReadonlyMap<number, Float32Array>,
) {
  const rows = [...vectors].map(
    ([chunkId, vector]): StoredRow => ({ chunk_id: chunkId, embedding: toSql(Array.from(vector)) }),
  );
  await insertRows(client, 'groove_chunk_vectors', kbId, rows, { embedding: 'vector' });
}
