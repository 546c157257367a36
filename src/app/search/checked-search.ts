// A search request checked once at the boundary: its arguments validated and its query compiled, so the
// pipeline neither validates nor compiles it again.
import { GrooveError } from '../../errors.js';
import { type CompiledLegQuery, compileLegQuery } from './candidate-legs.js';
import { type SearchRequest, validateSearchRequest } from './search-request.js';

/** A query compiled for both FTS tables that has something positive to search for. */
export type SearchableQuery = Extract<CompiledLegQuery, { kind: 'query' }>;

/** A request validated and its query compiled (only checkSearchRequest makes one). */
export class CheckedSearch {
  private constructor(
    readonly request: SearchRequest,
    readonly query: SearchableQuery,
  ) {}

  /** Check a request without an index: its arguments, and that its query has something to search for. */
  static of(input: unknown): CheckedSearch {
    const request = validateSearchRequest(input);
    return new CheckedSearch(request, compileSearchable(request.query));
  }

  /** The same request and compiled query with another `limit`. */
  withLimit(limit: number): CheckedSearch {
    return new CheckedSearch({ ...this.request, limit }, this.query);
  }
}

/** `input` as a checked request: checked now unless it already is one. */
export function checkSearchRequest(input: unknown): CheckedSearch {
  return input instanceof CheckedSearch ? input : CheckedSearch.of(input);
}

function compileSearchable(query: string): SearchableQuery {
  const compiled = compileLegQuery(query);
  if (compiled.kind === 'exclusion-only') throw new GrooveError('QUERY_INVALID', compiled.message);
  return compiled;
}
