// Shapes raw texts into model input: cap the length in characters (without splitting a surrogate pair)
// and add the model's query or passage prefix.
import { truncateToChars } from '../core/utf16-cut.js';

export { truncateToChars };

/** How many of `texts` truncateToChars cuts at `maxChars`. */
export function countCutAtChars(texts: readonly string[], maxChars: number): number {
  let cut = 0;
  for (const text of texts) if (text.length > maxChars) cut++;
  return cut;
}

export function prepareInputs(texts: string[], prefix: string, maxInputChars: number): string[] {
  return texts.map((t) => prefix + truncateToChars(t, maxInputChars));
}
