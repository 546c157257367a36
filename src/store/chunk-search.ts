// Read-side SQL for search: FTS MATCH legs with bm25 column weights, substring fallback, exclusion scans,
// chunk records for results, neighbours for the parent retriever, the document list for filters, and the note
// links around a set of documents (link-edges.ts).

import type { Bm25Weights, ChunkRecord, DocumentFacts, LinkEdge } from '../types.js';
import { type CorpusQuery, type PreparedCorpusRanking, prepareCorpusRanking } from './corpus-ranking.js';
import { createFtsPostingsReader, type FtsPostingsReader, readFtsTotals } from './fts-postings.js';
import { createLinkReader } from './link-edges.js';
import type { SqliteDatabase } from './open-database.js';
import { decodeTags } from './tags-column.js';

export interface LexicalQueryOptions {
  /** MATCH expression for the table. */
  expression: string;
  weights: Bm25Weights;
  limit: number;
  /** Hide chunks scoring below this quality (0 keeps all). */
  minQuality: number;
  /** Restrict to these documents; null = all. */
  documentIds: readonly number[] | null;
  /**
   * The expression's positive phrases as written, in expression order: what bm25 sums over, for a reader that
   * ranks several indexes as one (it combines their statistics per phrase). One index ranks by `expression`.
   */
  phrases?: readonly string[];
}

export type FtsTable = 'fts_words' | 'fts_chunks';

const CHUNK_COLUMNS = `c.id, c.document_id AS documentId, c.chunk_index AS chunkIndex, c.heading, c.level, c.context,
  c.content, c.byte_start AS byteStart, c.byte_end AS byteEnd, c.token_count AS tokenCount,
  c.quality_score AS qualityScore, d.path, d.title, d.topic, d.category, d.date, d.tags,
  d.size_bytes AS sizeBytes, d.mtime_ms AS mtimeMs`;

function documentClause(documentIds: readonly number[] | null): string {
  return documentIds === null ? '' : 'AND c.document_id IN (SELECT value FROM json_each(@documentIds))';
}

/** How many times `limit` rows the ranking-only passes fetch before falling back to the joined query. */
const OVERFETCH_FACTORS = [2, 16] as const;

/**
 * Ids of chunks matching `expression`, best bm25 first (SQLite's bm25 is lower-is-better), ties by rowid.
 * FTS ranks on its own first — joining `chunks` for every matching row costs more than the ranking itself — and
 * the quality and document filters are checked on the top rows only, widening the window when too few pass; a
 * filter that rejects most rows ends in the joined query, which is exact at any selectivity.
 */
export function searchFts(db: SqliteDatabase, table: FtsTable, options: LexicalQueryOptions): number[] {
  const unfiltered = options.minQuality <= 0 && options.documentIds === null;
  for (const factor of OVERFETCH_FACTORS) {
    const window = options.limit * factor;
    const ranked = rankFts(db, table, options, unfiltered ? options.limit : window);
    if (unfiltered) return ranked;
    const kept = keepAllowed(db, ranked, options);
    if (kept.length >= options.limit || ranked.length < window) return kept.slice(0, options.limit);
  }
  return searchFtsJoined(db, table, options);
}

function bm25Params(options: LexicalQueryOptions) {
  return {
    expression: options.expression,
    heading: options.weights.heading,
    context: options.weights.context,
    content: options.weights.content,
  };
}

const FTS_COLUMNS = ['heading', 'context', 'content'] as const;

/**
 * `bm25(table, …)` with each column's weight parameter in the order the table declares its columns: bm25 takes
 * weights by position, and the trigram table's order depends on when the index was created (open-database.ts).
 * Read from the schema on every call, so a session keeps ranking right after another process rebuilds the file.
 */
function bm25Call(db: SqliteDatabase, table: FtsTable): string {
  const declared = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
  const order = declared.filter((name): name is (typeof FTS_COLUMNS)[number] =>
    (FTS_COLUMNS as readonly string[]).includes(name),
  );
  if (order.length !== FTS_COLUMNS.length)
    throw new Error(`${table} does not have the columns ${FTS_COLUMNS.join(', ')}`);
  return `bm25(${table}, ${order.map((column) => `@${column}`).join(', ')})`;
}

function rankFts(db: SqliteDatabase, table: FtsTable, options: LexicalQueryOptions, limit: number): number[] {
  const sql = `SELECT rowid FROM ${table} WHERE ${table} MATCH @expression
    ORDER BY ${bm25Call(db, table)}, rowid LIMIT @limit`;
  return db
    .prepare(sql)
    .pluck()
    .all({ ...bm25Params(options), limit }) as number[];
}

