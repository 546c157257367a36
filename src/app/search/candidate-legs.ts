// The two candidate legs of the search pipeline — query compilation, the lexical leg (word-level bm25 with
// trigram and substring fill) and the exact-KNN vector leg — shared by the searcher and `groove tune`, so tune
// sweeps exactly the lexical leg that search runs.

import { answeredLeg, disabledLeg, failedLeg } from '../../measure/leg-health.js';
import {
  type CompileFtsQueryResult,
  compileFtsQuery,
  compileWordQuery,
  type FtsQuery,
  QUERY_STOP_WORDS,
  type WordQuery,
} from '../../rank/fts-query.js';
import type { LexicalQueryOptions, SearchReader } from '../../store/chunk-search.js';
import type { VectorHit, VectorSearchOptions } from '../../store/vector-index.js';
import type { Bm25Weights, Embedder, LegHealth } from '../../types.js';
import type { WordRanking } from './search-cache.js';

/** Rows the short-term substring fallback may examine: bounds its cost on large KBs. */
export const SUBSTRING_SCAN_LIMIT = 50_000;

export type LexicalSource = 'words' | 'trigram' | 'substring';

/** A query compiled for both FTS tables; `exclusion-only` when it has nothing positive to search for. */
export type CompiledLegQuery =
  | { kind: 'query'; trigram: FtsQuery; words: WordQuery }
  | Extract<CompileFtsQueryResult, { kind: 'exclusion-only' }>;

export interface LexicalLegOptions {
  weights: Bm25Weights;
  /** Candidates wanted from the leg. */
  pool: number;
  minQuality: number;
  documentIds: readonly number[] | null;
  /** The session's in-memory word ranking, tried before FTS5 (absent or null: FTS5 ranks). */
  words?: WordRanking | null;
}

export interface LexicalLegResult {
  /** Chunk ids, best first, at most `pool`. */
  ids: number[];
  /** Which search produced each id. */
  source: Map<number, LexicalSource>;
  health: LegHealth;
}

export interface VectorLegOptions {
  pool: number;
  minQuality: number;
  documentIds: readonly number[] | null;
  /** Chunks an exclusion removed from the lexical side; the vector leg drops them too. */
  excluded: ReadonlySet<number>;
}

/** Compile once for the word-level table and the trigram table (the trigram rejection wins, as it always did). */
export function compileLegQuery(query: string): CompiledLegQuery {
  const trigram = compileFtsQuery(query);
  if (trigram.kind === 'exclusion-only') return trigram;
  // Stop words leave the word-level query only, never the index (see QUERY_STOP_WORDS).
  const words = compileWordQuery(query, { stopWords: QUERY_STOP_WORDS });
  if (words.kind === 'exclusion-only') return words;
  return { kind: 'query', trigram, words };
}

/**
 * The lexical leg: word-level bm25 ranks; trigram matches, then the bounded substring scan for 1–2 character
 * CJK terms, only fill the slots words left. A failing statement is reported as the leg's health, not thrown.
 */
export function runLexicalLeg(
  reader: SearchReader,
  query: Extract<CompiledLegQuery, { kind: 'query' }>,
  options: LexicalLegOptions,
): LexicalLegResult {
  const { trigram, words } = query;
  const { pool } = options;
  const source = new Map<number, LexicalSource>();
  const ids: number[] = [];
  const add = (found: number[], kind: LexicalSource) => {
    for (const id of found) {
      if (ids.length >= pool) return;
      if (!source.has(id)) {
        source.set(id, kind);
        ids.push(id);
      }
    }
  };
  const common = {
    weights: options.weights,
    limit: pool,
    minQuality: options.minQuality,
    documentIds: options.documentIds,
  };
  // Each stage answers or fails on its own, so a broken trigram table cannot hide the word ranking (or back).
  const errors: string[] = [];
  const stage = (run: () => number[], kind: LexicalSource) => {
    try {
      add(run(), kind);
    } catch (error) {
      errors.push(`${kind}: ${(error as Error).message}`);
    }
  };
  if (words.expression) stage(() => rankWordLeg(reader, options.words ?? null, query, common), 'words');
  if (trigram.expression && ids.length < pool) {
    const expression = trigram.expression;
    stage(
      () => reader.searchFts('fts_chunks', { ...common, expression, phrases: trigram.phrases }),
      'trigram',
    );
  }
  if (trigram.shortTerms.length > 0 && ids.length < pool) {
    stage(
      () => reader.searchSubstrings(trigram.shortTerms, { ...common, scanLimit: SUBSTRING_SCAN_LIMIT }),
      'substring',
    );
  }
  if (errors.length === 0) return { ids, source, health: answeredLeg(ids.length) };
  const error = errors.join('; ');
  if (ids.length === 0) return { ids, source, health: failedLeg(error) };
  return { ids, source, health: { status: 'partial', candidates: ids.length, error } };
}

