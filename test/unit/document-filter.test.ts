// The document filters as a pure predicate: every given filter must hold, tags fold case, dates bound by
// day, globs include with any and exclude with `!`; and the filters echoed in a fixed order.
import { describe, expect, it } from 'vitest';
import {
  buildDocumentFilter,
  type FilterableDocument,
  presentFilters,
} from '../../src/rank/document-filter.js';

const doc = (over: Partial<FilterableDocument> = {}): FilterableDocument => ({
  path: 'ops/backup.md',
  category: 'ops',
  topic: 'db',
  date: '2026-03-14',
  tags: ['Ops', 'postgres'],
  ...over,
});

describe('buildDocumentFilter', () => {
  it('is null when nothing filters', () => {
    expect(buildDocumentFilter({})).toBeNull();
    expect(presentFilters({})).toBeNull();
  });

  it('matches category and topic exactly', () => {
    expect(buildDocumentFilter({ category: 'ops' })!(doc())).toBe(true);
    expect(buildDocumentFilter({ category: 'Ops' })!(doc())).toBe(false);
    expect(buildDocumentFilter({ topic: 'db' })!(doc({ topic: null }))).toBe(false);
  });

  it('bounds dates by day, inclusive, and drops undated documents', () => {
    const march = buildDocumentFilter({ dateFrom: '2026-03-14', dateTo: '2026-03-14' })!;
    expect(march(doc())).toBe(true);
    expect(march(doc({ date: '2026-03-14T23:59:00' }))).toBe(true);
    expect(march(doc({ date: '2026-03-15' }))).toBe(false);
    expect(march(doc({ date: '2026-03-13' }))).toBe(false);
    expect(march(doc({ date: null }))).toBe(false);
  });

  it('includes a path matching any glob, excludes one matching a ! glob, dot files included', () => {
    const filter = buildDocumentFilter({ pathGlobs: ['ops/**', 'guides/*.md', '!ops/old/**'] })!;
    expect(filter(doc())).toBe(true);
    expect(filter(doc({ path: 'guides/setup.md' }))).toBe(true);
    expect(filter(doc({ path: 'ops/old/backup.md' }))).toBe(false);
    expect(filter(doc({ path: 'notes/backup.md' }))).toBe(false);
    expect(filter(doc({ path: 'ops/.hidden/x.md' }))).toBe(true);
    expect(buildDocumentFilter({ pathGlobs: ['!drafts/**'] })!(doc())).toBe(true);
  });

  it('compares tags case-insensitively: any needs one, all needs every one', () => {
    expect(buildDocumentFilter({ tagsAny: ['OPS', 'none'] })!(doc())).toBe(true);
    expect(buildDocumentFilter({ tagsAny: ['none'] })!(doc())).toBe(false);
    expect(buildDocumentFilter({ tagsAll: ['ops', 'POSTGRES'] })!(doc())).toBe(true);
    expect(buildDocumentFilter({ tagsAll: ['ops', 'mysql'] })!(doc())).toBe(false);
    expect(buildDocumentFilter({ tagsAny: [] })!(doc())).toBe(false);
  });
});

describe('presentFilters', () => {
  it('keeps the given filters in a fixed order and leaves the rest out', () => {
    const present = presentFilters({
      topic: 't',
      tagsAny: ['a'],
      dateTo: '2026-01-01',
      pathGlobs: undefined,
    });
    expect(Object.keys(present!)).toEqual(['tagsAny', 'dateTo', 'topic']);
  });
});
