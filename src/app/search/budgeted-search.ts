// The search pipeline with its last step: a request with `max_tokens` is answered with passages that fit it.
import { checkSearchRequest } from './checked-search.js';
import type { SearchResponse } from './search-types.js';
import { runSearch, type SearchContext, type SearchOptions } from './searcher.js';
import { applyTokenBudget, type TextFirstLine, tokenCounterOf } from './token-budget.js';

/** runSearch, then the token budget when the request gives one; `firstLine` lets passages name their lines. */
export async function runBudgetedSearch(
  context: SearchContext,
  input: unknown,
  options: SearchOptions = {},
  firstLine?: TextFirstLine,
): Promise<SearchResponse> {
  const checked = checkSearchRequest(input);
  const response = await runSearch(context, checked, options);
  const maxTokens = checked.request.maxTokens;
  return maxTokens === undefined
    ? response
    : applyTokenBudget(response, maxTokens, tokenCounterOf(context.embedder), firstLine);
}
