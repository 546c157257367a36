// Reads of one knowledge base's rows inside a caller's read transaction: the whole KB as document bundles, or only
// what changed against what a replica's working copy holds (documents are never rewritten under the same id, so
// comparing id sets finds every added, rewritten and removed document exactly).
import type pg from 'pg';
import { bundleDocuments } from '../../core/document-bundles.js';
import type { DocumentBundle, IndexDelta, KnownContents } from '../../core/index-storage.js';
import { readRowsWhere } from './pg-rows.js';
import { DOCUMENT_TABLES } from './pg-schema.js';

/** A statement's condition and its values, `$2`… (`$1` is always the KB id). */
interface Selection {
  condition: string;
  values: unknown[];
}

const EVERYTHING: Selection = { condition: 'true', values: [] };

/**
 * The documents `documentIds` (every document when null) with every row stored under them (vectors only where
 * the vector table exists).
 */
export async function readBundles(
  client: pg.ClientBase,
  kbId: number,
  documentIds: readonly number[] | null,
): Promise<DocumentBundle[]> {
  const rows = (table: string, order: string, where: Selection) =>
    readRowsWhere(client, table, kbId, order, where.condition, where.values);
  const selected = (column: string): Selection =>
    documentIds === null ? EVERYTHING : { condition: `${column} = ANY($2)`, values: [documentIds] };
  const byChunk: Selection =
    documentIds === null
      ? EVERYTHING
      : {
          condition: `chunk_id IN (SELECT id FROM ${DOCUMENT_TABLES.chunks} WHERE kb_id = $1 AND document_id = ANY($2))`,
          values: [documentIds],
        };
  return bundleDocuments({
    documents: await rows('groove_documents', 'id', selected('id')),
    chunks: await rows(DOCUMENT_TABLES.chunks, 'id', selected('document_id')),
    wordCounts: await rows(DOCUMENT_TABLES.wordCounts, 'chunk_id', byChunk),
    queue: await rows(DOCUMENT_TABLES.queue, 'chunk_id', byChunk),
    links: await rows(DOCUMENT_TABLES.links, 'document_id, position', selected('document_id')),
    names: await rows(DOCUMENT_TABLES.names, 'document_id, name', selected('document_id')),
    vectors: await readVectors(client, kbId, byChunk),
  });
}

/** Vectors as float4 arrays (exact: float4 text round-trips), or none when the vector table does not exist. */
export async function readVectors(
  client: pg.ClientBase,
  kbId: number,
  selection: Selection = EVERYTHING,
): Promise<Map<number, Float32Array>> {
  const exists = await client.query("SELECT to_regclass('groove_chunk_vectors') IS NOT NULL AS present");
  if (!exists.rows[0]?.present) return new Map();
  const result = await client.query(
    `SELECT chunk_id, embedding::real[] AS embedding FROM groove_chunk_vectors
     WHERE kb_id = $1 AND ${selection.condition}`,
    [kbId, ...selection.values],
  );
  return new Map(
    result.rows.map((r: { chunk_id: number; embedding: number[] }) => [
      r.chunk_id,
      Float32Array.from(r.embedding),
    ]),
  );
}

/** What the store holds beyond (or no longer holds of) `known`; the caller's transaction gives one snapshot. */
export async function readDelta(
  client: pg.ClientBase,
  kbId: number,
  known: KnownContents,
): Promise<Omit<IndexDelta, 'generation'>> {
  const ids = await client.query<{ id: number }>('SELECT id FROM groove_documents WHERE kb_id = $1', [kbId]);
  const stored = new Set(ids.rows.map((row) => row.id));
  const removedIds = [...known.documentIds].filter((id) => !stored.has(id));
  const addedIds = [...stored].filter((id) => !known.documentIds.has(id));
  const added = addedIds.length === 0 ? [] : await readBundles(client, kbId, addedIds);
  const kept = await touchedChunksOfKeptDocuments(client, kbId, known);
  const touched = { condition: 'chunk_id = ANY($2)', values: [kept] };
  const vectors = kept.length === 0 ? new Map() : await readVectors(client, kbId, touched);
  const queued =
    kept.length === 0
      ? []
      : await readRowsWhere(
          client,
          DOCUMENT_TABLES.queue,
          kbId,
          'chunk_id',
          touched.condition,
          touched.values,
        );
  const meta = await readRowsWhere(client, 'groove_meta', kbId, 'key', 'true', []);
  const terms = await readRowsWhere(client, 'groove_word_terms', kbId, 'id', 'id > $2', [known.maxTermId]);
  return {
    removedIds,
    added,
    touched: kept,
    vectors,
    stillQueued: new Set(queued.map((row) => row.chunk_id as number)),
    meta: new Map(meta.map((m) => [m.key as string, m.value as string])),
    terms: new Map(terms.map((t) => [t.term as string, t.id as number])),
  };
}

/** The touched chunks whose document the working copy holds and the store still holds under the same id. */
async function touchedChunksOfKeptDocuments(
  client: pg.ClientBase,
  kbId: number,
  known: KnownContents,
): Promise<number[]> {
  if (known.touchedChunkIds.length === 0) return [];
  const { rows } = await client.query<{ id: number; document_id: number }>(
    `SELECT id, document_id FROM ${DOCUMENT_TABLES.chunks} WHERE kb_id = $1 AND id = ANY($2)`,
    [kbId, [...known.touchedChunkIds]],
  );
  return rows.filter((row) => known.documentIds.has(row.document_id)).map((row) => row.id);
}
