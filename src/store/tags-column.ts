// A document's tags are stored as a JSON array of strings in documents.tags; a value that is not one reads as
// no tags (the row is still served).
export function encodeTags(tags: readonly string[]): string {
  return JSON.stringify(tags);
}

export function decodeTags(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}
