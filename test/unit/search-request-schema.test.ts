// The two generated request schemas — the app's (camelCase, via validateSearchRequest) and the wire's (the MCP
// tool's input) — apply the table's rules alike and name the field as the CLI and MCP spell it.
import { describe, expect, it } from 'vitest';
import { searchRequestSchema, searchWireSchema } from '../../src/app/search/search-param-schema.js';
import { validateSearchRequest } from '../../src/app/search/search-request.js';
import { fromWireKeys, SEARCH_PARAMS, type SearchParam } from '../../src/config/search-params.js';
import { GrooveError } from '../../src/errors.js';

const PARAMS = SEARCH_PARAMS as readonly SearchParam[];

/** The app's error message for a request, or null when it is valid. */
function appError(request: Record<string, unknown>): string | null {
  try {
    validateSearchRequest(request);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(GrooveError);
    expect((error as GrooveError).code).toBe('INVALID_ARGUMENT');
    return (error as Error).message;
  }
}

/** The wire schema's first message for snake_case arguments, or null when they are valid. */
function wireError(args: Record<string, unknown>): string | null {
  const parsed = searchWireSchema().safeParse(args);
  return parsed.success ? null : parsed.error.issues[0]!.message;
}

/** Both schemas' verdicts on one parameter's value: [app message, wire message]. */
function both(param: SearchParam, value: unknown): [string | null, string | null] {
  return [appError({ query: 'x', [param.name]: value }), wireError({ query: 'x', [param.wire]: value })];
}

