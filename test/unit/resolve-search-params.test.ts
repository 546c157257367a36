// The one merge of a search's parameters — request over groove.toml over DEFAULTS — and eval's pipelines,
// which must come out of the same merge (fusion compared with DEFAULTS, not with written-out numbers).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { effectivePipeline, resolveEvalRows } from '../../src/app/eval/eval-rows.js';
import { isBuiltInFusion, resolveSearchParams } from '../../src/app/search/resolve-search-params.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { type ResolvedConfig, resolveConfig } from '../../src/config/resolve-config.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** The config resolved from a groove.toml with `toml` in a folder of its own (no config: DEFAULTS only). */
function configWith(toml = ''): ResolvedConfig {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-params-'));
  roots.push(root);
  fs.mkdirSync(path.join(root, '.git'));
  if (toml) fs.writeFileSync(path.join(root, 'groove.toml'), toml);
  return resolveConfig({ cwd: root, env: {} });
}

describe('resolveSearchParams', () => {
  it('without a request or a groove.toml gives the built-in defaults', () => {
    expect(resolveSearchParams({}, configWith())).toEqual({
      limit: DEFAULTS.search.limit,
      minQuality: DEFAULTS.qualityFilter.threshold,
      rerank: DEFAULTS.rerankByDefault,
      mmr: null,
      parentRetriever: null,
      boost: null,
      graph: null,
      fold: DEFAULTS.search.fold,
      minConfidence: DEFAULTS.search.minConfidence,
      fusion: DEFAULTS.search.fusion,
      explain: false,
    });
  });

  it('turns the boost and the graph hop on from the request or [search.boost] / [search.graph]', () => {
    const config = configWith(
      '[search.boost]\nstrength = 0.7\nmin_judgments = 3\n[search.graph]\nenabled = true\nco_helpful = false\n',
    );
    expect(resolveSearchParams({}, config).boost).toBeNull();
    expect(resolveSearchParams({ boost: true }, config).boost).toEqual({
      strength: 0.7,
      halfLifeDays: DEFAULTS.search.boost.halfLifeDays,
      minJudgments: 3,
      horizonDays: DEFAULTS.search.boost.horizonDays,
    });
    const { hops, maxAddedPerHit, weight } = DEFAULTS.search.graph;
    expect(resolveSearchParams({}, config).graph).toEqual({
      hops,
      maxAddedPerHit,
      weight,
      links: true,
      coHelpful: false,
    });
    expect(resolveSearchParams({ graph: false }, config).graph).toBeNull();
  });

  it('takes groove.toml over DEFAULTS, and the request over both', () => {
    const config = configWith(
      'rerank_by_default = false\n[search]\nlimit = 12\nmin_confidence = 0.25\n' +
        '[search.mmr]\nenabled = true\nlambda = 0.4\n[quality_filter]\nthreshold = 0.6\n',
    );
    expect(resolveSearchParams({}, config)).toMatchObject({
      limit: 12,
      minQuality: 0.6,
      rerank: false,
      mmr: { lambda: 0.4, sameDocPenalty: DEFAULTS.search.mmr.sameDocPenalty },
      minConfidence: 0.25,
    });
    const request = { limit: 3, minQuality: 0.1, rerank: true, mmrLambda: 0.9, mmrSameDocPenalty: 0.2 };
    expect(resolveSearchParams({ ...request, minConfidence: 0 }, config)).toMatchObject({
      limit: 3,
      minQuality: 0.1,
      rerank: true,
      mmr: { lambda: 0.9, sameDocPenalty: 0.2 },
      minConfidence: 0,
    });
    expect(resolveSearchParams({ mmr: false, mmrLambda: 0.9 }, config).mmr).toBeNull();
  });

  it('drops the quality floor for includeLowQuality, and when the quality filter is off unless asked for', () => {
    expect(resolveSearchParams({ includeLowQuality: true, minQuality: 0.8 }, configWith()).minQuality).toBe(
      0,
    );
    const off = configWith('[quality_filter]\nenabled = false\n');
    expect(resolveSearchParams({}, off).minQuality).toBe(0);
    expect(resolveSearchParams({ minQuality: 0.5 }, off).minQuality).toBe(0.5);
  });

  it('turns the parent retriever on from the request or the config, with the configured sizes', () => {
    const config = configWith(
      '[search.parent_retriever]\nwhole_doc_threshold_tokens = 50\nmax_expanded_tokens = 900\n',
    );
    expect(resolveSearchParams({}, config).parentRetriever).toBeNull();
    expect(resolveSearchParams({ parentRetriever: true }, config).parentRetriever).toEqual({
      wholeDocThresholdTokens: 50,
      maxExpandedTokens: 900,
    });
    const on = configWith('[search.parent_retriever]\nenabled = true\n');
    expect(resolveSearchParams({}, on).parentRetriever).not.toBeNull();
    expect(resolveSearchParams({ parentRetriever: false }, on).parentRetriever).toBeNull();
  });

  it('hands out a copy of the fusion settings', () => {
    const config = configWith();
    resolveSearchParams({}, config).fusion.rrfK = 1;
    expect(config.search.fusion.rrfK).toBe(DEFAULTS.search.fusion.rrfK);
  });
});

describe('isBuiltInFusion', () => {
  it('is true for DEFAULTS and false when any one field differs', () => {
    expect(isBuiltInFusion({ ...DEFAULTS.search.fusion })).toBe(true);
    for (const key of Object.keys(DEFAULTS.search.fusion) as (keyof typeof DEFAULTS.search.fusion)[]) {
      expect(
        isBuiltInFusion({ ...DEFAULTS.search.fusion, [key]: DEFAULTS.search.fusion[key] + 0.5 }),
        key,
      ).toBe(false);
    }
  });
});

