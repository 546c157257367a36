// The search parameter table: names and flags are consistent, every default is the DEFAULTS value its
// groove.toml key overrides, groove.toml takes the same bounds, and the shared wording reads as documented.
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { configFileSchema } from '../../src/config/schema.js';
import { configKey, defaultText, paramHelp, rangeText } from '../../src/config/search-param-text.js';
import { SEARCH_PARAMS, type SearchParam, wireName } from '../../src/config/search-params.js';

const PARAMS = SEARCH_PARAMS as readonly SearchParam[];
const byName = (name: string) => PARAMS.find((p) => p.name === name)!;

describe('the search parameter table', () => {
  it('names, wire names and flags are unique and spelt from one another', () => {
    expect(new Set(PARAMS.map((p) => p.name)).size).toBe(PARAMS.length);
    expect(new Set(PARAMS.map((p) => p.wire)).size).toBe(PARAMS.length);
    for (const p of PARAMS) {
      expect(p.wire, p.name).toBe(p.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
      expect(wireName(p.name)).toBe(p.wire);
      if (p.cli.kind === 'option') expect(p.cli.flag, p.name).toMatch(/^--[a-z]+(-[a-z]+)*$/);
    }
    expect(PARAMS.filter((p) => p.cli.kind === 'argument').map((p) => p.name)).toEqual(['query']);
    expect(PARAMS.filter((p) => p.required).map((p) => p.name)).toEqual(['query']);
  });

  it('keeps every parameter the search has always taken', () => {
    expect(PARAMS.map((p) => p.wire)).toEqual([
      'query',
      'limit',
      'category',
      'topic',
      'path_globs',
      'tags_any',
      'tags_all',
      'date_from',
      'date_to',
      'min_quality',
      'include_low_quality',
      'legs',
      'max_tokens',
      'rerank',
      'mmr',
      'mmr_lambda',
      'mmr_same_doc_penalty',
      'parent_retriever',
      'boost',
      'graph',
      'fold',
      'min_confidence',
      'explain',
      'timings',
    ]);
  });

  it('takes each default from DEFAULTS, under the key groove.toml overrides it with', () => {
    const defaults = Object.fromEntries(PARAMS.filter((p) => p.default).map((p) => [p.name, p.default]));
    expect(defaults).toEqual({
      limit: { value: DEFAULTS.search.limit, configPath: 'search.limit' },
      minQuality: { value: DEFAULTS.qualityFilter.threshold, configPath: 'qualityFilter.threshold' },
      rerank: { value: DEFAULTS.rerankByDefault, configPath: 'rerankByDefault' },
      mmr: { value: DEFAULTS.search.mmr.enabled, configPath: 'search.mmr.enabled' },
      mmrLambda: { value: DEFAULTS.search.mmr.lambda, configPath: 'search.mmr.lambda' },
      mmrSameDocPenalty: {
        value: DEFAULTS.search.mmr.sameDocPenalty,
        configPath: 'search.mmr.sameDocPenalty',
      },
      parentRetriever: {
        value: DEFAULTS.search.parentRetriever.enabled,
        configPath: 'search.parentRetriever.enabled',
      },
      boost: { value: DEFAULTS.search.boost.enabled, configPath: 'search.boost.enabled' },
      graph: { value: DEFAULTS.search.graph.enabled, configPath: 'search.graph.enabled' },
      fold: { value: DEFAULTS.search.fold, configPath: 'search.fold' },
      minConfidence: {
        value: DEFAULTS.search.minConfidence,
        configPath: 'search.minConfidence',
      },
    });
  });

  it('groove.toml takes the same bounds as the search for every configured number', () => {
    const tomlOf = (configPath: string, value: unknown) => {
      const keys = configKey(configPath).replace(/[[\]]/g, '').split(/[ .]/);
      return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
    };
    const numbers = PARAMS.filter((p) => p.default && (p.type === 'number' || p.type === 'integer'));
    expect(numbers.map((p) => p.name)).toEqual([
      'limit',
      'minQuality',
      'mmrLambda',
      'mmrSameDocPenalty',
      'minConfidence',
    ]);
    for (const p of numbers) {
      const at = (value: number) =>
        configFileSchema().safeParse(tomlOf(p.default!.configPath, value)).success;
      const step = p.type === 'integer' ? 1 : 0.01;
      expect(at(p.min!), `${p.name} min`).toBe(true);
      expect(at(p.min! - step), `${p.name} below min`).toBe(false);
      if (p.max !== undefined) {
        expect(at(p.max), `${p.name} max`).toBe(true);
        expect(at(p.max + step), `${p.name} above max`).toBe(false);
      } else expect(at(1e9), `${p.name} unbounded`).toBe(true);
    }
  });

  it('descriptions are one plain line that leaves the bounds and default to the generated suffix', () => {
    for (const p of PARAMS) {
      expect(p.description, p.name).not.toMatch(/[|\n]|\)$|default/);
      expect(p.description.length, p.name).toBeGreaterThan(10);
    }
  });
});

describe('the shared wording', () => {
  it('states ranges for each type', () => {
    expect(rangeText(byName('limit'))).toBe('1-1000');
    expect(rangeText(byName('minConfidence'))).toBe('0-1');
    expect(rangeText(byName('query'))).toBe('at most 1024 bytes');
    expect(rangeText(byName('category'))).toBe('');
    expect(rangeText(byName('pathGlobs'))).toBe('1-64 globs of at most 1024 bytes each');
    expect(rangeText(byName('tagsAny'))).toBe('at most 64 tags of at most 1024 bytes each');
    expect(rangeText(byName('dateFrom'))).toBe('a calendar date YYYY-MM-DD');
    expect(rangeText(byName('explain'))).toBe('');
    expect(rangeText(byName('fold'))).toBe('one of none, section, document');
  });

  it('names the groove.toml key of each default', () => {
    expect(configKey('search.mmr.sameDocPenalty')).toBe('[search.mmr] same_doc_penalty');
    expect(configKey('qualityFilter.threshold')).toBe('[quality_filter] threshold');
    expect(configKey('rerankByDefault')).toBe('rerank_by_default');
    expect(defaultText(byName('limit'))).toBe(`default ${DEFAULTS.search.limit}, from [search] limit`);
    expect(defaultText(byName('topic'))).toBe('');
  });

  it('puts bounds and default after the description, or nothing when there are none', () => {
    expect(paramHelp(byName('limit'))).toBe(
      `how many results to return (1-1000; default ${DEFAULTS.search.limit}, from [search] limit)`,
    );
    expect(paramHelp(byName('mmr'))).toBe(
      `${byName('mmr').description} (default false, from [search.mmr] enabled)`,
    );
    expect(paramHelp(byName('category'))).toBe(byName('category').description);
  });
});
