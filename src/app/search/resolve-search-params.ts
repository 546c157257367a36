// The parameters a search actually runs with: each one from the request when it gives it, else from the
// configuration (groove.toml over DEFAULTS, merged by resolve-config.ts). The one merge rule for the
// searcher, `groove search`'s text output and eval's pipelines.
import { DEFAULTS } from '../../config/defaults.js';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { SearchRequest } from '../../config/search-params.js';
import type { JudgmentWindow } from '../../rank/counted-judgments.js';
import type { BoostParams } from '../../rank/feedback-boost.js';
import type { FoldMode } from '../../rank/fold-hits.js';
import type { GraphParams } from '../../rank/graph-hop.js';

export type { BoostParams } from '../../rank/feedback-boost.js';
export type { GraphParams } from '../../rank/graph-hop.js';

/** The request's parameters that have a configured default (the query and the filters have none). */
export type SearchKnobs = Partial<
  Pick<
    SearchRequest,
    | 'limit'
    | 'minQuality'
    | 'includeLowQuality'
    | 'rerank'
    | 'mmr'
    | 'mmrLambda'
    | 'mmrSameDocPenalty'
    | 'parentRetriever'
    | 'boost'
    | 'graph'
    | 'fold'
    | 'minConfidence'
    | 'explain'
  >
>;

export interface FusionParams {
  rrfK: number;
  bm25HeadingWeight: number;
  bm25ContextWeight: number;
  bm25ContentWeight: number;
}

export interface EffectiveSearchParams {
  limit: number;
  /** Chunks scoring below this are left out; 0 keeps every chunk. */
  minQuality: number;
  /** Whether to rerank; a search reranks only when it also has a reranker. */
  rerank: boolean;
  /** MMR's settings when MMR is on, else null. */
  mmr: { lambda: number; sameDocPenalty: number } | null;
  /** The parent retriever's settings when it is on, else null. */
  parentRetriever: { wholeDocThresholdTokens: number; maxExpandedTokens: number } | null;
  /** The boost's settings when it is on, else null. */
  boost: BoostParams | null;
  /** The graph hop's settings when it is on, else null. */
  graph: GraphParams | null;
  /** What a later hit of a section or document already ranked is folded into (rank/fold-hits.ts). */
  fold: FoldMode;
  /** `low_confidence` is set when `confidence` is below it (rank/answer-confidence.ts). */
  minConfidence: number;
  /** RRF and the bm25 column weights: configuration only, no request overrides them. */
  fusion: FusionParams;
  explain: boolean;
}

/**
 * Request over configuration. The quality floor is 0 with `includeLowQuality`, else the request's
 * `minQuality`, else the configured threshold when the quality filter is enabled, else 0. MMR's lambda and
 * penalty apply only when MMR is on (the request's `mmr`, else `[search.mmr] enabled`); the boost and the graph
 * hop likewise (`boost`, `graph`, else their [search.*] enabled); `fold` else `[search] fold`.
 */
export function resolveSearchParams(request: SearchKnobs, config: ResolvedConfig): EffectiveSearchParams {
  const { search } = config;
  const useMmr = request.mmr ?? search.mmr.enabled;
  const useParent = request.parentRetriever ?? search.parentRetriever.enabled;
  return {
    limit: request.limit ?? search.limit,
    minQuality: minQualityOf(request, config),
    rerank: request.rerank ?? config.rerankByDefault,
    mmr: useMmr
      ? {
          lambda: request.mmrLambda ?? search.mmr.lambda,
          sameDocPenalty: request.mmrSameDocPenalty ?? search.mmr.sameDocPenalty,
        }
      : null,
    parentRetriever: useParent
      ? {
          wholeDocThresholdTokens: search.parentRetriever.wholeDocThresholdTokens,
          maxExpandedTokens: search.parentRetriever.maxExpandedTokens,
        }
      : null,
    boost: (request.boost ?? search.boost.enabled) ? boostParamsOf(config) : null,
    graph: (request.graph ?? search.graph.enabled) ? graphParamsOf(config) : null,
    fold: request.fold ?? search.fold,
    minConfidence: request.minConfidence ?? search.minConfidence,
    fusion: { ...search.fusion },
    explain: request.explain ?? false,
  };
}

/** The configured boost settings, whatever its switch says. */
export function boostParamsOf(config: ResolvedConfig): BoostParams {
  const { strength, halfLifeDays, minJudgments, horizonDays } = config.search.boost;
  return { strength, halfLifeDays, minJudgments, horizonDays };
}

/** The configured graph hop settings, whatever its switch says. */
export function graphParamsOf(config: ResolvedConfig): GraphParams {
  const { hops, maxAddedPerHit, weight, links, coHelpful } = config.search.graph;
  return { hops, maxAddedPerHit, weight, links, coHelpful };
}

/** How judgments age for every learned feature: [search.boost] half_life_days and horizon_days. */
export function judgmentWindowOf(config: ResolvedConfig): JudgmentWindow {
  const { halfLifeDays, horizonDays } = config.search.boost;
  return { halfLifeDays, horizonDays };
}

function minQualityOf(request: SearchKnobs, config: ResolvedConfig): number {
  if (request.includeLowQuality) return 0;
  if (request.minQuality !== undefined) return request.minQuality;
  return config.qualityFilter.enabled ? config.qualityFilter.threshold : 0;
}

/** True when the fusion settings are the built-in ones (DEFAULTS), every field equal. */
export function isBuiltInFusion(fusion: FusionParams): boolean {
  const builtIn: FusionParams = DEFAULTS.search.fusion;
  return (Object.keys(builtIn) as (keyof FusionParams)[]).every((key) => fusion[key] === builtIn[key]);
}