describe('generated schemas', () => {
  it('have exactly the table’s keys: camelCase for the app, snake_case on the wire', () => {
    const appKeys = Object.keys((searchRequestSchema() as unknown as { shape: object }).shape);
    const wireKeys = Object.keys((searchWireSchema() as unknown as { shape: object }).shape);
    expect(appKeys).toEqual(PARAMS.map((p) => p.name));
    expect(wireKeys).toEqual(PARAMS.map((p) => p.wire));
  });

  it('hold every number to its bounds, on both schemas, naming the field', () => {
    for (const p of PARAMS.filter((q) => q.type === 'number' || q.type === 'integer')) {
      const step = p.type === 'integer' ? 1 : 0.01;
      const kind = p.type === 'integer' ? 'a whole number' : 'a number';
      const range =
        p.max === undefined
          ? `must be ${kind} of ${p.min} or more`
          : `must be ${kind} from ${p.min} to ${p.max}`;
      expect(both(p, p.min), p.name).toEqual([null, null]);
      expect(both(p, p.min! - step), p.name).toEqual([
        `invalid search: ${p.wire} ${range}`,
        `${p.wire} ${range}`,
      ]);
      if (p.max !== undefined) {
        expect(both(p, p.max), p.name).toEqual([null, null]);
        expect(both(p, p.max + step)[1], p.name).toBe(`${p.wire} ${range}`);
      }
      expect(appError({ query: 'x', [p.name]: Number.POSITIVE_INFINITY }), p.name).toMatch(p.wire);
    }
    const limit = PARAMS.find((p) => p.name === 'limit')!;
    for (const value of [2.5, 'abc', '', '3', null]) {
      expect(both(limit, value), String(value)).toEqual([
        'invalid search: limit must be a whole number from 1 to 1000',
        'limit must be a whole number from 1 to 1000',
      ]);
    }
    const lambda = PARAMS.find((p) => p.name === 'mmrLambda')!;
    expect(both(lambda, 'half')[1]).toBe(`mmr_lambda must be a number from ${lambda.min} to ${lambda.max}`);
  });

  it('refuse a blank query and one over 1024 UTF-8 bytes (counted in bytes, not characters)', () => {
    const query = PARAMS.find((p) => p.name === 'query')!;
    const exactly1024 = `${'あ'.repeat(341)}a`;
    expect(appError({ query: exactly1024 })).toBeNull();
    expect(wireError({ query: exactly1024 })).toBeNull();
    expect(appError({ query: 'あ'.repeat(342) })).toBe('invalid search: query must be at most 1024 bytes');
    expect(wireError({ query: 'あ'.repeat(342) })).toBe('query must be at most 1024 bytes');
    expect(appError({ query: '   ' })).toBe('invalid search: query must not be empty');
    expect(wireError({ query: '' })).toBe('query must not be empty');
    expect(query.maxBytes).toBe(1024);
  });

  it('cap lists at 64 entries of 1 KiB each; path globs, unlike tags, may not be an empty list', () => {
    const globs = PARAMS.find((p) => p.name === 'pathGlobs')!;
    const tags = PARAMS.find((p) => p.name === 'tagsAny')!;
    expect(
      both(
        tags,
        Array.from({ length: 64 }, (_, i) => `t${i}`),
      ),
    ).toEqual([null, null]);
    expect(
      both(
        tags,
        Array.from({ length: 65 }, (_, i) => `t${i}`),
      ),
    ).toEqual(['invalid search: tags_any takes at most 64 tags', 'tags_any takes at most 64 tags']);
    expect(both(tags, ['é'.repeat(512)])).toEqual([null, null]);
    expect(both(tags, ['é'.repeat(513)])).toEqual([
      'invalid search: tags_any tags must be at most 1024 bytes each',
      'tags_any tags must be at most 1024 bytes each',
    ]);
    expect(both(tags, [''])[0]).toBe('invalid search: tags_any tags must not be empty');
    expect(both(tags, [])).toEqual([null, null]);
    expect(both(globs, [])[0]).toMatch(/^invalid search: path_globs must list at least one glob when given/);
    expect(both(globs, [])[1]).toMatch(/^path_globs must list at least one glob when given/);
  });

  it('take only calendar dates, and refuse date_from after date_to with the fix', () => {
    const from = PARAMS.find((p) => p.name === 'dateFrom')!;
    expect(both(from, '2024-02-29')).toEqual([null, null]);
    expect(both(from, '2026-02-30')[0]).toMatch(/^invalid search: date_from must be a calendar date/);
    expect(both(from, '2026-02-30')[1]).toMatch(/^date_from must be a calendar date/);
    expect(() => validateSearchRequest({ query: 'x', dateFrom: '2026-03-02', dateTo: '2026-03-01' })).toThrow(
      expect.objectContaining({
        message: 'date_from 2026-03-02 is after date_to 2026-03-01',
        hint: 'swap the two dates',
      }),
    );
  });

  it('refuse unknown keys and wrong types, naming the field', () => {
    expect(appError({ query: 'x', limt: 3 })).toBe('invalid search: unknown search parameter "limt"');
    expect(wireError({ query: 'x', limt: 3 })).toMatch(/limt/);
    expect(appError({ query: 'x', mmrLambda: '0.5' })).toMatch(/^invalid search: mmr_lambda /);
    expect(appError({ query: 'x', rerank: 'yes' })).toMatch(/^invalid search: rerank /);
    expect(appError({ limit: 3 })).toMatch(/^invalid search: query /);
  });

  it('accept the same full request on the wire and in the app', () => {
    const wire = {
      query: 'backup',
      limit: 7,
      category: 'ops',
      topic: 'db',
      path_globs: ['ops/**', '!ops/old/**'],
      tags_any: ['a'],
      tags_all: ['b', 'c'],
      date_from: '2026-01-01',
      date_to: '2026-12-31',
      min_quality: 0.2,
      include_low_quality: false,
      legs: 'lexical',
      max_tokens: 500,
      rerank: false,
      mmr: true,
      mmr_lambda: 0.4,
      mmr_same_doc_penalty: 0.1,
      parent_retriever: true,
      boost: true,
      graph: false,
      fold: 'section',
      min_confidence: 0,
      explain: true,
      timings: true,
    };
    expect(Object.keys(wire)).toEqual(PARAMS.map((p) => p.wire));
    const parsed = searchWireSchema().parse(wire);
    const request = validateSearchRequest(fromWireKeys(parsed));
    expect(request).toEqual({
      query: 'backup',
      limit: 7,
      category: 'ops',
      topic: 'db',
      pathGlobs: ['ops/**', '!ops/old/**'],
      tagsAny: ['a'],
      tagsAll: ['b', 'c'],
      dateFrom: '2026-01-01',
      dateTo: '2026-12-31',
      minQuality: 0.2,
      includeLowQuality: false,
      legs: 'lexical',
      maxTokens: 500,
      rerank: false,
      mmr: true,
      mmrLambda: 0.4,
      mmrSameDocPenalty: 0.1,
      parentRetriever: true,
      boost: true,
      graph: false,
      fold: 'section',
      minConfidence: 0,
      explain: true,
      timings: true,
    });
  });
});
