// Turns a request's document filters into the ids of the documents a search may return (null = no filter).
import { buildDocumentFilter, type DocumentFilters } from '../../rank/document-filter.js';
import type { SearchCache } from './search-cache.js';

export function resolveDocumentIds(cache: SearchCache, filters: DocumentFilters): number[] | null {
  const filter = buildDocumentFilter(filters);
  if (!filter) return null;
  return cache
    .documentFacts()
    .filter(filter)
    .map((doc) => doc.id);
}
