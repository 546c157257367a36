// The step after ranking that makes a response fit a token budget (`max_tokens`): the ranked hits are replaced
// by their best passages (rank/budget-passages.ts), counted with the token counter in effect, and the response
// reports what it spent. Without a budget the response is returned as it is.
import { countUtf8Bytes } from '../../core/utf8-bytes.js';
import { type BudgetPassage, type PassageHit, selectBudgetPassages } from '../../rank/budget-passages.js';
import { estimateTokens } from '../../rank/token-estimate.js';
import type { Embedder } from '../../types.js';
import type { SearchHit, SearchResponse } from './search-types.js';

/** How tokens are counted: a named tokenizer, or the per-script estimate (rank/token-estimate.ts). */
export interface TokenCounter {
  /** `estimate`, or the tokenizer's model id. */
  name: string;
  count(text: string): number;
}

export const ESTIMATED_TOKENS: TokenCounter = { name: 'estimate', count: estimateTokens };

/** The counter a search spends its budget in. */
export function tokenCounterOf(_embedder: Embedder | null): TokenCounter {
  return ESTIMATED_TOKENS;
}

/** The response with its hits cut to passages within `maxTokens`; unchanged when there is no budget. */
export function applyTokenBudget(
  response: SearchResponse,
  maxTokens: number | undefined,
  counter: TokenCounter = ESTIMATED_TOKENS,
): SearchResponse {
  if (maxTokens === undefined) return response;
  const hits = response.results;
  const { passages, tokensUsed } = selectBudgetPassages(hits.map(passageSourceOf), {
    maxTokens,
    count: (text) => counter.count(text),
  });
  return {
    ...response,
    results: passages.map((passage) => passageHit(hits[passage.hit]!, passage)),
    budget: { maxTokens, tokensUsed, counter: counter.name },
  };
}

/**
 * A hit as a passage source. A chunk's text ends on the chunk's last line (its heading line, when it has one,
 * opens the range above the text), so the text's first line is counted back from `lineEnd`. Lines are not
 * known for a hit the parent retriever widened, or whose text has more lines than its range.
 */
export function passageSourceOf(hit: SearchHit): PassageHit {
  const widened = hit.expandedFrom?.kind === 'whole_document' || hit.expandedFrom?.kind === 'adjacent';
  const textLines = hit.content.replace(/\n+$/, '').split('\n').length;
  const firstLine = hit.lineEnd === null ? null : hit.lineEnd - textLines + 1;
  const known = !widened && hit.lineStart !== null && firstLine !== null && firstLine >= hit.lineStart;
  return { content: hit.content, matchSpans: hit.matchSpans, firstLine: known ? firstLine : null };
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
