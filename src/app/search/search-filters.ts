// Turns the request's filters into the set of documents a search may return (null = no document filter).
import picomatch from 'picomatch';
import type { DocumentFacts } from '../../types.js';
import type { SearchRequest } from './search-request.js';

export interface FilterApplied {
  path_globs?: string[];
  tags_any?: string[];
  tags_all?: string[];
  date_from?: string;
  date_to?: string;
  category?: string;
  topic?: string;
}

export function describeFilters(request: SearchRequest): FilterApplied | null {
  const applied: FilterApplied = {
    path_globs: request.pathGlobs,
    tags_any: request.tagsAny,
    tags_all: request.tagsAll,
    date_from: request.dateFrom,
    date_to: request.dateTo,
    category: request.category,
    topic: request.topic,
  };
  const present = Object.entries(applied).filter(([, v]) => v !== undefined);
  return present.length === 0 ? null : (Object.fromEntries(present) as FilterApplied);
}

/** A predicate over document facts; `!glob` entries exclude, the rest include (any of them). */
export function buildDocumentFilter(request: SearchRequest): ((doc: DocumentFacts) => boolean) | null {
  if (describeFilters(request) === null) return null;
  const globs = request.pathGlobs ?? [];
  const includes = globs.filter((g) => !g.startsWith('!'));
  const excludes = globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  const included = includes.length > 0 ? picomatch(includes, { dot: true }) : () => true;
  const excluded = excludes.length > 0 ? picomatch(excludes, { dot: true }) : () => false;
  const fold = (tags: readonly string[]) => new Set(tags.map((t) => t.toLowerCase()));
  const tagsAny = request.tagsAny ? fold(request.tagsAny) : null;
  const tagsAll = request.tagsAll ? [...fold(request.tagsAll)] : null;
  return (doc) => {
    if (request.category !== undefined && doc.category !== request.category) return false;
    if (request.topic !== undefined && doc.topic !== request.topic) return false;
    if (request.dateFrom !== undefined && (doc.date === null || doc.date < request.dateFrom)) return false;
    if (request.dateTo !== undefined && (doc.date === null || doc.date.slice(0, 10) > request.dateTo))
      return false;
    if (!included(doc.path) || excluded(doc.path)) return false;
    if (tagsAny || tagsAll) {
      const docTags = fold(doc.tags);
      if (tagsAny && ![...tagsAny].some((t) => docTags.has(t))) return false;
      if (tagsAll && !tagsAll.every((t) => docTags.has(t))) return false;
    }
    return true;
  };
}
