// What a search returns: hits with citations, the confidence flag, the filters echoed, and each leg's health.

import { toWireKeys } from '../../config/search-params.js';
import type { DocumentFilters } from '../../rank/document-filter.js';
import type { BoostEvidence } from '../../rank/feedback-boost.js';
import type { FoldMode } from '../../rank/fold-hits.js';
import type { LegReport } from '../../types.js';
import type { StageTimings } from './stage-timings.js';

export interface MatchSpan {
  start: number;
  end: number;
}

/**
 * Where a hit's text came from beyond its own chunk: the parent retriever widened it to its whole document or
 * its chunks `fromIndex`–`toIndex`; or the graph hop pulled it in from the hit at `path` (and `heading`) over
 * an edge of this kind (the parent retriever does not widen a pulled-in hit).
 */
export type ExpandedFrom =
  | { kind: 'whole_document'; totalChunks: number }
  | { kind: 'adjacent'; fromIndex: number; toIndex: number }
  | { kind: 'link' | 'co_helpful'; path: string; heading: string | null };

/** How the graph hop scored a pulled-in hit: score = weight × parentScore × edgeWeight. */
export interface GraphExplanation {
  from: { path: string; heading: string | null };
  kind: 'link' | 'co_helpful';
  hop: number;
  weight: number;
  parentScore: number;
  edgeWeight: number;
  score: number;
}

/**
 * Why a hit ranks where it does (`explain`). Its score is, in this order: `rerankScore` when the reranker ran;
 * else `graph.score` when the graph hop pulled it in; else `rrfScore + boost` (boost 0 when the boost is off).
 */
export interface HitExplanation {
  /** Its fused RRF score; 0 for a pulled-in hit no leg found. */
  rrfScore: number;
  ranks: Record<string, number>;
  /** Which lexical stage found it, or null when only the vector leg did. */
  lexicalSource: 'words' | 'trigram' | 'substring' | null;
  /** The boost added to rrfScore; present when the boost ran. */
  boost?: number;
  /** The judgments behind the boost (weighted sums and their count), or null when none judged it. */
  boostEvidence?: BoostEvidence | null;
  graph?: GraphExplanation;
  rerankScore?: number;
}

export interface SearchHit {
  chunkId: number;
  score: number;
  path: string;
  title: string;
  heading: string | null;
  /** The headings above the chunk, outermost first (what the chunker records as its context); '' for none. */
  breadcrumb: string;
  /**
   * The first and last line (1-based) of the chunk in its source file; null for extracted formats (PDF, Office,
   * code) and for a file changed since it was indexed.
   */
  lineStart: number | null;
  lineEnd: number | null;
  level: number | null;
  topic: string | null;
  date: string | null;
  tags: string[];
  content: string;
  matchSpans: MatchSpan[];
  expandedFrom?: ExpandedFrom;
  /**
   * With `fold` on: how many lower-ranked candidates of this hit's section (or document) were left out for it;
   * absent when none were.
   */
  folded?: number;
  explain?: HitExplanation;
  /** With a token budget: the hit is one passage of its chunk, and this is what its text costs. */
  tokens?: number;
}

/** What a response with `max_tokens` spent, and how it counted. */
export interface TokenBudgetReport {
  maxTokens: number;
  tokensUsed: number;
  /** `estimate` (the per-script rule), or the id of the tokenizer's model. */
  counter: string;
}

export interface SearchResponse {
  results: SearchHit[];
  /**
   * The IDF-weighted share of the query's word terms that the top hit holds, in [0, 1]; 0 with no hit
   * (rank/answer-confidence.ts, docs/search.md#confidence).
   */
  confidence: number;
  /** `confidence` below the threshold in effect (`min_confidence`). */
  lowConfidence: boolean;
  /** The document filters the request gave, or null when it gave none. */
  filterApplied: DocumentFilters | null;
  legs: LegReport;
  /** Lexical-only index or vector leg unavailable: stated wherever results are shown. */
  lexicalOnly: boolean;
  /** Only with no results and no document filter: chunks holding the query's keywords that the quality filter hid. */
  hiddenByQuality?: { count: number; minQuality: number };
  /** Present when the request gave `max_tokens`: the results are passages within it. */
  budget?: TokenBudgetReport;
  /** The settings in effect that a person's text output names (not part of the wire form). */
  settings: SearchResponseSettings;
  /** With `timings`: the milliseconds each stage that ran took, and the whole search (`timings_ms`). */
  timingsMs?: StageTimings;
}

