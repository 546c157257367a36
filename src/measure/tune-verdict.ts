// The `groove tune` verdict (docs/tune.md): the five adoption criteria, the secondary-metric guard, the
// per-query impact, and the paste-ready `[search.fusion]` snippet. Adopt only when every criterion holds.
import { conditionValues, DEFAULT_CONDITION, type FusionCondition } from './tune-grid.js';
import { TIE_TOLERANCE } from './tune-select.js';

/** Criterion 2: the held-out mean ΔnDCG@5 must exceed this. */
export const MIN_MEAN_DELTA = 0.02;
/**
 * Criterion 3: the held-out mean must exceed this many paired SEs. 3 rather than 2 because the LOO folds share
 * N − 2 queries, so SD/√N understates the real SE (docs/tune.md has the simulation).
 */
export const SE_MULTIPLIER = 3;
/** Criterion 4: more than this share of folds must pick the refit condition. */
export const MIN_STABILITY = 0.5;
/** Secondary means closer than this are equal (sums in a different order are not a regression). */
const SECONDARY_TOLERANCE = 1e-12;

export interface SecondaryMetrics {
  recallAtK: Record<number, number>;
  mrr: number;
}

export interface SecondaryComparison {
  baseline: SecondaryMetrics;
  refit: SecondaryMetrics;
  /** One line per metric the refit made worse, e.g. `recall@10 degraded: 0.8120 -> 0.8000`. */
  violations: string[];
}

export interface VerdictEvidence {
  refit: number;
  meanDelta: number;
  pairedSe: number;
  selectionStability: number;
  effectiveQueryCount: number;
  secondaryViolations: readonly string[];
}

export type TuneVerdict =
  | { decision: 'adopt'; condition: FusionCondition; tomlSnippet: string }
  | { decision: 'keep_default'; reasons: string[] };

export interface PerQueryImpact {
  improved: number;
  degraded: number;
  /** The most negative delta, or null when no query got worse. */
  worstDelta: number | null;
  worstQueryId: string | null;
}

/** Criterion 5, over all usable queries: each recall@k and MRR of the refit must be ≥ the default's. */
export function compareSecondaryMetrics(
  baseline: SecondaryMetrics,
  refit: SecondaryMetrics,
  kValues: readonly number[],
): SecondaryComparison {
  const violations: string[] = [];
  const check = (label: string, before: number, after: number) => {
    if (after < before - SECONDARY_TOLERANCE) {
      violations.push(`${label} degraded: ${before.toFixed(4)} -> ${after.toFixed(4)}`);
    }
  };
  for (const k of kValues) check(`recall@${k}`, baseline.recallAtK[k] ?? 0, refit.recallAtK[k] ?? 0);
  check('MRR', baseline.mrr, refit.mrr);
  return { baseline, refit, violations };
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(4)}`;
}

/** One of the five adoption criteria: whether it holds, and each reason it does not (empty when it holds). */
export interface TuneCriterion {
  /** 1 to 5: the criterion's number in the verdict, the order in which they are checked. */
  number: number;
  /** What the criterion asks, e.g. `held-out mean delta > 0.0200`. */
  rule: string;
  holds: boolean;
  reasons: string[];
}

/** The five criteria in order, each with the reasons it fails (a NaN never holds). */
export function assessCriteria(evidence: VerdictEvidence): TuneCriterion[] {
  const { meanDelta, pairedSe, selectionStability } = evidence;
  const criterion = (number: number, rule: string, reasons: string[]): TuneCriterion => ({
    number,
    rule,
    holds: reasons.length === 0,
    reasons,
  });
  const seReasons = !Number.isFinite(pairedSe)
    ? [
        `paired SE is infinite: ${evidence.effectiveQueryCount} effective query(ies), at least 2 are needed to estimate it`,
      ]
    : meanDelta > SE_MULTIPLIER * pairedSe
      ? []
      : [
          `held-out mean delta ${signed(meanDelta)} <= ${SE_MULTIPLIER} x paired SE ${(SE_MULTIPLIER * pairedSe).toFixed(4)}`,
        ];
  return [
    criterion(
      1,
      'the refit condition differs from the built-in default',
      evidence.refit === DEFAULT_CONDITION
        ? ['the refit condition is the built-in default (rrf_k 60, bm25 weights 2.0/1.0/1.0)']
        : [],
    ),
    criterion(
      2,
      `held-out mean delta > ${MIN_MEAN_DELTA.toFixed(4)}`,
      meanDelta > MIN_MEAN_DELTA
        ? []
        : [`held-out mean delta ${signed(meanDelta)} <= threshold ${MIN_MEAN_DELTA.toFixed(4)}`],
    ),
    criterion(3, `held-out mean delta > ${SE_MULTIPLIER} x paired SE`, seReasons),
    criterion(
      4,
      `selection stability > ${MIN_STABILITY.toFixed(2)}`,
      selectionStability > MIN_STABILITY
        ? []
        : [
            `selection stability ${selectionStability.toFixed(2)} <= ${MIN_STABILITY.toFixed(2)} (the folds disagree on the winner)`,
          ],
    ),
    criterion(
      5,
      'no secondary metric (recall@k, MRR) degraded',
      evidence.secondaryViolations.map((violation) => `secondary metric ${violation}`),
    ),
  ];
}

/** All five criteria or "keep the built-in defaults" with every failing reason (a NaN never adopts). */
export function decideVerdict(evidence: VerdictEvidence): TuneVerdict {
  const reasons = assessCriteria(evidence).flatMap((c) => c.reasons);
  if (reasons.length > 0) return { decision: 'keep_default', reasons };
  const condition = conditionValues(evidence.refit);
  return { decision: 'adopt', condition, tomlSnippet: formatFusionSnippet(condition) };
}

/** A TOML float that reads back as a float: always with a decimal point (`10.0`, `0.5`). */
export function formatTomlFloat(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

export function formatFusionSnippet(condition: FusionCondition): string {
  return [
    '[search.fusion]',
    `rrf_k = ${formatTomlFloat(condition.rrfK)}`,
    `bm25_heading_weight = ${formatTomlFloat(condition.bm25HeadingWeight)}`,
    `bm25_context_weight = ${formatTomlFloat(condition.bm25ContextWeight)}`,
    `bm25_content_weight = ${formatTomlFloat(condition.bm25ContentWeight)}`,
  ].join('\n');
}

/** Refit against default per query: how many improved or degraded, and the worst loss an average can hide. */
export function measurePerQueryImpact(deltas: readonly { id: string; delta: number }[]): PerQueryImpact {
  let improved = 0;
  let degraded = 0;
  let worst: { id: string; delta: number } | null = null;
  for (const entry of deltas) {
    if (entry.delta > TIE_TOLERANCE) improved++;
    if (entry.delta < -TIE_TOLERANCE) {
      degraded++;
      if (worst === null || entry.delta < worst.delta) worst = entry;
    }
  }
  return { improved, degraded, worstDelta: worst?.delta ?? null, worstQueryId: worst?.id ?? null };
}
