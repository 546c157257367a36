// What a search returns: hits with citations, the confidence flag, the filters echoed, and each leg's health.
import type { LegReport } from '../../types.js';

export interface MatchSpan {
  start: number;
  end: number;
}

export type ExpandedFrom =
  | { kind: 'whole_document'; total_chunks: number }
  | { kind: 'adjacent'; from_index: number; to_index: number };

export interface HitExplanation {
  rrf_score: number;
  ranks: Record<string, number>;
  lexical_source: 'words' | 'trigram' | 'substring' | null;
  rerank_score?: number;
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
  filterApplied: Record<string, unknown> | null;
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
      ...(hit.expandedFrom ? { expanded_from: hit.expandedFrom } : {}),
      ...(hit.explain ? { explain: hit.explain } : {}),
    })),
    low_confidence: response.lowConfidence,
    filter_applied: response.filterApplied,
    legs: response.legs,
  };
}
