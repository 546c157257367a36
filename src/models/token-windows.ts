// Inputs longer than the model's token limit, read whole: the text is cut into windows that each repeat the
// input's frame (the leading special token with the model's prefix, and the closing special token), every text
// token lands in exactly one window, and the windows' vectors are averaged into the input's one vector.

import type { TokenizedText } from './token-batches.js';

/** The tokens every window repeats: `lead` from the start of the input and `trail` from its end. */
export interface TokenFrame {
  lead: number;
  trail: number;
}

/**
 * The frame of `input`, given `prefixAlone` (what the tokenizer makes of the model's prefix alone, or of an empty
 * text: special tokens around it): the input's last token when it is the tokenizer's closing token, and its
 * leading tokens as long as they agree with `prefixAlone`. A prefix tokenized differently inside the text (a
 * trailing space that joins the next word) only shortens the lead: windows repeat what is the same everywhere.
 */
export function frameOf(input: readonly number[], prefixAlone: readonly number[]): TokenFrame {
  const closing = prefixAlone.length > 0 ? prefixAlone[prefixAlone.length - 1] : undefined;
  const trail = closing !== undefined && input.length > 1 && input[input.length - 1] === closing ? 1 : 0;
  const leadLimit = Math.min(prefixAlone.length - (closing === undefined ? 0 : 1), input.length - trail);
  let lead = 0;
  while (lead < leadLimit && input[lead] === prefixAlone[lead]) lead++;
  return { lead, trail };
}

/**
 * `text` as windows of at most `maxTokens`: the text itself when it fits; otherwise the fewest windows whose
 * bodies are as equal in length as possible, so no window is a short remnant that would weigh as much as a
 * full one in the average. A frame that leaves no room for a body is dropped to the bare leading token.
 */
export function windowTokens(text: TokenizedText, frame: TokenFrame, maxTokens: number): TokenizedText[] {
  const ids = text.inputIds;
  if (ids.length <= maxTokens) return [text];
  let { lead, trail } = frame;
  if (maxTokens - lead - trail < 1) lead = Math.min(lead, 1);
  if (maxTokens - lead - trail < 1) trail = 0;
  const room = Math.max(1, maxTokens - lead - trail);
  const bodyEnd = ids.length - trail;
  const bodyLength = bodyEnd - lead;
  const count = Math.ceil(bodyLength / room);
  const windows: TokenizedText[] = [];
  for (let k = 0; k < count; k++) {
    const start = lead + Math.floor((k * bodyLength) / count);
    const end = lead + Math.floor(((k + 1) * bodyLength) / count);
    windows.push({
      inputIds: frameSlice(ids, lead, start, end, bodyEnd),
      tokenTypeIds: text.tokenTypeIds ? frameSlice(text.tokenTypeIds, lead, start, end, bodyEnd) : null,
    });
  }
  return windows;
}

/** The frame's lead, the body tokens [start, end), the frame's trail (from `bodyEnd` to the end). */
function frameSlice(values: readonly number[], lead: number, start: number, end: number, bodyEnd: number) {
  return [...values.slice(0, lead), ...values.slice(start, end), ...values.slice(bodyEnd)];
}

/** The mean of unit vectors, scaled back to unit length (one vector is returned as it is). */
export function averageUnitVectors(vectors: readonly Float32Array[]): Float32Array {
  const [first] = vectors;
  if (!first) throw new Error('averageUnitVectors needs at least one vector');
  if (vectors.length === 1) return first;
  const sum = new Float32Array(first.length);
  for (const vector of vectors) {
    for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) + (vector[d] as number);
  }
  let norm = 0;
  for (let d = 0; d < sum.length; d++) norm += (sum[d] as number) ** 2;
  norm = Math.sqrt(norm);
  // Window vectors of one text never cancel out in practice; if they did, the first window stands for the text.
  if (!(norm > 0) || !Number.isFinite(norm)) return first;
  for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) / norm;
  return sum;
}
