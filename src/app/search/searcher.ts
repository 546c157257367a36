// The one search pipeline shared by the CLI, the MCP server and eval.
import { DEFAULTS } from '../../config/defaults.js';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { chunkModelText } from '../../document/chunk-model-input.js';
import { answeredLeg, disabledLeg, failedLeg } from '../../measure/leg-health.js';
import { isLowConfidence } from '../../rank/answer-confidence.js';
import { presentFilters } from '../../rank/document-filter.js';
import { type FoldMode, foldKey, foldRanked } from '../../rank/fold-hits.js';
import { fuseRrf } from '../../rank/fuse-rrf.js';
import type { LearnedSignals } from '../../rank/learned-signals.js';
import { computeMatchSpans } from '../../rank/match-spans.js';
import { selectMmr } from '../../rank/mmr.js';
import type { SearchReader } from '../../store/chunk-search.js';
import type { ChunkRecord, Embedder, LegHealth, Reranker } from '../../types.js';
import { measureAnswerConfidence } from './answer-confidence-terms.js';
import {
  type LexicalLegResult,
  runLexicalLeg,
  runVectorLeg,
  type VectorLegSource,
  type VectorSnapshot,
} from './candidate-legs.js';
import { checkSearchRequest } from './checked-search.js';
import { applyLearnedStages, type RankedEntry } from './learned-stages.js';
import { type CandidateLeg, selectLegs, VECTOR_ONLY_WITHOUT_MODEL } from './leg-selection.js';
import { expandHit } from './parent-retriever.js';
import { type EffectiveSearchParams, resolveSearchParams } from './resolve-search-params.js';
import type { SearchCache } from './search-cache.js';
import { resolveDocumentIds } from './search-filters.js';
import type { ExpandedFrom, SearchHit, SearchResponse } from './search-types.js';
import { type StageClock, startStageClock } from './stage-timings.js';

/** What one search reads: the store's statements, the session's caches over them, the models and snapshots. */
export interface SearchContext {
  reader: SearchReader;
  /** The document facts and the in-memory word ranking, read from memory where the session keeps them. */
  cache: SearchCache;
  config: ResolvedConfig;
  embedder: Embedder | null;
  reranker: Reranker | null;
  /** The current vector snapshot (loaded lazily by the caller), or null for a lexical-only index. */
  vectors: () => VectorSnapshot | null;
  /** Chunks still waiting for their vector (a first index filling in behind its lexical rows). */
  pendingEmbeddings?: () => number;
  /** Why the embedding model could not load; the vector leg then fails with it. */
  embedderLoadError?: string | null;
  /** The lines of its source file a chunk spans, or null when they cannot be told. */
  linesOf?: (record: ChunkRecord) => { start: number; end: number } | null;
  /** What the recorded judgments teach the boost and the graph hop (built lazily, cached by the caller). */
  learned: () => LearnedSignals;
  /**
   * Vector legs of other embedding models (knowledge bases searched together whose models differ): each is run
   * and fused by rank as a leg of its own, named `vector:<model>`.
   */
  otherModels?: readonly { model: string; legs: VectorLegSource }[];
}

export interface SearchOptions {
  /**
   * Learn from these signals instead of the context's: eval's honest rows hand each query the signals of the
   * judgments it did not produce.
   */
  learned?: LearnedSignals;
  /**
   * Leave one candidate leg out (eval's stage ablation): it is not run and reports `disabled`, so fusion ranks
   * what the other leg found. Never set by a user-facing surface.
   */
  skipLeg?: CandidateLeg;
}

export type { CandidateLeg } from './leg-selection.js';

/**
 * Stages: validate and compile the request (word-level, trigram, exclusions, short CJK terms; once, see
 * checked-search.ts) → resolve filters to documents → lexical leg (word-level bm25 ranks; trigram and substring
 * hits only fill what words left) and vector leg (exact KNN, exclusions removed) → RRF → optional boost →
 * optional graph hop → optional rerank → optional fold → optional MMR → confidence and low_confidence → optional parent
 * retriever → match_spans → response with leg health, the settings it was ranked with and, when the request asks
 * (`timings`), the time each stage took. The request's `legs`, or eval's stage ablation (`skipLeg`), may skip one
 * candidate leg; fusion then ranks by the other leg alone.
 */
