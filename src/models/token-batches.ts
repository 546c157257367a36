// Token-level batching for local inference: truncate token ids keeping the closing special token, group
// texts of similar token length under an item and a token budget, pad a group into int64 feeds, and run a
// model over the groups (the one batch loop of the local embedder and reranker).

export interface TokenizedText {
  inputIds: number[];
  /** Segment ids for text pairs (cross-encoders); null when the tokenizer does not produce them. */
  tokenTypeIds: number[] | null;
}

export interface PaddedBatch {
  /** [batch, tokens]. */
  dims: [number, number];
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds: BigInt64Array | null;
}

export interface PlanTokenBatchesOptions {
  /** At most this many texts per batch. */
  maxItems: number;
  /** At most this many padded tokens (items × longest) per batch; bounds attention memory. */
  maxTokens: number;
}

export interface TokenBatchRunOptions extends PlanTokenBatchesOptions {
  /** The id that pads a row to its batch's longest. */
  padId: number;
}

/**
 * Cut a tokenized text to `maxTokens`, keeping its last token: tokenizers end every sequence with a special
 * token ([SEP], </s>) the model expects, and plain truncation would cut it off.
 */
export function truncateTokens(text: TokenizedText, maxTokens: number): TokenizedText {
  const { inputIds, tokenTypeIds } = text;
  if (inputIds.length <= maxTokens) return text;
  const keep = Math.max(1, maxTokens - 1);
  const last = inputIds.length - 1;
  return {
    inputIds: [...inputIds.slice(0, keep), inputIds[last] as number],
    tokenTypeIds: tokenTypeIds ? [...tokenTypeIds.slice(0, keep), tokenTypeIds[last] as number] : null,
  };
}

/**
 * Group text positions into batches, longest first, so each batch pads little. A batch closes when it has
 * `maxItems` texts or one more would exceed `maxTokens` padded tokens (a single long text always fits).
 */
export function planTokenBatches(lengths: number[], options: PlanTokenBatchesOptions): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => (lengths[b] as number) - (lengths[a] as number));
  const batches: number[][] = [];
  let current: number[] = [];
  let longest = 0;
  for (const index of order) {
    const length = lengths[index] as number;
    const widest = Math.max(longest, length);
    if (
      current.length > 0 &&
      (current.length >= options.maxItems || (current.length + 1) * widest > options.maxTokens)
    ) {
      batches.push(current);
      current = [];
      longest = 0;
    }
    current.push(index);
    longest = Math.max(longest, length);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Right-pad token rows to the longest one: ids with `padId`, mask and segment ids with 0. */
export function padTokenBatch(rows: TokenizedText[], padId: number): PaddedBatch {
  const width = rows.reduce((max, r) => Math.max(max, r.inputIds.length), 0);
  const size = rows.length * width;
  const inputIds = new BigInt64Array(size).fill(BigInt(padId));
  const attentionMask = new BigInt64Array(size);
  const withTypes = rows.some((r) => r.tokenTypeIds !== null);
  const tokenTypeIds = withTypes ? new BigInt64Array(size) : null;
  rows.forEach((row, r) => {
    const offset = r * width;
    row.inputIds.forEach((id, t) => {
      inputIds[offset + t] = BigInt(id);
      attentionMask[offset + t] = 1n;
    });
    if (tokenTypeIds && row.tokenTypeIds) {
      row.tokenTypeIds.forEach((type, t) => {
        tokenTypeIds[offset + t] = BigInt(type);
      });
    }
  });
  return { dims: [rows.length, width], inputIds, attentionMask, tokenTypeIds };
}

/**
 * Run `rows` through `runBatch` in the batches planTokenBatches plans (one batch at a time, longest rows first)
 * and return `runBatch`'s result for each row, in the order of `rows`.
 */
export async function runInTokenBatches<T>(
  rows: TokenizedText[],
  options: TokenBatchRunOptions,
  runBatch: (batch: PaddedBatch) => Promise<T[]>,
): Promise<T[]> {
  const plan = planTokenBatches(
    rows.map((row) => row.inputIds.length),
    options,
  );
  const results = new Array<T>(rows.length);
  for (const batch of plan) {
    const batchResults = await runBatch(
      padTokenBatch(
        batch.map((i) => rows[i] as TokenizedText),
        options.padId,
      ),
    );
    batch.forEach((original, k) => {
      results[original] = batchResults[k] as T;
    });
  }
  return results;
}