describe('eval pipelines', () => {
  it('a plain run measures the configured pipeline; fusion is recorded only when it is not the built-in one', () => {
    expect(effectivePipeline({}, configWith())).toEqual({
      mmr: null,
      fold: DEFAULTS.search.fold,
      parentRetriever: null,
      fusion: null,
      reranker: null,
      boost: null,
      graph: null,
      honest: false,
    });
    // A plain run never boosts or hops, whatever the config says (rows measure them, with their twins).
    const learned = configWith('[search.boost]\nenabled = true\n[search.graph]\nenabled = true\n');
    expect(effectivePipeline({}, learned)).toMatchObject({ boost: null, graph: null });
    const tuned = configWith('[search.fusion]\nrrf_k = 10.0\nbm25_content_weight = 0.5\n');
    const fusion = effectivePipeline({ mmr: true, mmrLambda: 0.5 }, tuned);
    expect(JSON.stringify(fusion)).toBe(
      JSON.stringify({
        mmr: { lambda: 0.5, sameDocPenalty: DEFAULTS.search.mmr.sameDocPenalty },
        fold: DEFAULTS.search.fold,
        parentRetriever: null,
        fusion: {
          rrfK: 10,
          bm25HeadingWeight: DEFAULTS.search.fusion.bm25HeadingWeight,
          bm25ContextWeight: DEFAULTS.search.fusion.bm25ContextWeight,
          bm25ContentWeight: 0.5,
        },
        reranker: null,
        boost: null,
        graph: null,
        honest: false,
      }),
    );
  });

  it('rows start from fusion alone, whatever the config enables, and add what they name', () => {
    // Every row folds as the run does (--fold, else [search] fold): folding shapes the list each row returns.
    expect(
      resolveEvalRows(['core', 'mmr'], { fold: 'document' }, configWith()).map((r) => r.pipeline.fold),
    ).toEqual(['document', 'document']);
    const config = configWith('reranker = "bge-reranker-base"\n[search.mmr]\nenabled = true\n');
    const rows = resolveEvalRows(['core', 'mmr + parent', 'rerank+mmr+mmr'], { mmrLambda: 0.3 }, config);
    expect(rows.map((r) => r.name)).toEqual(['core', 'mmr+parent', 'rerank+mmr']);
    expect(rows[0]!.pipeline).toEqual({
      mmr: null,
      fold: DEFAULTS.search.fold,
      parentRetriever: null,
      fusion: null,
      reranker: null,
      boost: null,
      graph: null,
      honest: false,
    });
    expect(rows[1]!.pipeline.mmr).toEqual({
      lambda: 0.3,
      sameDocPenalty: DEFAULTS.search.mmr.sameDocPenalty,
    });
    expect(rows[1]!.pipeline.parentRetriever).toEqual({
      wholeDocThresholdTokens: DEFAULTS.search.parentRetriever.wholeDocThresholdTokens,
      maxExpandedTokens: DEFAULTS.search.parentRetriever.maxExpandedTokens,
    });
    expect(rows[2]!.pipeline.reranker).toBe('bge-reranker-base');
  });

  it('adds the honest twin of each learned row, and core, after the rows named', () => {
    const config = configWith();
    const rows = resolveEvalRows(['mmr', 'boost', 'graph+boost', 'graph+boost-honest'], {}, config);
    expect(rows.map((r) => [r.name, r.learned, r.twin, r.appended])).toEqual([
      ['mmr', false, null, false],
      ['boost', true, 'boost-honest', false],
      ['graph+boost', true, 'graph+boost-honest', false],
      ['graph+boost-honest', true, 'graph+boost', false],
      ['boost-honest', true, 'boost', true],
      ['core', false, null, true],
    ]);
    expect(rows[2]!.pipeline).toMatchObject({
      boost: { strength: DEFAULTS.search.boost.strength },
      graph: { hops: DEFAULTS.search.graph.hops, coHelpful: true },
      honest: false,
    });
    expect(rows[3]!.pipeline.honest).toBe(true);
    // Over links alone the graph hop learns nothing: no twin.
    const linksOnly = configWith('[search.graph]\nco_helpful = false\n');
    expect(resolveEvalRows(['core', 'graph'], {}, linksOnly).map((r) => [r.name, r.learned])).toEqual([
      ['core', false],
      ['graph', false],
    ]);
    expect(resolveEvalRows(['core', 'graph'], {}, config).map((r) => r.name)).toEqual([
      'core',
      'graph',
      'graph-honest',
    ]);
  });

  it('refuses a learned decision row and an honest row that learns nothing', () => {
    const config = configWith();
    expect(() => resolveEvalRows(['graph+boost', 'core'], {}, config)).toThrow(/cannot be the decision row/);
    expect(() => resolveEvalRows(['core', 'mmr-honest'], {}, config)).toThrow(/honest but learns nothing/);
  });

  it('refuses an empty list, an unknown stage, a row listed twice and reranking without a reranker', () => {
    const config = configWith();
    expect(() => resolveEvalRows([], {}, config)).toThrow(/at least one row/);
    expect(() => resolveEvalRows(['core', 'fast'], {}, config)).toThrow(/unknown row stage "fast" in "fast"/);
    expect(() => resolveEvalRows(['mmr', 'mmr+mmr'], {}, config)).toThrow(/row "mmr" is listed twice/);
    expect(() => resolveEvalRows(['rerank', 'fast'], {}, config)).toThrow(
      /row "rerank" reranks, but no reranker/,
    );
  });
});
