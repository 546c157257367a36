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
    results: passages.map((passage) => passageHit(hits[passage.hit]!, passage)),
    budget: { maxTokens, tokensUsed, counter: counter.name },
  };
}

/** Where a hit's text begins in its file: the 1-based line, or null when it cannot be told. */
export type TextFirstLine = (hit: SearchHit) => number | null;

/**
 * A hit as a passage source. Lines are known only for a hit that names its own lines and whose text is its own
 * chunk's (not widened by the parent retriever), when `firstLine` finds where that text begins.
 */
export function passageSourceOf(hit: SearchHit, firstLine?: TextFirstLine): PassageHit {
  const widened = hit.expandedFrom?.kind === 'whole_document' || hit.expandedFrom?.kind === 'adjacent';
  const known = !widened && hit.lineStart !== null && firstLine !== undefined;
  return { content: hit.content, matchSpans: hit.matchSpans, firstLine: known ? firstLine(hit) : null };
}

/** The hit carrying one of its passages: the passage's text, lines, tokens and the match spans inside it. */
function passageHit(hit: SearchHit, passage: BudgetPassage): SearchHit {
  const from = countUtf8Bytes(hit.content, 0, passage.start);
  const to = from + countUtf8Bytes(passage.text);
  return {
    ...hit,
    content: passage.text,
    lineStart: passage.lineStart,
    lineEnd: passage.lineEnd,
    matchSpans: hit.matchSpans
      .filter((span) => span.start >= from && span.end <= to)
      .map((span) => ({ start: span.start - from, end: span.end - from })),
    tokens: passage.tokens,
  };
}
