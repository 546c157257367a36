// What a search returns: hits with citations, the confidence flag, the filters echoed, and each leg's health.
import type { DocumentFilters } from '../../core/document-filter.js';
import { toWireKeys } from './search-params.js';

/**
 * `ok`: answered with candidates; `empty`: answered with none; `partial`: one of its stages broke and the others
 * answered (the lexical leg's words, trigrams, short-term scan); `failed`: broke and contributed nothing;
 * `disabled`: not configured or not asked for.
 */
export type LegState = 'ok' | 'empty' | 'partial' | 'failed' | 'disabled';

/** One leg's health in a search response; `error` is present exactly when the state is partial or failed. */
export interface LegHealth {
  status: LegState;
  /** Candidates the leg contributed before fusion (for the reranker: the candidates it rescored). */
  candidates: number;
  error?: string;
}

export interface LegReport {
  lexical: LegHealth;
  vector: LegHealth;
  reranker: LegHealth;
}

/** The health of a leg that answered: ok with candidates, else empty. */
export function answeredLeg(candidates: number): LegHealth {
  return { status: candidates > 0 ? 'ok' : 'empty', candidates };
}

export function disabledLeg(): LegHealth {
  return { status: 'disabled', candidates: 0 };
}

export function failedLeg(error: string): LegHealth {
  return { status: 'failed', candidates: 0, error };
}

/** True when the leg broke, wholly or in part: what eval's probe and degraded-run checks look for. */
export function legBroke(health: LegHealth): boolean {
  return health.status === 'failed' || health.status === 'partial';
}

/** `failed: <error>` / `partial: <error>` / the bare state: one line for logs, warnings and refusals. */
export function describeLeg(health: LegHealth): string {
  return health.error === undefined ? health.status : `${health.status}: ${health.error}`;
}

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
      ...(hit.expandedFrom ? { expanded_from: hit.expandedFrom } : {}),
      ...(hit.explain ? { explain: hit.explain } : {}),
    })),
    low_confidence: response.lowConfidence,
    filter_applied: response.filterApplied && toWireKeys(response.filterApplied),
    legs: response.legs,
  };
}
