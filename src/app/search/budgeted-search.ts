// The search pipeline with its last step: a request with `max_tokens` is answered with passages that fit it.
import { checkSearchRequest } from './checked-search.js';
import type { SearchResponse } from './search-types.js';
import { runSearch, type SearchContext, type SearchOptions } from './searcher.js';
import { applyTokenBudget, type TextFirstLine } from './token-budget.js';
import { tokenCounterFor } from './token-counter.js';

/** Tokens of budget per hit ranked when a budget search names no `limit`. */
export const BUDGET_TOKENS_PER_HIT = 50;
/** The most hits a budget search without `limit` ranks to cut passages from. */
export const BUDGET_MAX_HITS = 50;

/**
 * The hits a budget search ranks: the request's `limit` when it gives one, else enough that a large budget is
 * not left unused — one per BUDGET_TOKENS_PER_HIT tokens, at least the configured limit, at most BUDGET_MAX_HITS.
 */
export function budgetHitLimit(maxTokens: number, given: number | undefined, configured: number): number {
  if (given !== undefined) return given;
  const wanted = Math.ceil(maxTokens / BUDGET_TOKENS_PER_HIT);
  return Math.max(configured, Math.min(BUDGET_MAX_HITS, wanted));
}

/** runSearch, then the token budget when the request gives one; `firstLine` lets passages name their lines. */
export async function runBudgetedSearch(
  context: SearchContext,
  input: unknown,
  options: SearchOptions = {},
  firstLine?: TextFirstLine,
): Promise<SearchResponse> {
  const asked = checkSearchRequest(input);
  const maxTokens = asked.request.maxTokens;
  if (maxTokens === undefined) return runSearch(context, asked, options);
  const limit = budgetHitLimit(maxTokens, asked.request.limit, context.config.search.limit);
  const checked = limit === asked.request.limit ? asked : asked.withLimit(limit);
  const response = await runSearch(context, checked, options);
  const counter = await tokenCounterFor(
    context.embedder,
    response.results.map((hit) => hit.content),
  );
  return applyTokenBudget(response, maxTokens, counter, firstLine);
}
