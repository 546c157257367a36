// What a search returns: hits with citations, the confidence flag, the filters echoed, and each leg's health.

import { toWireKeys } from '../../config/search-params.js';
import type { DocumentFilters } from '../../core/document-filter.js';
import type { LegReport } from '../../types.js';

export interface MatchSpan {
  start: number;
  end: number;
}

/** What the parent retriever widened a hit to: its whole document, or its chunks `fromIndex`–`toIndex`. */
export type ExpandedFrom =
  | { kind: 'whole_document'; totalChunks: number }
  | { kind: 'adjacent'; fromIndex: number; toIndex: number };

/** Why a hit ranks where it does (`explain`): its fused score, its rank in each leg, and the reranker's score. */
export interface HitExplanation {
  rrfScore: number;
  ranks: Record<string, number>;
  /** Which lexical stage found it, or null when only the vector leg did. */
  lexicalSource: 'words' | 'trigram' | 'substring' | null;
  rerankScore?: number;
}

export interface SearchHit {
  chunkId: number;
  score: number;
  path: string;
  title: string;
  heading: string | null;
  level: number | null;
  topic: string | null;
  date: string | null;
  tags: string[];
  content: string;
  matchSpans: MatchSpan[];
  expandedFrom?: ExpandedFrom;
  explain?: HitExplanation;
}

export interface SearchResponse {
  results: SearchHit[];
  lowConfidence: boolean;
  /** The document filters the request gave, or null when it gave none. */
  filterApplied: DocumentFilters | null;
  legs: LegReport;
  /** Lexical-only index or vector leg unavailable: stated wherever results are shown. */
  lexicalOnly: boolean;
}

/** The wire form shared by `groove search --format json` and the MCP `search` tool. */
export function searchResponseToJson(response: SearchResponse): Record<string, unknown> {
  return {
    results: response.results.map((hit) => ({
      score: hit.score,
      path: hit.path,
      title: hit.title,
      heading: hit.heading,
      topic: hit.topic,
      date: hit.date,
      tags: hit.tags,
      content: hit.content,
      match_spans: hit.matchSpans,
      ...(hit.expandedFrom ? { expanded_from: expandedFromToJson(hit.expandedFrom) } : {}),
      ...(hit.explain ? { explain: explanationToJson(hit.explain) } : {}),
    })),
    low_confidence: response.lowConfidence,
    filter_applied: response.filterApplied && toWireKeys(response.filterApplied),
    legs: response.legs,
  };
}

function expandedFromToJson(from: ExpandedFrom): Record<string, unknown> {
  return from.kind === 'whole_document'
    ? { kind: from.kind, total_chunks: from.totalChunks }
    : { kind: from.kind, from_index: from.fromIndex, to_index: from.toIndex };
}

function explanationToJson(explain: HitExplanation): Record<string, unknown> {
  return {
    rrf_score: explain.rrfScore,
    ranks: explain.ranks,
    lexical_source: explain.lexicalSource,
    ...(explain.rerankScore === undefined ? {} : { rerank_score: explain.rerankScore }),
  };
}
