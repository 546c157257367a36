// Whether each golden `quote` still occurs in the document its entry names. A quote that does not can never be
// matched, so its query would read as a retrieval miss: eval reports such entries as stale, as it does a set
// past its age. Matched in each chunk's text (what a hit returns) after normalizeForQuote; a quote spanning two
// chunks does not occur, since no single hit returns it whole.

import { buildMultiPatternMatcher } from '../core/multi-pattern-search.js';
import { normalizeForQuote } from '../core/quote-text.js';
import type { ExpectedEntry } from './eval-metrics.js';

/** A golden entry whose quote is in no indexed chunk of its document. */
export interface StaleQuote {
  queryId: string;
  /** Position in the golden file, for the message: `queries[i].expected[j]`. */
  queryIndex: number;
  entryIndex: number;
  path: string;
  quote: string;
}

export interface QuotePresenceScan {
  /** Check one chunk's text. */
  observe(path: string, text: string): void;
  /** Entries whose quote was observed in no chunk of their path, in golden order. */
  stale(): StaleQuote[];
}

interface Anchor {
  queryId: string;
  queryIndex: number;
  entryIndex: number;
  path: string;
  quote: string;
  needle: number;
}

export function createQuotePresenceScan(
  queries: readonly { id: string; expected: readonly ExpectedEntry[] }[],
): QuotePresenceScan {
  const needleOf = new Map<string, number>();
  const anchors: Anchor[] = [];
  queries.forEach((q, queryIndex) => {
    q.expected.forEach((entry, entryIndex) => {
      if (entry.quote === undefined) return;
      const text = normalizeForQuote(entry.quote);
      let needle = needleOf.get(text);
      if (needle === undefined) {
        needle = needleOf.size;
        needleOf.set(text, needle);
      }
      anchors.push({ queryId: q.id, queryIndex, entryIndex, path: entry.path, quote: entry.quote, needle });
    });
  });
  // The paths each needle must be found in; a (needle, path) pair is settled once seen.
  const wanted = new Map<string, Set<number>>();
  for (const anchor of anchors) {
    let set = wanted.get(anchor.path);
    if (!set) {
      set = new Set();
      wanted.set(anchor.path, set);
    }
    set.add(anchor.needle);
  }
  const found = new Set<string>();
  const key = (path: string, needle: number) => `${needle}\u0000${path}`;
  const matcher = anchors.length === 0 ? null : buildMultiPatternMatcher([...needleOf.keys()]);
  return {
    observe(path, text) {
      const needles = wanted.get(path);
      if (!matcher || !needles) return;
      for (const needle of matcher.findPatterns(normalizeForQuote(text))) {
        if (needles.has(needle)) found.add(key(path, needle));
      }
    },
    stale: () =>
      anchors
        .filter((a) => !found.has(key(a.path, a.needle)))
        .map(({ needle: _needle, ...anchor }) => anchor),
  };
}

/** `queries[3].expected[0] (notes/a.md): "the quote"`, the quote cut to 60 characters. */
export function describeStaleQuote(stale: StaleQuote): string {
  const chars = [...stale.quote];
  const shown = chars.length > 60 ? `${chars.slice(0, 59).join('')}…` : stale.quote;
  return `queries[${stale.queryIndex}].expected[${stale.entryIndex}] (${stale.path}): "${shown.replace(/\s+/g, ' ')}"`;
}