/** `ids` in their order, keeping the chunks that pass the quality and document filters. */
function keepAllowed(db: SqliteDatabase, ids: readonly number[], options: LexicalQueryOptions): number[] {
  if (ids.length === 0) return [];
  const allowed = new Set(
    db
      .prepare(`SELECT c.id FROM chunks c WHERE c.id IN (SELECT value FROM json_each(@ids))
        AND c.quality_score >= @minQuality ${documentClause(options.documentIds)}`)
      .pluck()
      .all({
        ids: JSON.stringify(ids),
        minQuality: options.minQuality,
        documentIds: JSON.stringify(options.documentIds ?? []),
      }) as number[],
  );
  return ids.filter((id) => allowed.has(id));
}

/** The filters applied to every matching row inside SQLite: exact for any filter, slow for many matches. */
function searchFtsJoined(db: SqliteDatabase, table: FtsTable, options: LexicalQueryOptions): number[] {
  const sql = `SELECT f.rowid AS id FROM ${table} f JOIN chunks c ON c.id = f.rowid
    WHERE ${table} MATCH @expression AND c.quality_score >= @minQuality ${documentClause(options.documentIds)}
    ORDER BY ${bm25Call(db, table)}, f.rowid LIMIT @limit`;
  return db
    .prepare(sql)
    .pluck()
    .all({
      ...bm25Params(options),
      minQuality: options.minQuality,
      documentIds: JSON.stringify(options.documentIds ?? []),
      limit: options.limit,
    }) as number[];
}

/**
 * Substring search for terms the trigram index cannot see (1–2 characters, e.g. 東京). It scans chunk text, so
 * it is bounded: at most `scanLimit` rows are examined. Chunks containing more of the terms rank first.
 */
export function searchSubstrings(
  db: SqliteDatabase,
  terms: readonly string[],
  options: SubstringOptions,
): number[] {
  return rankSubstrings(db, terms, options).map((row) => row.id);
}

export interface SubstringOptions {
  limit: number;
  minQuality: number;
  documentIds: readonly number[] | null;
  scanLimit: number;
}

/** searchSubstrings with how many of the terms each chunk contains (what it ranks by). */
export function rankSubstrings(
  db: SqliteDatabase,
  terms: readonly string[],
  options: SubstringOptions,
): { id: number; hits: number }[] {
  if (terms.length === 0) return [];
  const likes = terms.map((_, i) => `(instr(c.content, @t${i}) > 0 OR instr(c.context, @t${i}) > 0)`);
  const params: Record<string, unknown> = {
    minQuality: options.minQuality,
    documentIds: JSON.stringify(options.documentIds ?? []),
    limit: options.limit,
    scanLimit: options.scanLimit,
  };
  terms.forEach((term, i) => {
    params[`t${i}`] = term;
  });
  const hits = likes.map((like) => `(${like})`).join(' + ');
  const sql = `SELECT id, hits FROM (
      SELECT c.id, ${hits} AS hits FROM chunks c
      WHERE c.quality_score >= @minQuality ${documentClause(options.documentIds)} LIMIT @scanLimit)
    WHERE hits > 0 ORDER BY hits DESC, id LIMIT @limit`;
  return db.prepare(sql).all(params) as { id: number; hits: number }[];
}

/**
 * How many distinct chunks match any of the expressions, each on its table: the whole lexical union, unranked
 * and unlimited (what `groove tune` compares with the chunk count to spot a clamped idf).
 */
export function countFtsUnion(
  db: SqliteDatabase,
  parts: readonly { table: FtsTable; expression: string }[],
): number {
  if (parts.length === 0) return 0;
  const selects = parts.map((part) => `SELECT rowid FROM ${part.table} WHERE ${part.table} MATCH ?`);
  return db
    .prepare(`SELECT count(*) FROM (${selects.join(' UNION ')})`)
    .pluck()
    .get(...parts.map((part) => part.expression)) as number;
}

/**
 * One rowid probe through the FTS index. The CAST matters: a rowid bound as a JS number arrives as REAL, and
 * FTS5 (3.53) then ignores the rowid constraint next to MATCH and returns every matching row.
 */
export function confirmMatch(db: SqliteDatabase, table: FtsTable, expression: string, id: number): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM ${table} WHERE ${table} MATCH ? AND rowid = CAST(? AS INTEGER)`)
      .pluck()
      .get(expression, id) !== undefined
  );
}

/** Every chunk id matching an exclusion expression (rowid only, no ranking). */
export function findExcludedChunkIds(db: SqliteDatabase, expression: string): Set<number> {
  const ids = db
    .prepare('SELECT rowid FROM fts_chunks WHERE fts_chunks MATCH ?')
    .pluck()
    .all(expression) as number[];
  return new Set(ids);
}

/** Chunk records by id, returned in the order of `ids`. */
export function readChunkRecords(db: SqliteDatabase, ids: readonly number[]): ChunkRecord[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as (Omit<ChunkRecord, 'tags'> & { tags: string })[];
  const byId = new Map(rows.map((row) => [row.id, { ...row, tags: decodeTags(row.tags) }]));
  return ids.flatMap((id) => {
    const record = byId.get(id);
    return record ? [record] : [];
  });
}

/** Chunks of one document in order, at most `maxRows`. */
export function readDocumentChunks(db: SqliteDatabase, documentId: number, maxRows: number): ChunkRecord[] {
  const rows = db
    .prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.document_id = ? ORDER BY c.chunk_index LIMIT ?`)
    .all(documentId, maxRows) as (Omit<ChunkRecord, 'tags'> & { tags: string })[];
  return rows.map((row) => ({ ...row, tags: decodeTags(row.tags) }));
}

