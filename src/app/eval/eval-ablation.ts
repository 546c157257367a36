// `groove eval --ablate`: the decision pipeline ("full"), then the same run with each stage switched off in
// turn. A stage the decision pipeline does not run is listed as not applicable, with why, and not measured.
// Ablation rows are measured by the same evaluator loop as `--rows` rows (one snapshot, one measureRow per
// pipeline); this file only decides which pipelines, and pairs each with the full one.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { type AblationJudgement, judgeAblation } from '../../measure/ablation-verdict.js';
import { type PairedRunComparison, pairRuns } from '../../measure/eval-paired.js';
import type { EvalRun } from '../../measure/eval-run.js';
import type { LegDown } from '../../measure/leg-verdict.js';
import type { EffectivePipeline } from './eval-rows.js';

/** The stages ablation switches off, in pipeline order. */
export const ABLATION_STAGES = [
  'lexical',
  'vector',
  'reranker',
  'fold',
  'mmr',
  'parent',
  'boost',
  'graph',
] as const;
export type AblationStage = (typeof ABLATION_STAGES)[number];

/** One stage of the plan: the pipeline to measure without it, or why there is nothing to switch off. */
export type AblationPlanEntry =
  | { stage: AblationStage; name: string; pipeline: EffectivePipeline; reason: null }
  | { stage: AblationStage; name: string; pipeline: null; reason: string };

export interface AblationContext {
  /** The index has no vectors (built with `--model none`). */
  lexicalOnly: boolean;
  /** Legs the probe found down (measured anyway with --allow-degraded). */
  down: readonly LegDown[];
  /** The decision row's `--rows` name, or null for a plain run. */
  decisionRow: string | null;
  config: ResolvedConfig;
}

/** Every stage of ABLATION_STAGES, each with the full pipeline minus that stage or the reason it is not on. */
export function planAblation(full: EffectivePipeline, context: AblationContext): AblationPlanEntry[] {
  return ABLATION_STAGES.map((stage) => {
    const name = `-${stage}`;
    const reason = notApplicable(stage, full, context);
    if (reason !== null) return { stage, name, pipeline: null, reason };
    return { stage, name, pipeline: withoutStage(full, stage), reason: null };
  });
}

/** The full pipeline with one stage off; every other setting (fusion, MMR's lambda, …) stays as it was. */
function withoutStage(full: EffectivePipeline, stage: AblationStage): EffectivePipeline {
  switch (stage) {
    case 'lexical':
    case 'vector':
      return { ...full, skipLeg: stage };
    case 'reranker':
      return { ...full, reranker: null };
    case 'fold':
      return { ...full, fold: 'none' };
    case 'mmr':
      return { ...full, mmr: null };
    case 'parent':
      return { ...full, parentRetriever: null };
    case 'boost':
      return { ...full, boost: null };
    case 'graph':
      return { ...full, graph: null };
  }
}

/** Why a stage cannot be switched off in this run, or null when it can. */
function notApplicable(
  stage: AblationStage,
  full: EffectivePipeline,
  context: AblationContext,
): string | null {
  const { config, decisionRow } = context;
  const row = decisionRow === null ? 'the configured pipeline' : `the decision row "${decisionRow}"`;
  const isDown = (leg: string) => context.down.some((d) => d.leg === leg);
  const down = (leg: string) =>
    isDown(leg)
      ? `the ${leg} leg is down in this run (--allow-degraded): the full pipeline already runs without it`
      : null;
  // Without the only leg that answers, nothing would be left to rank: every metric 0 by construction, a
  // "helps" verdict that measures nothing.
  const lastLeg = (leg: string, other: string) =>
    isDown(other)
      ? `the ${other} leg is down in this run (--allow-degraded): without the ${leg} leg nothing is retrieved`
      : null;
  switch (stage) {
    case 'lexical':
      if (context.lexicalOnly)
        return 'the only candidate leg of a lexical-only index: without it nothing is retrieved';
      return down('lexical') ?? lastLeg('lexical', 'vector');
    case 'vector':
      if (context.lexicalOnly)
        return 'lexical-only index (indexed with --model none): there is no vector leg';
      return down('vector') ?? lastLeg('vector', 'lexical');
    case 'reranker':
      if (full.reranker !== null) return down('reranker');
      return config.reranker === 'none'
        ? 'no reranker configured (--reranker ID or `reranker` in groove.toml)'
        : `${row} does not rerank`;
    case 'fold':
      return full.fold !== 'none'
        ? null
        : `hits are not folded in ${row} (--fold section|document or [search] fold)`;
    case 'mmr':
      return full.mmr ? null : `MMR is off in ${row} (--mmr or [search.mmr] enabled)`;
    case 'parent':
      return full.parentRetriever
        ? null
        : `the parent retriever is off in ${row} (--parent-retriever or [search.parent_retriever] enabled)`;
    case 'boost':
      return full.boost ? null : learnedStageReason('boost', config.search.boost.enabled, decisionRow);
    case 'graph':
      return full.graph ? null : learnedStageReason('graph', config.search.graph.enabled, decisionRow);
  }
}

/**
 * Why the boost or the graph hop is not in the decision pipeline: off in the config, or on but left out of
 * every decision row — their gain is read from `--rows` next to their honest twins.
 */
function learnedStageReason(stage: 'boost' | 'graph', enabled: boolean, decisionRow: string | null): string {
  const section = `[search.${stage}]`;
  if (!enabled) return `${section} is off`;
  if (decisionRow !== null)
    return `the decision row "${decisionRow}" does not ${stage === 'boost' ? 'boost' : 'hop'}`;
  return `${section} is on, but a plain run never ${stage === 'boost' ? 'boosts' : 'hops'}; measure it with --rows core,${stage} (its honest twin is added when it learns from judgments)`;
}

/** One row of the ablation table in the report. */
export interface AblationRow {
  stage: AblationStage;
  /** `-vector`: the decision pipeline without this stage. */
  name: string;
  /** Null when measured; why the stage is not applicable otherwise (then nothing below is set). */
  reason: string | null;
  /** The run without the stage (never written to the history); null when not applicable. */
  run: EvalRun | null;
  /** This row minus the full pipeline, query by query, over the same golden queries and snapshot. */
  versusFull: PairedRunComparison | null;
  /** What the paired intervals of the gated metrics say the stage does. */
  judgement: AblationJudgement | null;
}

/** Pair each measured ablation run with the full run and judge it; not-applicable stages keep their reason. */
export function toAblationRows(
  plan: readonly AblationPlanEntry[],
  runs: ReadonlyMap<AblationStage, EvalRun>,
  full: EvalRun,
): AblationRow[] {
  return plan.map((entry) => {
    const run = runs.get(entry.stage) ?? null;
    if (entry.pipeline === null || run === null) {
      return {
        stage: entry.stage,
        name: entry.name,
        reason: entry.reason,
        run: null,
        versusFull: null,
        judgement: null,
      };
    }
    const versusFull = pairRuns(run, full);
    return {
      stage: entry.stage,
      name: entry.name,
      reason: null,
      run,
      versusFull,
      judgement: judgeAblation(versusFull),
    };
  });
}