/** What the search ranked with, as the CLI's text names it: the low_confidence threshold and the fold mode. */
export interface SearchResponseSettings {
  minConfidence: number;
  /** Whether `minConfidence` is the built-in default (not fitted to this KB nor set by the request). */
  minConfidenceIsDefault: boolean;
  fold: FoldMode;
}

/** How to see what the quality filter hid, in the words of each surface. */
export const SHOW_HIDDEN_HINT =
  'search again with include_low_quality: true (CLI --include-low-quality), or a lower min_quality';

/**
 * The wire form shared by `groove search --format json` and the MCP `search` tool; a hit of a search across
 * knowledge bases also names its `kb`.
 */
export function searchResponseToJson(response: SearchResponse): Record<string, unknown> {
  return {
    results: response.results.map((hit: SearchHit & { kb?: string }) => ({
      ...(hit.kb === undefined ? {} : { kb: hit.kb }),
      score: hit.score,
      path: hit.path,
      title: hit.title,
      heading: hit.heading,
      line_start: hit.lineStart,
      line_end: hit.lineEnd,
      topic: hit.topic,
      date: hit.date,
      tags: hit.tags,
      content: hit.content,
      match_spans: hit.matchSpans,
      ...(hit.expandedFrom ? { expanded_from: expandedFromToJson(hit.expandedFrom) } : {}),
      ...(hit.folded ? { folded: hit.folded } : {}),
      ...(hit.explain ? { explain: explanationToJson(hit.explain) } : {}),
      ...(hit.tokens === undefined ? {} : { tokens: hit.tokens }),
    })),
    confidence: roundConfidence(response.confidence),
    low_confidence: response.lowConfidence,
    filter_applied: response.filterApplied && toWireKeys(response.filterApplied),
    legs: response.legs,
    ...(response.timingsMs ? { timings_ms: response.timingsMs } : {}),
    ...(response.budget
      ? {
          max_tokens: response.budget.maxTokens,
          tokens_used: response.budget.tokensUsed,
          token_counter: response.budget.counter,
        }
      : {}),
    ...(response.hiddenByQuality
      ? {
          hidden_by_quality: {
            count: response.hiddenByQuality.count,
            min_quality: response.hiddenByQuality.minQuality,
            hint: SHOW_HIDDEN_HINT,
          },
        }
      : {}),
  };
}

function expandedFromToJson(from: ExpandedFrom): Record<string, unknown> {
  switch (from.kind) {
    case 'whole_document':
      return { kind: from.kind, total_chunks: from.totalChunks };
    case 'adjacent':
      return { kind: from.kind, from_index: from.fromIndex, to_index: from.toIndex };
    default:
      return {
        kind: from.kind,
        path: from.path,
        ...(from.heading === null ? {} : { heading: from.heading }),
      };
  }
}

function explanationToJson(explain: HitExplanation): Record<string, unknown> {
  const { boostEvidence: evidence, graph } = explain;
  return {
    rrf_score: explain.rrfScore,
    ranks: explain.ranks,
    lexical_source: explain.lexicalSource,
    ...(explain.boost === undefined ? {} : { boost: explain.boost }),
    ...(evidence === undefined
      ? {}
      : {
          boost_evidence: evidence && {
            helped: evidence.helped,
            negative: evidence.negative,
            judgments: evidence.judgments,
          },
        }),
    ...(graph === undefined
      ? {}
      : {
          graph: {
            from: { path: graph.from.path, heading: graph.from.heading },
            kind: graph.kind,
            hop: graph.hop,
            weight: graph.weight,
            parent_score: graph.parentScore,
            edge_weight: graph.edgeWeight,
            score: graph.score,
          },
        }),
    ...(explain.rerankScore === undefined ? {} : { rerank_score: explain.rerankScore }),
  };
}

/** Confidence on the wire: three decimals are all it means. */
function roundConfidence(confidence: number): number {
  return Math.round(confidence * 1000) / 1000;
}
