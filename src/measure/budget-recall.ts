// Recall at a token budget: the share of a query's expected entries whose matching text is inside the tokens an
// answer returned. An answer is a list of returned pieces, each with its path, heading and text. Two answers are
// compared at each budget: the budgeted passages search returns with `max_tokens`, and the top-k whole chunks
// taken in rank order until the budget is spent. Only text inside the budget counts: the chunk the budget cuts
// contributes its prefix that fits (a path or heading entry counts when that prefix is not empty; a quote entry
// when the prefix contains the quote), and the chunks after it contribute nothing.
import { type ExpectedEntry, isHit } from './eval-metrics.js';
import { comparePaired, type PairedInterval } from './paired-ci.js';

/** One piece of returned text: a budgeted passage, or a whole chunk (or the prefix the budget left of it). */
export interface ReturnedPiece {
  path: string;
  heading: string | null;
  kb?: string;
  text: string;
  tokens: number;
}

/** Share of `expected` matched by some piece (a quote must lie inside that piece's text); 0 for no entries. */
export function recallOfPieces(expected: readonly ExpectedEntry[], pieces: readonly ReturnedPiece[]): number {
  if (expected.length === 0) return 0;
  const matched = expected.filter((entry) => pieces.some((piece) => isHit(entry, piece))).length;
  return matched / expected.length;
}

/**
 * Whole chunks in rank order within `maxTokens`: each that fits whole, then the prefix of the first one that
 * does not (cut by `prefixWithin`, which returns the longest prefix of at most the tokens left), then nothing.
 */
export function wholeChunksWithin(
  chunks: readonly Omit<ReturnedPiece, 'tokens'>[],
  maxTokens: number,
  counter: { count: (text: string) => number; prefixWithin: (text: string, tokens: number) => string },
): ReturnedPiece[] {
  const pieces: ReturnedPiece[] = [];
  let left = maxTokens;
  for (const chunk of chunks) {
    const tokens = counter.count(chunk.text);
    if (tokens <= left) {
      pieces.push({ ...chunk, tokens });
      left -= tokens;
      continue;
    }
    const prefix = counter.prefixWithin(chunk.text, left);
    if (prefix.trim() !== '') pieces.push({ ...chunk, text: prefix, tokens: counter.count(prefix) });
    break;
  }
  return pieces;
}

/** One query's recall and spent tokens at each budget, for both answers (arrays index the budgets). */
export interface QueryBudgetRecall {
  passages: { recall: number; tokens: number }[];
  wholeChunks: { recall: number; tokens: number }[];
}

/** One budget over the queries with expected entries: both means and the paired passages − whole chunks. */
export interface BudgetRecallRow {
  maxTokens: number;
  passages: { recall: number; meanTokens: number };
  wholeChunks: { recall: number; meanTokens: number };
  /** Paired per-query difference passages − whole chunks, with its 95% interval. */
  difference: PairedInterval;
}

/** The rows of the budget table: one per budget, over the queries that have expected entries. */
export function summarizeBudgetRecall(
  budgets: readonly number[],
  perQuery: readonly { expected: readonly ExpectedEntry[]; budget: QueryBudgetRecall }[],
): BudgetRecallRow[] {
  const counted = perQuery.filter((q) => q.expected.length > 0);
  const mean = (values: number[]) =>
    values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
  return budgets.map((maxTokens, b) => {
    const passages = counted.map((q) => q.budget.passages[b]!);
    const chunks = counted.map((q) => q.budget.wholeChunks[b]!);
    return {
      maxTokens,
      passages: {
        recall: mean(passages.map((p) => p.recall)),
        meanTokens: mean(passages.map((p) => p.tokens)),
      },
      wholeChunks: {
        recall: mean(chunks.map((c) => c.recall)),
        meanTokens: mean(chunks.map((c) => c.tokens)),
      },
      difference: comparePaired(passages.map((p, i) => p.recall - chunks[i]!.recall)),
    };
  });
}
