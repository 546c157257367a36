// Turns a transformer's per-token output [batch, tokens, hidden] into one vector per text:
// the masked mean over real tokens, or the first ([CLS]) token.

import type { Pooling } from './model-registry.js';

export interface PoolHiddenStatesInput {
  /** Row-major [batch, tokens, hidden]. */
  hidden: ArrayLike<number>;
  dims: readonly number[];
  /** Row-major [batch, tokens]; 1 for real tokens, 0 for padding (numbers or bigints). */
  attentionMask: ArrayLike<number | bigint>;
  pooling: Pooling;
}

export function poolHiddenStates(input: PoolHiddenStatesInput): Float32Array[] {
  const [batch = 0, tokens = 0, width = 0] = input.dims;
  const { hidden, attentionMask } = input;
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const vector = new Float32Array(width);
    const rowStart = b * tokens * width;
    if (input.pooling === 'cls') {
      for (let d = 0; d < width; d++) vector[d] = hidden[rowStart + d] as number;
      out.push(vector);
      continue;
    }
    let counted = 0;
    for (let t = 0; t < tokens; t++) {
      if (Number(attentionMask[b * tokens + t]) === 0) continue;
      counted += 1;
      const offset = rowStart + t * width;
      for (let d = 0; d < width; d++) vector[d] = (vector[d] as number) + (hidden[offset + d] as number);
    }
    if (counted > 0) for (let d = 0; d < width; d++) vector[d] = (vector[d] as number) / counted;
    out.push(vector);
  }
  return out;
}
