// The step after ranking that makes a response fit a token budget (`max_tokens`): the ranked hits are replaced
// by their best passages (rank/budget-passages.ts), counted with the token counter in effect, and the response
// reports what it spent. Without a budget the response is returned as it is.
import { countUtf8Bytes } from '../../core/utf8-bytes.js';
import { type BudgetPassage, type PassageHit, selectBudgetPassages } from '../../rank/budget-passages.js';
import type { SearchHit, SearchResponse } from './search-types.js';
import { ESTIMATED_TOKENS, type TokenCounter } from './token-counter.js';

/** The response with its hits cut to passages within `maxTokens`; unchanged when there is no budget. */
export function applyTokenBudget(
  response: SearchResponse,
  maxTokens: number | undefined,
  counter: TokenCounter = ESTIMATED_TOKENS,
  firstLine?: TextFirstLine,
): SearchResponse {
  if (maxTokens === undefined) return response;
  const hits = response.results;
  const { passages, tokensUsed } = selectBudgetPassages(
    hits.map((hit) => passageSourceOf(hit, firstLine)),
    {
      maxTokens,
      count: (text) => counter.count(text),
    },
  );
  return {
    ...response,
    results: passages.map((passage) => passageHit(hits[passage.hit]!, passage, firstLine)),
    budget: { maxTokens, tokensUsed, counter: counter.name },
  };
}

/**
 * Where `text` (a hit's own text, or a passage of it) begins in the hit's file, searched from the hit's first line:
 * the 1-based line, or null when it cannot be told.
 */
export type TextFirstLine = (hit: SearchHit, text: string) => number | null;

/**
 * A hit as a passage source. Lines are known only for a hit that names its own lines and whose text is its own
 * chunk's (not widened by the parent retriever), when `firstLine` finds where that text begins.
 */
export function passageSourceOf(hit: SearchHit, firstLine?: TextFirstLine): PassageHit {
  return {
    content: hit.content,
    matchSpans: hit.matchSpans,
    firstLine: firstLine && hasOwnLines(hit) ? firstLine(hit, hit.content) : null,
  };
}

/** A hit that names its own lines and whose text is its own chunk's (not widened by the parent retriever). */
function hasOwnLines(hit: SearchHit): boolean {
  const widened = hit.expandedFrom?.kind === 'whole_document' || hit.expandedFrom?.kind === 'adjacent';
  return !widened && hit.lineStart !== null;
}

/**
 * A passage's own lines: counted from where its hit's text begins when that was found; else, when the hit's
 * text is not the file's verbatim (the chunker leaves heading lines out of a chunk's text), where the passage
 * itself stands within its hit's lines.
 */
function passageLines(
  hit: SearchHit,
  passage: BudgetPassage,
  firstLine?: TextFirstLine,
): { lineStart: number | null; lineEnd: number | null } {
  if (passage.lineStart !== null || firstLine === undefined || !hasOwnLines(hit)) return passage;
  const start = firstLine(hit, passage.text);
  if (start === null || (hit.lineEnd !== null && start > hit.lineEnd)) return passage;
  return { lineStart: start, lineEnd: start + (passage.text.match(/\n/g)?.length ?? 0) };
}

/** The hit carrying one of its passages: the passage's text, lines, tokens and the match spans inside it. */
function passageHit(hit: SearchHit, passage: BudgetPassage, firstLine?: TextFirstLine): SearchHit {
  const from = countUtf8Bytes(hit.content, 0, passage.start);
  const to = from + countUtf8Bytes(passage.text);
  return {
    ...hit,
    content: passage.text,
    ...passageLines(hit, passage, firstLine),
    matchSpans: hit.matchSpans
      .filter((span) => span.start >= from && span.end <= to)
      .map((span) => ({ start: span.start - from, end: span.end - from })),
    tokens: passage.tokens,
  };
}
