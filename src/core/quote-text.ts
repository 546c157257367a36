// Text compared as a quotation: whitespace and case do not count.

/** Collapse every whitespace run (newlines, tabs, full-width spaces) to one space, trim, lowercase. */
export function normalizeForQuote(text: string): string {
  return text
    .split(/[\s\u0085]+/u)
    .filter((part) => part !== '')
    .join(' ')
    .toLowerCase();
}

/** Whether `text` contains `quote` once both are normalised; an empty quote is never contained. */
export function containsQuote(text: string, quote: string): boolean {
  const needle = normalizeForQuote(quote);
  return needle !== '' && normalizeForQuote(text).includes(needle);
}
