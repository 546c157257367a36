// The pipeline configurations one eval measures: a plain run measures the configured pipeline; `--rows
// core,rerank,mmr,parent,graph+boost` measures several from one index in one run. The first row decides (only
// it is gated); the others are reference rows. `core` is the fusion stage alone, and `a+b` combines stages. A
// row that learns from judgments (boost; graph over co-helpful edges) comes with its honest twin and with
// `core`, appended when the list does not name them, so its leak and its gain can always be read.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { EvalFingerprint } from '../../measure/eval-fingerprint.js';
import {
  learnsFromJudgments,
  parseRowSpec,
  type RowSpec,
  rowError,
  twinOf,
} from '../../measure/eval-row-spec.js';
import type { FoldMode } from '../../rank/fold-hits.js';
import {
  boostParamsOf,
  type CandidateLeg,
  type EffectiveSearchParams,
  graphParamsOf,
  isBuiltInFusion,
  resolveSearchParams,
} from '../search/index.js';

export interface EffectivePipeline {
  mmr: EffectiveSearchParams['mmr'];
  /** What hits fold into (`none`: every hit is its own). */
  fold: FoldMode;
  parentRetriever: EffectiveSearchParams['parentRetriever'];
  fusion: EvalFingerprint['fusion'] | null;
  /** The cross-encoder measured, or null. */
  reranker: string | null;
  boost: EffectiveSearchParams['boost'];
  graph: EffectiveSearchParams['graph'];
  /** The learned stages leave out each golden query's own judgments. */
  honest: boolean;
  /** A stage-ablation row (`-lexical`, `-vector`) runs without this candidate leg; absent elsewhere. */
  skipLeg?: CandidateLeg;
}

export interface EvalRowSpec {
  /** Null for a plain run (no --rows). */
  name: string | null;
  pipeline: EffectivePipeline;
  /** The row uses judgments (boost, or co-helpful graph edges). */
  learned: boolean;
  /** For a learned row: the name of its honest (or naive) twin. */
  twin: string | null;
  /** Added because a learned row needs it; the list did not name it. */
  appended: boolean;
}

export interface PipelineFlags {
  mmr?: boolean;
  mmrLambda?: number;
  mmrSameDocPenalty?: number;
  parentRetriever?: boolean;
  fold?: FoldMode;
}

/**
 * The configured pipeline, with the flags over [search.*] as a search merges them; the configured reranker
 * is always measured. Fusion enters the fingerprint only when it differs from the built-in defaults. A plain
 * run never boosts or hops: those are measured by rows, next to their honest twins.
 */
export function effectivePipeline(options: PipelineFlags, config: ResolvedConfig): EffectivePipeline {
  const params = resolveSearchParams(options, config);
  return {
    mmr: params.mmr,
    fold: params.fold,
    parentRetriever: params.parentRetriever,
    fusion: fusionSetting(params),
    reranker: config.reranker === 'none' ? null : config.reranker,
    boost: null,
    graph: null,
    honest: false,
  };
}

/**
 * Resolve `--rows` into pipelines. Each row starts from `core` (fusion only: no reranker, MMR, parent
 * retriever, boost or graph hop, whatever the config enables) and adds the stages it names; MMR takes
 * --mmr-lambda and --mmr-same-doc-penalty, the reranker, the boost and the graph hop their configured
 * settings. Then each learned row's twin, and `core`, are appended when missing.
 */
export function resolveEvalRows(
  rows: readonly string[],
  options: PipelineFlags,
  config: ResolvedConfig,
): EvalRowSpec[] {
  if (rows.length === 0) throw rowError('--rows needs at least one row, e.g. --rows core,rerank');
  const seen = new Set<string>();
  const specs = rows.map((raw) => {
    const spec = parseRowSpec(raw);
    if (seen.has(spec.name)) throw rowError(`row "${spec.name}" is listed twice`);
    if (spec.stages.has('rerank') && config.reranker === 'none') {
      throw rowError(`row "${spec.name}" reranks, but no reranker is configured; pass --reranker ID`);
    }
    seen.add(spec.name);
    return spec;
  });
  const coHelpful = config.search.graph.coHelpful;
  const first = specs[0]!;
  if (learnsFromJudgments(first, coHelpful)) {
    throw rowError(
      `row "${first.name}" learns from the judgments golden sets are built from, so it cannot be the decision row (the first); put core or another row first`,
    );
  }
  const appended: RowSpec[] = [];
  const want = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    appended.push(parseRowSpec(name));
  };
  for (const spec of specs) {
    if (!learnsFromJudgments(spec, coHelpful)) continue;
    want(twinOf(spec));
    want('core');
  }
  return [
    ...specs.map((spec) => rowOf(spec, { options, config, appended: false })),
    ...appended.map((spec) => rowOf(spec, { options, config, appended: true })),
  ];
}

function rowOf(
  spec: RowSpec,
  context: { options: PipelineFlags; config: ResolvedConfig; appended: boolean },
): EvalRowSpec {
  const { options, config } = context;
  const { name, stages } = spec;
  const params = resolveSearchParams(
    { ...options, mmr: stages.has('mmr'), parentRetriever: stages.has('parent') },
    config,
  );
  const learned = learnsFromJudgments(spec, config.search.graph.coHelpful);
  return {
    name,
    pipeline: {
      mmr: params.mmr,
      fold: params.fold,
      parentRetriever: params.parentRetriever,
      fusion: fusionSetting(params),
      reranker: stages.has('rerank') ? config.reranker : null,
      boost: stages.has('boost') ? boostParamsOf(config) : null,
      graph: stages.has('graph') ? graphParamsOf(config) : null,
      honest: spec.honest,
    },
    learned,
    twin: learned || spec.honest ? twinOf(spec) : null,
    appended: context.appended,
  };
}

function fusionSetting(params: EffectiveSearchParams): EvalFingerprint['fusion'] | null {
  return isBuiltInFusion(params.fusion) ? null : params.fusion;
}
