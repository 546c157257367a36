// Shapes raw texts into model input: cap the length in characters (without splitting a surrogate pair)
// and add the model's query or passage prefix.

/** Cut `text` to at most `maxChars` UTF-16 units, never leaving half of a surrogate pair at the end. */
export function truncateToChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** How many of `texts` truncateToChars cuts at `maxChars`. */
export function countCutAtChars(texts: readonly string[], maxChars: number): number {
  let cut = 0;
  for (const text of texts) if (text.length > maxChars) cut++;
  return cut;
}

export function prepareInputs(texts: string[], prefix: string, maxInputChars: number): string[] {
  return texts.map((t) => prefix + truncateToChars(t, maxInputChars));
}
