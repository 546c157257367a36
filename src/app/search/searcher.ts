// The one search pipeline shared by the CLI, the MCP server and eval.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { fuseRrf } from '../../core/fuse-rrf.js';
import { answeredLeg, disabledLeg, failedLeg } from '../../core/leg-health.js';
import { isLowConfidence } from '../../core/low-confidence.js';
import { computeMatchSpans } from '../../core/match-spans.js';
import { selectMmr } from '../../core/mmr.js';
import { GrooveError } from '../../errors.js';
import type { SearchReader } from '../../store/chunk-search.js';
import type { VectorIndex } from '../../store/vector-index.js';
import type { ChunkRecord, Embedder, LegHealth, Reranker } from '../../types.js';
import {
  type CompiledLegQuery,
  compileLegQuery,
  type LexicalLegResult,
  runLexicalLeg,
  runVectorLeg,
} from './candidate-legs.js';
import { expandHit } from './parent-retriever.js';
import { buildDocumentFilter, describeFilters } from './search-filters.js';
import { type SearchRequest, validateSearchRequest } from './search-request.js';
import type { HitExplanation, SearchHit, SearchResponse } from './search-types.js';

export interface SearchContext {
  reader: SearchReader;
  config: ResolvedConfig;
  embedder: Embedder | null;
  reranker: Reranker | null;
  /** The current vector snapshot (loaded lazily by the caller), or null for a lexical-only index. */
  vectors: () => VectorIndex | null;
}

/** Check a request without an index: its arguments, and that its query has something to search for. */
export function checkSearchRequest(input: unknown): SearchRequest {
  const request = validateSearchRequest(input);
  compileSearchable(request.query);
  return request;
}

function compileSearchable(query: string): Extract<CompiledLegQuery, { kind: 'query' }> {
  const compiled = compileLegQuery(query);
  if (compiled.kind === 'exclusion-only') throw new GrooveError('QUERY_INVALID', compiled.message);
  return compiled;
}

/**
 * Stages: validate → compile queries (word-level, trigram, exclusions, short CJK terms) → resolve filters to
 * documents → lexical leg (word-level bm25 ranks; trigram and substring hits only fill what words left) and
 * vector leg (exact KNN, exclusions removed) → RRF → optional rerank → optional MMR → low_confidence →
 * optional parent retriever → match_spans → response with leg health.
 */
export async function runSearch(context: SearchContext, input: unknown): Promise<SearchResponse> {
  const request = validateSearchRequest(input);
  const { config, reader } = context;
  const limit = request.limit ?? config.search.limit;
  const compiled = compileSearchable(request.query);
  const { trigram, words } = compiled;

  const minQuality = effectiveMinQuality(request, config);
  const documentIds = resolveDocumentIds(reader, request);
  const useMmr = request.mmr ?? config.search.mmr.enabled;
  const useRerank = Boolean(context.reranker) && (request.rerank ?? config.rerankByDefault);
  const pool = Math.max(limit * 5, 50);
  const excluded = trigram.negativeExpression
    ? reader.findExcludedChunkIds(trigram.negativeExpression)
    : new Set<number>();

  const f = config.search.fusion;
  // Start the query embedding first: it runs on the inference thread while the lexical leg runs here.
  const pendingVector = runVectorLeg(context, trigram.positiveText, {
    pool,
    minQuality,
    documentIds,
    excluded,
  });
  const lexical = runLexicalLeg(reader, compiled, {
    weights: { heading: f.bm25HeadingWeight, context: f.bm25ContextWeight, content: f.bm25ContentWeight },
    pool,
    minQuality,
    documentIds,
  });
  const vector = await pendingVector;
  const fused = fuseRrf(
    [
      { name: 'lexical', ids: lexical.ids },
      { name: 'vector', ids: vector.ids },
    ],
    { k: config.search.fusion.rrfK },
  );
  let ranked = fused.map((f) => ({ id: f.id, score: f.score, explain: explainOf(f, lexical) }));
  if (!useMmr && !useRerank) ranked = ranked.slice(0, limit);
  let records = new Map(reader.readChunkRecords(ranked.map((r) => r.id)).map((r) => [r.id, r]));

  let rerankHealth: LegHealth = disabledLeg();
  if (useRerank && context.reranker) {
    const reranked = await rerank(context, request.query, ranked, records);
    rerankHealth = reranked.health;
    ranked = useMmr ? reranked.ranked : reranked.ranked.slice(0, limit);
  }
  if (useMmr) ranked = applyMmr(context, ranked, records, request, limit);
  const lowConfidence = isLowConfidence(
    ranked.map((r) => r.score),
    request.minConfidenceRatio ?? config.search.minConfidenceRatio,
  );
  records = new Map([...records].filter(([id]) => ranked.some((r) => r.id === id)));
  const spanTerms = [...trigram.phrases, ...trigram.shortTerms, ...words.terms];
  const results = ranked.flatMap((entry) => {
    const record = records.get(entry.id);
    return record ? [toHit(context, record, entry, { request, spanTerms })] : [];
  });
  return {
    results,
    lowConfidence,
    filterApplied: describeFilters(request) as Record<string, unknown> | null,
    legs: { lexical: lexical.health, vector: vector.health, reranker: rerankHealth },
    lexicalOnly: context.embedder === null,
  };
}

