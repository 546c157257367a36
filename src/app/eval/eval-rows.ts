// The pipeline configurations one eval measures: a plain run measures the configured pipeline; `--rows
// core,rerank,mmr,parent` measures several from one index in one run. The first row decides (only it is
// gated); the others are reference rows. `core` is the fusion stage alone, and `a+b` combines stages.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { EvalFingerprint } from '../../core/eval-fingerprint.js';
import { GrooveError } from '../../errors.js';

export interface EffectivePipeline {
  mmr: { lambda: number; sameDocPenalty: number } | null;
  parentRetriever: { wholeDocThresholdTokens: number; maxExpandedTokens: number } | null;
  fusion: EvalFingerprint['fusion'] | null;
  /** The cross-encoder measured, or null. */
  reranker: string | null;
}

export interface EvalRowSpec {
  /** Null for a plain run (no --rows). */
  name: string | null;
  pipeline: EffectivePipeline;
}

export interface PipelineFlags {
  mmr?: boolean;
  mmrLambda?: number;
  mmrSameDocPenalty?: number;
  parentRetriever?: boolean;
}

export const ROW_STAGES = ['core', 'rerank', 'mmr', 'parent'] as const;
export type RowStage = (typeof ROW_STAGES)[number];

/** Flags over [search.*]; fusion enters the fingerprint only when it differs from the built-in 60/2/1/1. */
export function effectivePipeline(options: PipelineFlags, config: ResolvedConfig): EffectivePipeline {
  const { parentRetriever } = config.search;
  return {
    mmr: (options.mmr ?? config.search.mmr.enabled) ? mmrSettings(options, config) : null,
    parentRetriever: (options.parentRetriever ?? parentRetriever.enabled) ? parentSettings(config) : null,
    fusion: fusionSetting(config),
    reranker: config.reranker === 'none' ? null : config.reranker,
  };
}

/**
 * Resolve `--rows` into pipelines. Each row starts from `core` (fusion only: no reranker, MMR or parent
 * retriever, whatever the config enables) and adds the stages it names; MMR takes --mmr-lambda and
 * --mmr-same-doc-penalty, the reranker is the configured one.
 */
export function resolveEvalRows(
  rows: readonly string[],
  options: PipelineFlags,
  config: ResolvedConfig,
): EvalRowSpec[] {
  if (rows.length === 0) throw rowError('--rows needs at least one row, e.g. --rows core,rerank');
  const seen = new Set<string>();
  return rows.map((raw) => {
    const stages = raw.split('+').map((s) => s.trim());
    for (const stage of stages) {
      if (!(ROW_STAGES as readonly string[]).includes(stage)) {
        throw rowError(`unknown row stage "${stage}" in "${raw}"; rows are made of ${ROW_STAGES.join(', ')}`);
      }
    }
    const name = [...new Set(stages)].join('+');
    if (seen.has(name)) throw rowError(`row "${name}" is listed twice`);
    seen.add(name);
    const has = (stage: RowStage) => stages.includes(stage);
    if (has('rerank') && config.reranker === 'none') {
      throw rowError(`row "${name}" reranks, but no reranker is configured; pass --reranker ID`);
    }
    return {
      name,
      pipeline: {
        mmr: has('mmr') ? mmrSettings(options, config) : null,
        parentRetriever: has('parent') ? parentSettings(config) : null,
        fusion: fusionSetting(config),
        reranker: has('rerank') ? config.reranker : null,
      },
    };
  });
}

function mmrSettings(options: PipelineFlags, config: ResolvedConfig) {
  const { mmr } = config.search;
  return {
    lambda: options.mmrLambda ?? mmr.lambda,
    sameDocPenalty: options.mmrSameDocPenalty ?? mmr.sameDocPenalty,
  };
}

function parentSettings(config: ResolvedConfig) {
  const { parentRetriever } = config.search;
  return {
    wholeDocThresholdTokens: parentRetriever.wholeDocThresholdTokens,
    maxExpandedTokens: parentRetriever.maxExpandedTokens,
  };
}

function fusionSetting(config: ResolvedConfig): EvalFingerprint['fusion'] | null {
  const { fusion } = config.search;
  const isDefault =
    fusion.rrfK === 60 &&
    fusion.bm25HeadingWeight === 2 &&
    fusion.bm25ContextWeight === 1 &&
    fusion.bm25ContentWeight === 1;
  return isDefault ? null : { ...fusion };
}

function rowError(message: string): GrooveError {
  return new GrooveError('INVALID_ARGUMENT', message, {
    hint: 'e.g. --rows core,rerank,mmr,parent (the first row is the decision row)',
  });
}
