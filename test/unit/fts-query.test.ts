import { describe, expect, it } from 'vitest';
import {
  type CompileFtsQueryResult,
  compileFtsQuery,
  compileWordQuery,
  FTS_MAX_PHRASES,
  FTS_QUERY_VERSION,
  type FtsQuery,
  QUERY_STOP_WORDS,
  quoteFtsPhrase,
} from '../../src/rank/fts-query.js';

function compiled(query: string): FtsQuery {
  const result: CompileFtsQueryResult = compileFtsQuery(query);
  if (result.kind !== 'query') throw new Error(`expected a query for ${query}, got ${result.message}`);
  return result;
}

describe('compileFtsQuery: groups, runs and the trigram floor', () => {
  it('searches only について for "AI について" (a group under 3 chars is dropped)', () => {
    const result = compiled('AI について');
    expect(result.expression).toBe('"について"');
    expect(result.phrases).toEqual(['について']);
    expect(result.shortTerms).toEqual([]);
  });

  it('joins short runs greedily and also emits the span a join extended (reference example)', () => {
    expect(compiled('再ランキングの評価について').expression).toBe(
      '"再ランキング" OR "ランキング" OR "の評価" OR "について"',
    );
  });

  it('extends the previous span with a short tail and keeps the pre-extension span', () => {
    expect(compiled('テストは').phrases).toEqual(['テスト', 'テストは']);
  });

  it('joins short runs only within their group', () => {
    // 東京 and の are separate groups; neither reaches 3 chars.
    const result = compiled('東京 の 天気予報');
    expect(result.phrases).toEqual(['天気予報']);
    expect(result.shortTerms).toEqual(['東京']);
  });

  it('keeps katakana with the prolonged sound mark as one run', () => {
    expect(compiled('データ').phrases).toEqual(['データ']);
  });

  it('treats hyphens as word characters and punctuation or symbols as separators', () => {
    expect(compiled('sqlite-vec').phrases).toEqual(['sqlite-vec']);
    expect(compiled('foo.bar/baz+qux').phrases).toEqual(['foo', 'bar', 'baz', 'qux']);
  });

  it('treats column filter syntax as plain words', () => {
    expect(compiled('heading:install').expression).toBe('"heading" OR "install"');
  });

  it('deduplicates phrases keeping the first occurrence', () => {
    expect(compiled('alpha beta alpha "beta"').phrases).toEqual(['alpha', 'beta']);
  });

  it('reports 1–2 char CJK terms for the substring fallback but not Latin words or lone particles', () => {
    const result = compiled('東京 売上 AI の 猫 search');
    expect(result.phrases).toEqual(['search']);
    expect(result.shortTerms).toEqual(['東京', '売上', '猫']);
  });
});

describe('compileFtsQuery: quoted phrases', () => {
  it('keeps quoted phrases verbatim, in query order', () => {
    expect(compiled('foo "exact phrase, here" bar').phrases).toEqual(['foo', 'exact phrase, here', 'bar']);
  });

  it('escapes double quotes by doubling them', () => {
    expect(quoteFtsPhrase('say "hi"')).toBe('"say ""hi"""');
    // The fallback phrase is the whole query, quotes included.
    expect(compiled('"ab" c').expression).toBe('"""ab"" c"');
  });

  it('drops quoted phrases shorter than 3 characters', () => {
    const result = compiled('"ab" search');
    expect(result.phrases).toEqual(['search']);
    expect(compiled('"東京" search').shortTerms).toEqual(['東京']);
  });

  it('treats an unclosed quote literally and the rest of the query as plain text', () => {
    const result = compiled('alpha "beta gamma -delta');
    expect(result.phrases).toEqual(['alpha', 'beta', 'gamma', '-delta']);
    expect(result.negatives).toEqual([]);
  });
});