export async function runSearch(
  context: SearchContext,
  input: unknown,
  options: SearchOptions = {},
): Promise<SearchResponse> {
  const clock = startStageClock();
  const { request, query: compiled } = checkSearchRequest(input);
  const { reader } = context;
  const params = resolveSearchParams(request, context.config);
  const { limit, minQuality } = params;
  const { trigram, words } = compiled;

  const documentIds = resolveDocumentIds(context.cache, request);
  const useMmr = params.mmr !== null;
  const useRerank = Boolean(context.reranker) && params.rerank;
  const useFold = params.fold !== 'none';
  const pool = Math.max(limit * 5, 50);
  const excluded = trigram.negativeExpression
    ? reader.findExcludedChunkIds(trigram.negativeExpression)
    : new Set<number>();

  const f = params.fusion;
  const { skipped, skippedHealth, requestedAlone } = selectLegs(request.legs, options.skipLeg);
  // Start the query embedding first: it runs on the inference thread while the lexical leg runs here.
  const vectorLeg = (legs: VectorLegSource) =>
    skipped === 'vector'
      ? Promise.resolve({ ids: [], health: skippedHealth })
      : runVectorLeg(legs, trigram.positiveText, { pool, minQuality, documentIds, excluded });
  const pendingVector = clock.timeAsync('vector', vectorLeg(context));
  const otherModels = context.otherModels ?? [];
  const pendingOthers = Promise.all(otherModels.map((other) => vectorLeg(other.legs)));
  const lexical: LexicalLegResult =
    skipped === 'lexical'
      ? { ids: [], source: new Map(), health: skippedHealth }
      : clock.time('lexical', () =>
          runLexicalLeg(reader, compiled, {
            weights: {
              heading: f.bm25HeadingWeight,
              context: f.bm25ContextWeight,
              content: f.bm25ContentWeight,
            },
            pool,
            minQuality,
            documentIds,
            words: context.cache.words,
          }),
        );
  const answered = await pendingVector;
  // A vector leg asked for alone on an index without a model answers nothing and says why.
  const vector =
    requestedAlone === 'vector' && context.embedder === null
      ? { ...answered, health: VECTOR_ONLY_WITHOUT_MODEL }
      : answered;
  if (vector.health.status === 'disabled') clock.drop('vector');
  const others = await pendingOthers;
  const fused = clock.time('fusion', () =>
    fuseRrf(
      [
        { name: 'lexical', ids: lexical.ids },
        { name: 'vector', ids: vector.ids },
        ...others.map((other, i) => ({ name: `vector:${otherModels[i]!.model}`, ids: other.ids })),
      ],
      { k: f.rrfK },
    ),
  );
  let ranked: RankedEntry[] = fused.map((f) => ({
    id: f.id,
    score: f.score,
    explain: explainOf(f, lexical),
  }));
  ranked = applyLearnedStages(reader, ranked, {
    boost: params.boost,
    graph: params.graph,
    limit,
    rrfK: f.rrfK,
    minQuality,
    documentIds,
    excluded,
    learned: () => options.learned ?? context.learned(),
    clock,
  });
  if (!useMmr && !useRerank && !useFold) ranked = ranked.slice(0, limit);
  let records = new Map(reader.readChunkRecords(ranked.map((r) => r.id)).map((r) => [r.id, r]));

  let rerankHealth: LegHealth = disabledLeg();
  if (useRerank && context.reranker) {
    const reranked = await clock.timeAsync('rerank', rerank(context, request.query, ranked, records));
    rerankHealth = reranked.health;
    ranked = useMmr || useFold ? reranked.ranked : reranked.ranked.slice(0, limit);
  }
  // Folding sees the final scores; MMR then picks from one hit per section (or document).
  const foldLimit = useMmr ? ranked.length : limit;
  if (useFold) ranked = clock.time('fold', () => applyFold(ranked, records, params.fold, foldLimit));
  const mmr = params.mmr;
  if (mmr) ranked = clock.time('mmr', () => applyMmr(context, ranked, records, { ...mmr, limit }));
  const confidence = measureAnswerConfidence(reader, words.terms, ranked[0]?.id ?? null, {
    words: context.cache.words,
    weights: { heading: f.bm25HeadingWeight, context: f.bm25ContextWeight, content: f.bm25ContentWeight },
  });
  records = new Map([...records].filter(([id]) => ranked.some((r) => r.id === id)));
  const spanTerms = [...trigram.phrases, ...trigram.shortTerms, ...words.terms];
  const results = ranked.flatMap((entry) => {
    const record = records.get(entry.id);
    return record ? [toHit(context, record, entry, { params, spanTerms, clock })] : [];
  });
  const hidden = countHiddenByQuality(reader, trigram.expression, {
    nothingShown: results.length === 0 && skipped !== 'lexical',
    minQuality,
    filtered: documentIds !== null,
    excluded,
  });
  return {
    results,
    confidence,
    lowConfidence: isLowConfidence(confidence, params.minConfidence),
    filterApplied: presentFilters(request),
    legs: {
      lexical: lexical.health,
      vector: vector.health,
      reranker: rerankHealth,
      ...(others.length > 0 ? { vectorByModel: vectorByModel(context, vector.health, others) } : {}),
    },
    lexicalOnly: context.embedder === null,
    ...(hidden > 0 ? { hiddenByQuality: { count: hidden, minQuality } } : {}),
    settings: {
      minConfidence: params.minConfidence,
      minConfidenceIsDefault: params.minConfidence === DEFAULTS.search.minConfidence,
      fold: params.fold,
    },
    ...(request.timings ? { timingsMs: clock.timings() } : {}),
  };
}

