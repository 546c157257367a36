// The pipeline configurations one eval measures: a plain run measures the configured pipeline; `--rows
// core,rerank,mmr,parent` measures several from one index in one run. The first row decides (only it is
// gated); the others are reference rows. `core` is the fusion stage alone, and `a+b` combines stages.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { EvalFingerprint } from '../../core/eval-fingerprint.js';
import { parseRowSpec, rowError } from '../../core/eval-row-spec.js';
import { type EffectiveSearchParams, isBuiltInFusion, resolveSearchParams } from '../search/index.js';

export interface EffectivePipeline {
  mmr: EffectiveSearchParams['mmr'];
  parentRetriever: EffectiveSearchParams['parentRetriever'];
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

/**
 * The configured pipeline, with the flags over [search.*] as a search merges them; the configured reranker
 * is always measured. Fusion enters the fingerprint only when it differs from the built-in defaults.
 */
export function effectivePipeline(options: PipelineFlags, config: ResolvedConfig): EffectivePipeline {
  const params = resolveSearchParams(options, config);
  return {
    mmr: params.mmr,
    parentRetriever: params.parentRetriever,
    fusion: fusionSetting(params),
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
    const { name, stages } = parseRowSpec(raw);
    if (seen.has(name)) throw rowError(`row "${name}" is listed twice`);
    seen.add(name);
    if (stages.has('rerank') && config.reranker === 'none') {
      throw rowError(`row "${name}" reranks, but no reranker is configured; pass --reranker ID`);
    }
    const params = resolveSearchParams(
      { ...options, mmr: stages.has('mmr'), parentRetriever: stages.has('parent') },
      config,
    );
    return {
      name,
      pipeline: {
        mmr: params.mmr,
        parentRetriever: params.parentRetriever,
        fusion: fusionSetting(params),
        reranker: stages.has('rerank') ? config.reranker : null,
      },
    };
  });
}

function fusionSetting(params: EffectiveSearchParams): EvalFingerprint['fusion'] | null {
  return isBuiltInFusion(params.fusion) ? null : params.fusion;
}
