// How a token budget is counted: with the embedding model's tokenizer when the model offers one (local models),
// else with the per-script estimate (rank/token-estimate.ts). A tokenizer runs on the inference thread, so the
// sentences and lines of the texts a search may return are counted there in one batch beforehand, and a text is
// then counted as the sum of its segments (a segment not counted beforehand — a sentence cut by the budget — by
// the estimate). A count that fails falls back to the estimate, which the response names.
import { splitSegments } from '../../rank/passage-segments.js';
import { estimateTokens } from '../../rank/token-estimate.js';
import type { Embedder } from '../../types.js';

/** How tokens are counted: a named tokenizer, or the per-script estimate. */
export interface TokenCounter {
  /** `estimate`, or the embedding model's id whose tokenizer counts. */
  name: string;
  count(text: string): number;
}

export const ESTIMATED_TOKENS: TokenCounter = { name: 'estimate', count: estimateTokens };

/** The trimmed, non-blank segments of `text`. */
function segmentsOf(text: string): string[] {
  return splitSegments(text)
    .map((s) => text.slice(s.start, s.end).trim())
    .filter((s) => s !== '');
}

/** The counter for answers cut from `texts`: the model's tokenizer, counted ahead, or the estimate. */
export async function tokenCounterFor(
  embedder: Embedder | null,
  texts: readonly string[],
): Promise<TokenCounter> {
  if (!embedder?.countTokens) return ESTIMATED_TOKENS;
  const pieces = [...new Set(texts.flatMap(segmentsOf))];
  let counts: number[];
  try {
    counts = await embedder.countTokens(pieces);
  } catch {
    return ESTIMATED_TOKENS;
  }
  if (counts.length !== pieces.length) return ESTIMATED_TOKENS;
  const known = new Map(pieces.map((piece, i) => [piece, counts[i]!]));
  return {
    name: embedder.id,
    count: (text) =>
      segmentsOf(text).reduce((sum, piece) => sum + (known.get(piece) ?? estimateTokens(piece)), 0),
  };
}
