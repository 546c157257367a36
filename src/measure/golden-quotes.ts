// The golden-queries-quoted check (ADR-0006): documents of the indexed corpus that quote two or more golden
// queries verbatim — a note about the test, or the source the queries came from. Reported, never acted on.

import { buildMultiPatternMatcher } from '../core/multi-pattern-search.js';
import { normalizeForQuote } from '../core/quote-text.js';
import type { ExpectedEntry, RankedHit } from './eval-metrics.js';
import type { QuoteFinding } from './eval-run.js';

/** Shorter queries (in characters, after normalisation) occur in too many documents by chance. */
export const MIN_QUOTE_CHARS = 12;
/** One quoted query is what a document about that topic looks like; two is what a note about the test does. */
export const MIN_DISTINCT_QUERIES = 2;

export { normalizeForQuote };

/** One text to look for; golden entries whose queries normalise to the same text share it. */
export interface QuoteNeedle {
  text: string;
  /** Golden indexes with this text, in golden order; the first is the one reported. Never empty. */
  goldenIndexes: number[];
}

/**
 * Needles for the scan: queries of at least MIN_QUOTE_CHARS characters after normalisation. Identical
 * normalised queries collapse into one, or a single quotation of a duplicated query would count twice.
 */
export function buildQuoteNeedles(queries: readonly string[]): QuoteNeedle[] {
  const byText = new Map<string, QuoteNeedle>();
  queries.forEach((query, index) => {
    const text = normalizeForQuote(query);
    if ([...text].length < MIN_QUOTE_CHARS) return;
    const existing = byText.get(text);
    if (existing) existing.goldenIndexes.push(index);
    else byText.set(text, { text, goldenIndexes: [index] });
  });
  return [...byText.values()];
}

export interface QuoteScan {
  /**
   * Check one chunk's indexed fields (heading, breadcrumb, body). Each field is matched on its own — never
   * concatenated, so text either side of a seam cannot read as one quote. Null or empty fields are skipped.
   */
  observe(path: string, fields: readonly (string | null)[]): void;
  /** Needle indexes each document matched, in the order documents were first seen. */
  matchesByPath(): Map<string, Set<number>>;
}

export function createQuoteScan(needles: readonly QuoteNeedle[]): QuoteScan {
  const matcher = buildMultiPatternMatcher(needles.map((n) => n.text));
  const found = new Map<string, Set<number>>();
  return {
    observe(path, fields) {
      if (needles.length === 0) return;
      for (const field of fields) {
        if (!field) continue;
        const hits = matcher.findPatterns(normalizeForQuote(field));
        if (hits.size === 0) continue;
        let set = found.get(path);
        if (!set) {
          set = new Set();
          found.set(path, set);
        }
        for (const hit of hits) set.add(hit);
      }
    },
    matchesByPath: () => found,
  };
}

/** What the rules need to know about each golden query, in golden order. */
export interface QuotedQueryFacts {
  id: string;
  expected: readonly ExpectedEntry[];
  topK: readonly Pick<RankedHit, 'rank' | 'path'>[];
}

/**
 * Apply the per-document rules, in order: (1) drop a match that is a substring of another match in the same
 * document — one quotation of a long query is not two pieces of evidence; (2) exempt a match when any golden
 * entry with that text lists this document in `expected` (document-level, even when a heading is named);
 * (3) report when at least MIN_DISTINCT_QUERIES distinct matches remain.
 */
export function detectQuotedQueries(
  queries: readonly QuotedQueryFacts[],
  needles: readonly QuoteNeedle[],
  matchesByPath: ReadonlyMap<string, ReadonlySet<number>>,
): QuoteFinding[] {
  const findings: QuoteFinding[] = [];
  for (const [path, matched] of matchesByPath) {
    const indexes = [...matched].sort((a, b) => a - b);
    const independent = indexes.filter(
      (i) => !indexes.some((other) => other !== i && needles[other]!.text.includes(needles[i]!.text)),
    );
    const counted = independent.filter(
      (i) => !needles[i]!.goldenIndexes.some((g) => queries[g]?.expected.some((e) => e.path === path)),
    );
    if (counted.length < MIN_DISTINCT_QUERIES) continue;
    findings.push({
      check: 'golden-queries-quoted',
      path,
      quoted: counted.map((i) => {
        const query = queries[needles[i]!.goldenIndexes[0]!]!;
        const hit = query.topK.find((h) => h.path === path);
        return { queryId: query.id, rankInTopK: hit ? hit.rank : null };
      }),
    });
  }
  return findings;
}
