import { describe, expect, it } from 'vitest';
import { CheckedSearch, checkSearchRequest } from '../../src/app/search/checked-search.js';

describe('a search request checked once', () => {
  it('validates and compiles a raw request, and takes a checked one as it is', () => {
    const checked = checkSearchRequest({ query: 'restore backup', limit: 3 });
    expect(checked).toBeInstanceOf(CheckedSearch);
    expect(checked.request.limit).toBe(3);
    expect(checked.query.kind).toBe('query');
    expect(checkSearchRequest(checked)).toBe(checked);
  });

  it('refuses a request with nothing to search for, and a bad argument', () => {
    expect(() => checkSearchRequest({ query: '-only' })).toThrow(
      expect.objectContaining({ code: 'QUERY_INVALID' }),
    );
    expect(() => checkSearchRequest({ query: 'x', limit: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