describe('compileFtsQuery: exclusions', () => {
  it('compiles -term into (positives) NOT (negatives)', () => {
    const result = compiled('search engine -elastic');
    expect(result.expression).toBe('("search" OR "engine") NOT ("elastic")');
    expect(result.negatives).toEqual(['elastic']);
    expect(result.negativeExpression).toBe('"elastic"');
    expect(result.positiveText).toBe('search engine');
  });

  it('excludes a verbatim phrase with -"phrase"', () => {
    const result = compiled('ranking -"vector search" fusion');
    expect(result.expression).toBe('("ranking" OR "fusion") NOT ("vector search")');
    expect(result.positiveText).toBe('ranking fusion');
  });

  it('tokenises an unquoted negative like a positive', () => {
    expect(compiled('評価方法 -再ランキング').negatives).toEqual(['再ランキング', 'ランキング']);
  });

  it('keeps "-foo", ---, a lone - and "- foo" literal', () => {
    const result = compiled('"-foo" --- - bar - foo');
    expect(result.negatives).toEqual([]);
    expect(result.phrases).toEqual(['-foo', '---', 'bar', 'foo']);
    expect(compiled('--double').phrases).toEqual(['--double']);
  });

  it('treats a hyphen inside a word as part of the word, not an exclusion', () => {
    expect(compiled('re-rank').negatives).toEqual([]);
  });

  it('lets a negative under 3 characters exclude nothing', () => {
    const result = compiled('search -ab');
    expect(result.negatives).toEqual([]);
    expect(result.expression).toBe('"search"');
    expect(result.positiveText).toBe('search');
  });

  it('reports an exclusion-only query as data, not an exception', () => {
    const result = compileFtsQuery('-foo -"bar baz"');
    expect(result.kind).toBe('exclusion-only');
    if (result.kind === 'exclusion-only') expect(result.message).toContain('-foo');
    expect(compileWordQuery('-foo').kind).toBe('exclusion-only');
  });

  it('keeps a query whose positives are all too short: no expression, negatives still usable', () => {
    const result = compiled('ab -foo');
    expect(result.expression).toBeNull();
    expect(result.negativeExpression).toBe('"foo"');
  });
});

describe('compileFtsQuery: cap and fallback', () => {
  it('caps at 32 phrases and flags the truncation', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const result = compiled(words.join(' '));
    expect(result.phrases).toHaveLength(FTS_MAX_PHRASES);
    expect(result.phrases[31]).toBe('word31');
    expect(result.truncated).toBe(true);
    expect(compiled(words.slice(0, 32).join(' ')).truncated).toBe(false);
  });

  it('falls back to the whole trimmed query when no phrase survives and it is at least 3 chars', () => {
    expect(compiled('  a b c  ').expression).toBe('"a b c"');
    expect(compiled('ab').expression).toBeNull();
    expect(compiled('').expression).toBeNull();
  });

  it('has a version above the anchor history (1–3)', () => {
    expect(FTS_QUERY_VERSION).toBe(4);
  });
});

describe('compileWordQuery', () => {
  it('quotes each segmented word, including words under 3 chars', () => {
    const result = compileWordQuery('AI について 東京');
    expect(result.kind === 'query' && result.expression).toBe('"AI" OR "について" OR "東京"');
  });

  it('segments Japanese and drops punctuation', () => {
    const result = compileWordQuery('日本で梅雨がないのは、どこか?');
    expect(result.kind === 'query' && result.terms).toEqual([
      '日本',
      'で',
      '梅雨',
      'が',
      'ない',
      'の',
      'は',
      'どこか',
    ]);
  });

  it('turns quoted phrases into phrase queries of their words and deduplicates case-insensitively', () => {
    const result = compileWordQuery('"再ランキングの評価" Search search');
    expect(result.kind === 'query' && result.expression).toBe('"再 ランキング の 評価" OR "Search"');
  });

  it('applies the trigram negatives as NOT phrases of their words', () => {
    const result = compileWordQuery('評価方法 -再ランキング -"vector search"');
    expect(result.kind === 'query' && result.expression).toBe(
      '("評価" OR "方法") NOT ("再 ランキング" OR "ランキング" OR "vector search")',
    );
  });

  it('leaves stop words out unless nothing else is left', () => {
    const stopWords = new Set(['the', 'of']);
    const result = compileWordQuery('The role of "the cell"', { stopWords });
    expect(result.kind === 'query' && result.terms).toEqual(['role', 'the cell']);
    const onlyStop = compileWordQuery('the of', { stopWords });
    expect(onlyStop.kind === 'query' && onlyStop.terms).toEqual(['the', 'of']);
  });

  it('ships a stop list with English function words and Japanese particles', () => {
    const result = compileWordQuery('the role of 細胞 の 分裂 in cancer', { stopWords: QUERY_STOP_WORDS });
    expect(result.kind === 'query' && result.terms).toEqual(['role', '細胞', '分裂', 'cancer']);
  });

  it('returns a null expression when there are no words', () => {
    const result = compileWordQuery('?? !!');
    expect(result.kind === 'query' && result.expression).toBeNull();
  });
});
