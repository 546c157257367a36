// `groove eval --budget`: each query's response answered twice at every token budget — the passages search
// returns with `max_tokens` (the same step a search runs), and the whole chunks in rank order until the budget
// is spent — and each answer's recall at that budget (measure/budget-recall.ts).
import {
  type BudgetRecallRow,
  type QueryBudgetRecall,
  type ReturnedPiece,
  recallOfPieces,
  summarizeBudgetRecall,
  wholeChunksWithin,
} from '../../measure/budget-recall.js';
import type { ExpectedEntry } from '../../measure/eval-metrics.js';
import { prefixWithinTokens } from '../../rank/token-estimate.js';
import type { Embedder } from '../../types.js';
import {
  applyTokenBudget,
  type SearchHit,
  type SearchResponse,
  type TokenCounter,
  tokenCounterFor,
} from '../search/index.js';

/** The budgets measured, and the counter both answers of one response are counted with. */
export interface EvalBudgets {
  maxTokens: readonly number[];
  counterFor: (response: SearchResponse) => Promise<TokenCounter>;
}

/** `--budget`'s budgets, counted as a search with `max_tokens` counts them; undefined without the flag. */
export function evalBudgetsOf(
  maxTokens: readonly number[] | undefined,
  embedder: Embedder | null,
): EvalBudgets | undefined {
  if (maxTokens === undefined) return undefined;
  return {
    maxTokens,
    counterFor: (response) =>
      tokenCounterFor(
        embedder,
        response.results.map((hit) => hit.content),
      ),
  };
}

/** One query's recall at every budget, for the budgeted passages and for whole chunks. */
export async function measureBudgets(
  response: SearchResponse,
  expected: readonly ExpectedEntry[],
  budgets: EvalBudgets,
): Promise<QueryBudgetRecall> {
  const counter = await budgets.counterFor(response);
  const count = (text: string) => counter.count(text);
  const chunks = response.results.map((hit) => ({ ...pieceOf(hit), text: hit.content }));
  const prefixWithin = (text: string, tokens: number) => prefixWithinTokens(text, tokens, count);
  const passages = budgets.maxTokens.map((maxTokens) => {
    const answer = applyTokenBudget(response, maxTokens, counter);
    const pieces = answer.results.map((hit) => ({
      ...pieceOf(hit),
      text: hit.content,
      tokens: hit.tokens ?? 0,
    }));
    return { recall: recallOfPieces(expected, pieces), tokens: answer.budget?.tokensUsed ?? 0 };
  });
  const wholeChunks = budgets.maxTokens.map((maxTokens) => {
    const pieces = wholeChunksWithin(chunks, maxTokens, { count, prefixWithin });
    return { recall: recallOfPieces(expected, pieces), tokens: pieces.reduce((sum, p) => sum + p.tokens, 0) };
  });
  return { passages, wholeChunks };
}

function pieceOf(hit: SearchHit): Omit<ReturnedPiece, 'text' | 'tokens'> {
  const kb = (hit as { kb?: unknown }).kb;
  return { path: hit.path, heading: hit.heading, ...(typeof kb === 'string' ? { kb } : {}) };
}

/** The report's budget table from the decision row's measurement: `{ budget }`, or nothing without `--budget`. */
export function budgetRowsOf(
  budgets: readonly number[] | undefined,
  measurement: { budget?: Parameters<typeof summarizeBudgetRecall>[1] },
): { budget?: BudgetRecallRow[] } {
  return budgets && measurement.budget ? { budget: summarizeBudgetRecall(budgets, measurement.budget) } : {};
}

/** The budget table as `--format json` writes it: snake_case, a non-finite bound as null. */
export function budgetRecallToJson(rows: readonly BudgetRecallRow[]): Record<string, unknown>[] {
  const finite = (value: number) => (Number.isFinite(value) ? value : null);
  return rows.map((row) => ({
    max_tokens: row.maxTokens,
    passages: { recall: row.passages.recall, mean_tokens: row.passages.meanTokens },
    whole_chunks: { recall: row.wholeChunks.recall, mean_tokens: row.wholeChunks.meanTokens },
    difference: {
      queries: row.difference.n,
      mean: row.difference.meanDiff,
      ci_low: finite(row.difference.ciLow),
      ci_high: finite(row.difference.ciHigh),
      verdict: row.difference.verdict,
    },
  }));
}