/**
 * With nothing shown, no document filter and a quality floor: the chunks holding the query as keywords (the
 * trigram table's matches, exclusions left out), every one of which the floor hid. Else 0.
 */
function countHiddenByQuality(
  reader: SearchContext['reader'],
  expression: string | null,
  options: { nothingShown: boolean; minQuality: number; filtered: boolean; excluded: ReadonlySet<number> },
): number {
  if (!options.nothingShown || options.minQuality <= 0 || options.filtered || expression === null) return 0;
  let count = 0;
  for (const id of reader.findExcludedChunkIds(expression)) if (!options.excluded.has(id)) count++;
  return count;
}

/** Each model's vector leg health, by model id (the first knowledge base's model first). */
function vectorByModel(
  context: SearchContext,
  first: LegHealth,
  others: readonly { health: LegHealth }[],
): Record<string, LegHealth> {
  const byModel: Record<string, LegHealth> = { [context.embedder?.id ?? 'none']: first };
  (context.otherModels ?? []).forEach((other, i) => {
    byModel[other.model] = others[i]!.health;
  });
  return byModel;
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
    const contextual = context.config.contextual.enabled;
    const passages = present.map((r) => {
      const record = records.get(r.id)!;
      return chunkModelText(record.context, record.content, contextual);
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
  options: { lambda: number; sameDocPenalty: number; limit: number },
): RankedEntry[] {
  const index = context.vectors();
  const picked = selectMmr(
    ranked.map((r) => ({
      id: r.id,
      docId: records.get(r.id)?.documentId ?? -1,
      relevance: r.score,
      vector: index?.vectorOf(r.id) ?? null,
    })),
    options,
  );
  const byId = new Map(ranked.map((r) => [r.id, r]));
  return picked.map((id) => byId.get(id)!);
}

/** One hit per section (or document) under `mode`, refilled up to `limit`; each carries what it folded. */
function applyFold(
  ranked: readonly RankedEntry[],
  records: ReadonlyMap<number, ChunkRecord>,
  mode: FoldMode,
  limit: number,
): RankedEntry[] {
  const keyOf = (entry: RankedEntry) => {
    const record = records.get(entry.id);
    return foldKey(
      mode,
      record ? { documentId: record.documentId, breadcrumb: record.context, heading: record.heading } : null,
    );
  };
  return foldRanked(ranked, keyOf, limit).map(({ entry, folded }) =>
    folded > 0 ? { ...entry, folded } : entry,
  );
}

function linesField(context: SearchContext, record: ChunkRecord) {
  const lines = context.linesOf?.(record) ?? null;
  return { lineStart: lines?.start ?? null, lineEnd: lines?.end ?? null };
}

function toHit(
  context: SearchContext,
  record: ChunkRecord,
  entry: RankedEntry,
  options: { params: EffectiveSearchParams; spanTerms: string[]; clock: StageClock },
): SearchHit {
  const parent = options.params.parentRetriever;
  const graph = entry.explain.graph;
  // A pulled-in hit is served as the chunk the hop chose; its expanded_from names the hit it came from.
  const expansion =
    parent && !graph ? options.clock.time('parent', () => expandHit(context.reader, record, parent)) : null;
  const content = expansion?.content ?? record.content;
  const expandedFrom: ExpandedFrom | undefined = graph
    ? { kind: graph.kind, path: graph.from.path, heading: graph.from.heading }
    : expansion?.expandedFrom;
  return {
    chunkId: record.id,
    score: entry.score,
    path: record.path,
    title: record.title,
    heading: record.heading,
    breadcrumb: record.context,
    ...linesField(context, record),
    level: record.level,
    topic: record.topic,
    date: record.date,
    tags: record.tags,
    content,
    matchSpans: computeMatchSpans(content, options.spanTerms),
    ...(expandedFrom ? { expandedFrom } : {}),
    ...(entry.folded ? { folded: entry.folded } : {}),
    ...(options.params.explain ? { explain: entry.explain } : {}),
  };
}
