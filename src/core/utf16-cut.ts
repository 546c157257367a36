// Cutting a string to a number of UTF-16 units without leaving half of a surrogate pair.

/** Cut `text` to at most `maxChars` UTF-16 units, never leaving half of a surrogate pair at the end. */
export function truncateToChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return text.slice(0, pairSafeEnd(text, maxChars));
}

/** `end`, or one unit less when the unit before it is the first half of a surrogate pair. */
export function pairSafeEnd(text: string, end: number): number {
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}