function effectiveMinQuality(request: SearchRequest, config: ResolvedConfig): number {
  if (request.includeLowQuality) return 0;
  if (request.minQuality !== undefined) return request.minQuality;
  return config.qualityFilter.enabled ? config.qualityFilter.threshold : 0;
}

function resolveDocumentIds(reader: SearchReader, request: SearchRequest): number[] | null {
  const filter = buildDocumentFilter(request);
  if (!filter) return null;
  return reader
    .readDocumentFacts()
    .filter(filter)
    .map((doc) => doc.id);
}

interface RankedEntry {
  id: number;
  score: number;
  explain: HitExplanation;
}

function explainOf(
  fused: { score: number; ranks: Record<string, number>; id: number },
  lexical: LexicalLegResult,
) {
  return { rrfScore: fused.score, ranks: fused.ranks, lexicalSource: lexical.source.get(fused.id) ?? null };
}

async function rerank(
  context: SearchContext,
  query: string,
  ranked: RankedEntry[],
  records: Map<number, ChunkRecord>,
): Promise<{ ranked: RankedEntry[]; health: LegHealth }> {
  const present = ranked.filter((r) => records.has(r.id));
  try {
    const passages = present.map((r) => {
      const record = records.get(r.id)!;
      return context.config.contextual.enabled && record.context
        ? `${record.context}\n\n${record.content}`
        : record.content;
    });
    const scores = await context.reranker!.score(query, passages);
    const rescored = present.map((r, i) => ({
      ...r,
      score: scores[i]!,
      explain: { ...r.explain, rerankScore: scores[i]! },
    }));
    rescored.sort((a, b) => b.score - a.score || a.id - b.id);
    return { ranked: rescored, health: answeredLeg(rescored.length) };
  } catch (error) {
    return { ranked, health: failedLeg((error as Error).message) };
  }
}

function applyMmr(
  context: SearchContext,
  ranked: RankedEntry[],
  records: Map<number, ChunkRecord>,
  request: SearchRequest,
  limit: number,
): RankedEntry[] {
  const index = context.vectors();
  const mmr = context.config.search.mmr;
  const picked = selectMmr(
    ranked.map((r) => ({
      id: r.id,
      docId: records.get(r.id)?.documentId ?? -1,
      relevance: r.score,
      vector: index?.vectorOf(r.id) ?? null,
    })),
    {
      lambda: request.mmrLambda ?? mmr.lambda,
      sameDocPenalty: request.mmrSameDocPenalty ?? mmr.sameDocPenalty,
      limit,
    },
  );
  const byId = new Map(ranked.map((r) => [r.id, r]));
  return picked.map((id) => byId.get(id)!);
}

function toHit(
  context: SearchContext,
  record: ChunkRecord,
  entry: RankedEntry,
  options: { request: SearchRequest; spanTerms: string[] },
): SearchHit {
  const { request } = options;
  const pr = context.config.search.parentRetriever;
  const expansion = (request.parentRetriever ?? pr.enabled) ? expandHit(context.reader, record, pr) : null;
  const content = expansion?.content ?? record.content;
  return {
    chunkId: record.id,
    score: entry.score,
    path: record.path,
    title: record.title,
    heading: record.heading,
    level: record.level,
    topic: record.topic,
    date: record.date,
    tags: record.tags,
    content,
    matchSpans: computeMatchSpans(content, options.spanTerms),
    ...(expansion ? { expandedFrom: expansion.expandedFrom } : {}),
    ...(request.explain ? { explain: entry.explain } : {}),
  };
}
