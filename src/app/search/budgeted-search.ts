// The search pipeline with its last step: a request with `max_tokens` is answered with passages that fit it.
import { checkSearchRequest } from './checked-search.js';
import type { SearchResponse } from './search-types.js';
import { runSearch, type SearchContext, type SearchOptions } from './searcher.js';
import { applyTokenBudget, type TextFirstLine } from './token-budget.js';
import { tokenCounterFor } from './token-counter.js';

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
  if (maxTokens === undefined) return response;
  const counter = await tokenCounterFor(
    context.embedder,
    response.results.map((hit) => hit.content),
  );
  return applyTokenBudget(response, maxTokens, counter, firstLine);
}