/**
 * Word-level bm25: the session's in-memory snapshot when it can answer (no exclusions, the snapshot's weights),
 * its best hit confirmed by FTS5 so a damaged or diverged FTS table still fails loudly; else FTS5 itself.
 */
function rankWordLeg(
  reader: SearchReader,
  words: WordRanking | null,
  query: Extract<CompiledLegQuery, { kind: 'query' }>,
  common: Omit<LexicalQueryOptions, 'expression'>,
): number[] {
  const expression = query.words.expression ?? '';
  const inMemory =
    query.trigram.negatives.length === 0 && words
      ? words.rankTerms(query.words.terms, {
          weights: common.weights,
          limit: common.limit,
          minQuality: common.minQuality,
          documentIds: common.documentIds ? new Set(common.documentIds) : null,
        })
      : null;
  if (inMemory && inMemory.length > 0 && reader.confirmMatch('fts_words', expression, inMemory[0]!)) {
    return inMemory;
  }
  return reader.searchFts('fts_words', { ...common, expression, phrases: query.words.terms });
}

/** What the search reads of a vector snapshot: one index's (VectorIndex), or several indexes' as one. */
export interface VectorSnapshot {
  /** Vectors held. */
  readonly size: number;
  search(query: Float32Array, options: VectorSearchOptions): VectorHit[];
  vectorOf(chunkId: number): Float32Array | null;
}

/** What the vector leg searches: the model, the current vector snapshot and the chunks still waiting for one. */
export interface VectorLegSource {
  embedder: Embedder | null;
  vectors: () => VectorSnapshot | null;
  /** Chunks written but not embedded yet (a first index filling in); absent means none. */
  pendingEmbeddings?: () => number;
  /** Why the model could not load (the leg then fails with it, whatever the index holds); absent or null: it loaded. */
  embedderLoadError?: string | null;
}

/**
 * The vector leg: embed the positive text, exact KNN over the current snapshot, exclusions removed. While
 * chunks still wait for their vectors the leg is `partial`, with how many are embedded: it answers only from
 * those.
 */
export async function runVectorLeg(
  legs: VectorLegSource,
  text: string,
  options: VectorLegOptions,
): Promise<{ ids: number[]; health: LegHealth }> {
  if (!legs.embedder) return { ids: [], health: disabledLeg() };
  if (legs.embedderLoadError) return { ids: [], health: failedLeg(legs.embedderLoadError) };
  try {
    const index = legs.vectors();
    const pending = legs.pendingEmbeddings?.() ?? 0;
    const embedded = index?.size ?? 0;
    const health = (candidates: number): LegHealth =>
      pending > 0 ? stillEmbedding(candidates, embedded, pending) : answeredLeg(candidates);
    if (text.trim() === '') return { ids: [], health: health(0) };
    if (!index) {
      if (pending > 0) return { ids: [], health: health(0) };
      return { ids: [], health: failedLeg('the index has no vectors') };
    }
    const query = await legs.embedder.embedQuery(text);
    const hits = index.search(query, {
      k: options.pool,
      minQuality: options.minQuality,
      documentIds: options.documentIds ? new Set(options.documentIds) : null,
      excluded: options.excluded,
    });
    return { ids: hits.map((h) => h.id), health: health(hits.length) };
  } catch (error) {
    return { ids: [], health: failedLeg((error as Error).message) };
  }
}

function stillEmbedding(candidates: number, embedded: number, pending: number): LegHealth {
  const chunks = embedded + pending;
  return {
    status: 'partial',
    candidates,
    error: `embeddings are still being computed: ${embedded} of ${chunks} chunks embedded; results come from those`,
    coverage: { embedded, chunks },
  };
}