/** Where a chunk sits: its document and heading, for the stages that look past its text (boost, graph hop). */
export interface ChunkKey {
  id: number;
  documentId: number;
  path: string;
  heading: string | null;
}

/** Chunk keys by id, returned in the order of `ids` (ids no longer stored are left out). */
export function readChunkKeys(db: SqliteDatabase, ids: readonly number[]): ChunkKey[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT c.id, c.document_id AS documentId, d.path, c.heading FROM chunks c
      JOIN documents d ON d.id = c.document_id WHERE c.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as ChunkKey[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const key = byId.get(id);
    return key ? [key] : [];
  });
}

/** The keys of a document's chunks at or above the quality floor, in document order; none for an unknown path. */
export function readDocumentChunkKeys(db: SqliteDatabase, path: string, minQuality: number): ChunkKey[] {
  return db
    .prepare(`SELECT c.id, c.document_id AS documentId, d.path, c.heading FROM chunks c
      JOIN documents d ON d.id = c.document_id WHERE d.path = ? AND c.quality_score >= ? ORDER BY c.chunk_index`)
    .all(path, minQuality) as ChunkKey[];
}

/** What filters look at for every document. */
export function readDocumentFacts(db: SqliteDatabase): DocumentFacts[] {
  const rows = db.prepare('SELECT id, path, category, topic, date, tags FROM documents').all() as (Omit<
    DocumentFacts,
    'tags'
  > & { tags: string })[];
  return rows.map((row) => ({ ...row, tags: decodeTags(row.tags) }));
}

/** The read operations search needs, bound to one connection (the app layer sees only this shape). */
export interface SearchReader {
  searchFts(table: FtsTable, options: LexicalQueryOptions): number[];
  searchSubstrings(terms: readonly string[], options: SubstringOptions): number[];
  rankSubstrings(terms: readonly string[], options: SubstringOptions): { id: number; hits: number }[];
  /** This index's matches and statistics for bm25 over several indexes as one (corpus-ranking.ts). */
  prepareCorpusRanking(query: CorpusQuery): PreparedCorpusRanking;
  findExcludedChunkIds(expression: string): Set<number>;
  countFtsUnion(parts: readonly { table: FtsTable; expression: string }[]): number;
  /** Rows of an FTS table (its own total, as bm25 counts them). */
  countRows(table: FtsTable): number;
  /** Postings of the word-level table (tune's in-memory bm25); a fresh reader each call (TEMP helper tables). */
  openWordPostings(): FtsPostingsReader;
  readChunkRecords(ids: readonly number[]): ChunkRecord[];
  readDocumentChunks(documentId: number, maxRows: number): ChunkRecord[];
  readDocumentFacts(): DocumentFacts[];
  readChunkKeys(ids: readonly number[]): ChunkKey[];
  readDocumentChunkKeys(path: string, minQuality: number): ChunkKey[];
  /** Whether FTS5 itself agrees that chunk `id` matches `expression` (a spot check of an in-memory answer). */
  confirmMatch(table: FtsTable, expression: string, id: number): boolean;
  /**
   * The note links touching `paths` (as source or target), resolved to indexed documents now: both ends indexed,
   * no self-links, one edge per (source, target, kind). Indexed lookups only (link-edges.ts), cheap per query.
   */
  readLinkEdges(paths: readonly string[]): LinkEdge[];
}

export function createSearchReader(db: SqliteDatabase): SearchReader {
  const links = createLinkReader(db);
  return {
    searchFts: (table, options) => searchFts(db, table, options),
    searchSubstrings: (terms, options) => searchSubstrings(db, terms, options),
    rankSubstrings: (terms, options) => rankSubstrings(db, terms, options),
    prepareCorpusRanking: (query) => prepareCorpusRanking(db, query),
    findExcludedChunkIds: (expression) => findExcludedChunkIds(db, expression),
    countFtsUnion: (parts) => countFtsUnion(db, parts),
    countRows: (table) => readFtsTotals(db, table).rowCount,
    openWordPostings: () => createFtsPostingsReader(db, 'fts_words'),
    readChunkRecords: (ids) => readChunkRecords(db, ids),
    readDocumentChunks: (documentId, maxRows) => readDocumentChunks(db, documentId, maxRows),
    readDocumentFacts: () => readDocumentFacts(db),
    readChunkKeys: (ids) => readChunkKeys(db, ids),
    readDocumentChunkKeys: (path, minQuality) => readDocumentChunkKeys(db, path, minQuality),
    confirmMatch: (table, expression, id) => confirmMatch(db, table, expression, id),
    readLinkEdges: (paths) => links.readLinkEdges(paths),
  };
}
