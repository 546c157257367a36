// Choosing the quote that re-anchors a heading entry of a golden set on its chunk: a verbatim passage of the
// chunk's text (whitespace runs collapsed) that no other chunk of the knowledge base contains, so the quote
// entry matches exactly the hits the heading entry matched. The shortest such passage wins: short quotes
// survive edits around them and keep the golden file small.

import { buildMultiPatternMatcher } from '../core/multi-pattern-search.js';
import { normalizeForQuote } from '../core/quote-text.js';

/** Lengths tried, in characters (code points), shortest first. */
export const QUOTE_LENGTHS = [32, 48, 80] as const;
/** A passage shorter than this anchors by accident, not by meaning. */
export const MIN_ANCHOR_CHARS = 12;
/** Passages are taken from the first sentences only: the start of a chunk is what a reader recognises. */
const MAX_STARTS = 8;

const HEADING_LINE = /^\s{0,3}#{1,6}\s/;
const SENTENCE_END = /[.!?。．！？]/u;

/**
 * Candidate passages of `text`, in the order they are preferred: for each length, each sentence start. Lines
 * that are Markdown headings are skipped (a heading is what a quote anchor must not depend on). A passage ends
 * at its sentence's end when that comes first, else at the length, backed off to a word boundary when the text
 * has spaces. Each is verbatim text with whitespace runs collapsed to one space.
 */
export function quoteCandidates(text: string): string[] {
  const body = text
    .split('\n')
    .filter((line) => !HEADING_LINE.test(line))
    .join('\n')
    .replace(/[\s\u0085]+/gu, ' ')
    .trim();
  const chars = [...body];
  const starts = sentenceStarts(chars).slice(0, MAX_STARTS);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const length of QUOTE_LENGTHS) {
    for (const start of starts) {
      const passage = cutPassage(chars, start, length);
      if (passage === null || seen.has(passage)) continue;
      seen.add(passage);
      out.push(passage);
    }
  }
  return out;
}

function sentenceStarts(chars: readonly string[]): number[] {
  const starts = chars.length > 0 ? [0] : [];
  for (let i = 0; i < chars.length - 1; i++) {
    if (!SENTENCE_END.test(chars[i]!)) continue;
    let next = i + 1;
    while (next < chars.length && chars[next] === ' ') next++;
    if (next < chars.length && next !== starts[starts.length - 1]) starts.push(next);
  }
  return starts;
}

function cutPassage(chars: readonly string[], start: number, length: number): string | null {
  let end = Math.min(chars.length, start + length);
  for (let i = start + MIN_ANCHOR_CHARS - 1; i < end; i++) {
    if (SENTENCE_END.test(chars[i]!)) {
      end = i + 1;
      break;
    }
  }
  let passage = chars.slice(start, end).join('');
  if (end < chars.length && chars[end] !== ' ' && passage.includes(' ')) {
    const lastSpace = passage.lastIndexOf(' ');
    if ([...passage.slice(0, lastSpace)].length >= MIN_ANCHOR_CHARS) passage = passage.slice(0, lastSpace);
  }
  passage = passage.trim();
  return [...passage].length >= MIN_ANCHOR_CHARS ? passage : null;
}

/**
 * Counts, in one pass over every chunk, how many chunks contain each candidate; a candidate seen in exactly
 * one chunk — its own — anchors it.
 */
export interface UniquenessCount {
  observe(text: string): void;
  /**
   * The first of `candidates` (a list given to createUniquenessCount) that `own`, the chunk's text, contains
   * and no other chunk does.
   */
  firstUnique(candidates: readonly string[], own: string): string | null;
}

export function createUniquenessCount(candidateLists: readonly (readonly string[])[]): UniquenessCount {
  const indexOf = new Map<string, number>();
  for (const list of candidateLists) {
    for (const candidate of list) {
      const needle = normalizeForQuote(candidate);
      if (!indexOf.has(needle)) indexOf.set(needle, indexOf.size);
    }
  }
  const counts = new Uint32Array(indexOf.size);
  const matcher = buildMultiPatternMatcher([...indexOf.keys()]);
  return {
    observe(text) {
      if (indexOf.size === 0) return;
      for (const i of matcher.findPatterns(normalizeForQuote(text))) counts[i]!++;
    },
    firstUnique(candidates, own) {
      const ownText = normalizeForQuote(own);
      return (
        candidates.find((c) => {
          const needle = normalizeForQuote(c);
          const i = indexOf.get(needle);
          return i !== undefined && counts[i] === 1 && ownText.includes(needle);
        }) ?? null
      );
    },
  };
}
