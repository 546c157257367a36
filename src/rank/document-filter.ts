// The document filters of a search (path globs, tags, dates, category, topic) as one predicate over a
// document's facts. Pure: the caller reads the facts from wherever they live.
import picomatch from 'picomatch';

/** The filters a search may carry; an absent field does not filter. */
export interface DocumentFilters {
  pathGlobs?: string[];
  tagsAny?: string[];
  tagsAll?: string[];
  dateFrom?: string;
  dateTo?: string;
  category?: string;
  topic?: string;
}

/** What a filter looks at in one document. */
export interface FilterableDocument {
  path: string;
  category: string | null;
  topic: string | null;
  /** The frontmatter date (`YYYY-MM-DD`, possibly with a time), or null for an undated document. */
  date: string | null;
  tags: readonly string[];
}

const FILTER_KEYS = ['pathGlobs', 'tagsAny', 'tagsAll', 'dateFrom', 'dateTo', 'category', 'topic'] as const;

/** The filters actually given, in a fixed order, or null when there are none. */
export function presentFilters(filters: DocumentFilters): DocumentFilters | null {
  const present = FILTER_KEYS.flatMap((key) => (filters[key] === undefined ? [] : [[key, filters[key]]]));
  return present.length === 0 ? null : (Object.fromEntries(present) as DocumentFilters);
}

/**
 * A predicate over documents, or null when nothing filters. Every given filter must hold: category and topic
 * match exactly; an undated document fails any date bound, and `dateTo` compares the day only; path globs
 * without `!` include (any of them), `!glob` excludes; tags compare case-insensitively, `tagsAny` needs one,
 * `tagsAll` every one.
 */
export function buildDocumentFilter(filters: DocumentFilters): ((doc: FilterableDocument) => boolean) | null {
  if (presentFilters(filters) === null) return null;
  const { category, topic, dateFrom, dateTo } = filters;
  const matchesPath = pathMatcher(filters.pathGlobs ?? []);
  const matchesTags = tagMatcher(filters.tagsAny, filters.tagsAll);
  return (doc) => {
    if (category !== undefined && doc.category !== category) return false;
    if (topic !== undefined && doc.topic !== topic) return false;
    if (dateFrom !== undefined && (doc.date === null || doc.date < dateFrom)) return false;
    if (dateTo !== undefined && (doc.date === null || doc.date.slice(0, 10) > dateTo)) return false;
    return matchesPath(doc.path) && matchesTags(doc.tags);
  };
}

function pathMatcher(globs: readonly string[]): (path: string) => boolean {
  const includes = globs.filter((g) => !g.startsWith('!'));
  const excludes = globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  const included = includes.length > 0 ? picomatch(includes, { dot: true }) : () => true;
  const excluded = excludes.length > 0 ? picomatch(excludes, { dot: true }) : () => false;
  return (path) => included(path) && !excluded(path);
}

function tagMatcher(any: readonly string[] | undefined, all: readonly string[] | undefined) {
  const fold = (tags: readonly string[]) => new Set(tags.map((t) => t.toLowerCase()));
  const tagsAny = any ? [...fold(any)] : null;
  const tagsAll = all ? [...fold(all)] : null;
  return (docTags: readonly string[]): boolean => {
    if (!tagsAny && !tagsAll) return true;
    const folded = fold(docTags);
    if (tagsAny && !tagsAny.some((t) => folded.has(t))) return false;
    return !tagsAll || tagsAll.every((t) => folded.has(t));
  };
}
