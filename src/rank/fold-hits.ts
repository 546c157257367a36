// Folding: a ranked list keeps one hit per section (or per document). A later candidate of a section already
// shown is folded into that section's first hit — left out, and counted on it — and the list is refilled from
// further candidates, so up to `limit` hits still come back.

/** `none`: every hit; `section`: one per heading path of a document; `document`: one per document. */
export const FOLD_MODES = ['none', 'section', 'document'] as const;
export type FoldMode = (typeof FOLD_MODES)[number];

/** Where a hit sits: its document and the headings above it (the breadcrumb ends with its own heading). */
export interface FoldPlace {
  documentId: number;
  breadcrumb: string;
  heading: string | null;
}

/** A kept hit and how many lower-ranked candidates of its section (or document) were folded into it. */
export interface FoldedEntry<T> {
  entry: T;
  folded: number;
}

/**
 * The key two hits fold on under `mode`, or null when the hit folds with nothing (mode `none`, or a place
 * that cannot be told). A section is one document's chunks under the same heading path.
 */
export function foldKey(mode: FoldMode, place: FoldPlace | null): string | null {
  if (mode === 'none' || place === null) return null;
  if (mode === 'document') return `${place.documentId}`;
  return `${place.documentId}\u0000${place.breadcrumb}\u0000${place.heading ?? ''}`;
}

/**
 * Walk `ranked` best first and keep the first candidate of each key, until `limit` are kept; a later candidate
 * whose key was already kept is folded into that hit (counted in its `folded`). Order is kept; a candidate with
 * a null key is always kept. Candidates are looked at only until `limit` are kept, so `folded` counts the hits
 * that would otherwise have taken a place in the list (all of them when the candidates run out first).
 */
export function foldRanked<T>(
  ranked: readonly T[],
  keyOf: (entry: T) => string | null,
  limit: number,
): FoldedEntry<T>[] {
  const kept: FoldedEntry<T>[] = [];
  const byKey = new Map<string, FoldedEntry<T>>();
  for (const entry of ranked) {
    if (kept.length >= limit) break;
    const key = keyOf(entry);
    const first = key === null ? undefined : byKey.get(key);
    if (first) {
      first.folded++;
      continue;
    }
    const item = { entry, folded: 0 };
    kept.push(item);
    if (key !== null) byKey.set(key, item);
  }
  return kept;
}
