// Turns a request's document filters into the ids of the documents a search may return (null = no filter).
import { buildDocumentFilter, type DocumentFilters } from '../../rank/document-filter.js';
import type { SearchReader } from '../../store/chunk-search.js';

export function resolveDocumentIds(reader: SearchReader, filters: DocumentFilters): number[] | null {
  const filter = buildDocumentFilter(filters);
  if (!filter) return null;
  return reader
    .readDocumentFacts()
    .filter(filter)
    .map((doc) => doc.id);
}
