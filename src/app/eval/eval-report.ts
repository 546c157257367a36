// What `groove eval` is asked and what it answers: the options, the ports, and the report — one row report per
// measured pipeline (the decision row first), plus what the whole run shares (probe, golden set, history).
import type { BudgetRecallRow } from '../../measure/budget-recall.js';
import type { EvalComparison } from '../../measure/eval-compare.js';
import type { LegFailure } from '../../measure/eval-degradation.js';
import type { PairedRunComparison } from '../../measure/eval-paired.js';
import type { EvalRun } from '../../measure/eval-run.js';
import type { GoldenFreshness } from '../../measure/golden-freshness.js';
import type { StaleQuote } from '../../measure/golden-quote-presence.js';
import type { LegProbeResult } from '../../measure/leg-verdict.js';
import type { FoldMode } from '../../rank/fold-hits.js';
import type { GoldenSet, ReadCheckedFile } from '../golden/index.js';
import type { ReadSnapshot } from '../search/index.js';
import type { CompareTarget } from './compare-target.js';
import type { AblationRow } from './eval-ablation.js';
import type { EvalHistory } from './eval-history.js';
import type { LearningUse } from './eval-learning.js';

export type { EvalComparison, RegressionGate, SignificantGate } from '../../measure/eval-compare.js';
export type { LegFailure } from '../../measure/eval-degradation.js';
export type { AggregateDiff, FlaggedQuery, RegressedMetric, RunComparison } from '../../measure/eval-diff.js';
export type { EvalFingerprint } from '../../measure/eval-fingerprint.js';
export type { PairedMetric, PairedRunComparison } from '../../measure/eval-paired.js';
export type {
  CorpusSnapshot,
  EvalRun,
  LegDegradation,
  QueryResult,
  QuoteFinding,
} from '../../measure/eval-run.js';
export type { CorpusDrift, GoldenFreshness } from '../../measure/golden-freshness.js';
export { formatDrift } from '../../measure/golden-freshness.js';
export type { LegDown, LegProbeResult } from '../../measure/leg-verdict.js';
export type { CompareTarget } from './compare-target.js';
export type { HistoryWriteResult } from './eval-history.js';
export type { LearningUse } from './eval-learning.js';

export interface EvaluateOptions {
  /** `--golden`, already absolute; default `[eval] golden`, then `<kb>/.groove-eval.yml`. */
  golden?: string;
  /** `--k`; default `[eval] k_values`. */
  kValues?: number[];
  /** `--limit`; default the largest k. */
  limit?: number;
  /** false = `--no-history`: neither read nor write the history. */
  history?: boolean;
  /** false = `--no-diff`: compare with nothing (the history is still read and written). */
  diff?: boolean;
  failOnRegression?: boolean;
  /** Exit 1 only when a metric's whole 95% interval lies below zero. */
  failOnSignificantRegression?: boolean;
  /** Measure even with a leg down; the run is recorded as degraded. */
  allowDegraded?: boolean;
  /** Measure even when the golden sidecar is older than [eval] max_golden_age_days. */
  allowStaleGolden?: boolean;
  /** `--compare RUN_ID|PATH`: the baseline instead of the newest history run. */
  compare?: CompareTarget;
  /** `--rows core,rerank,…`: several pipelines in one run; the first decides. */
  rows?: string[];
  /** `--ablate`: also measure the decision pipeline with each of its stages switched off in turn. */
  ablate?: boolean;
  mmr?: boolean;
  mmrLambda?: number;
  mmrSameDocPenalty?: number;
  parentRetriever?: boolean;
  /** `--fold`: fold hits of one section or document, over `[search] fold`. */
  fold?: FoldMode;
  /** `--budget`: also measure recall at these token budgets, passages against whole chunks. */
  budgets?: number[];
}

export interface EvaluatorPorts {
  readFile: ReadCheckedFile;
  /** Run `work` inside one read snapshot of the index (or of several KBs searched as one). */
  withSnapshot<T>(work: (snapshot: ReadSnapshot) => Promise<T>): Promise<T>;
  /** The clock (injectable so tests can age a golden set). */
  now(): Date;
}

/** One measured pipeline of the run: its numbers, its comparison with a baseline, and its pairings. */
export interface EvalRowReport extends EvalComparison {
  run: EvalRun;
  /** `chosen` when --compare named the baseline, else the history's previous run. */
  comparedWith: 'previous' | 'chosen';
  /** A reference row paired with the decision row of the same run (same queries, same snapshot); else null. */
  versusDecision: PairedRunComparison | null;
  /** A row --rows did not name, measured because a learned row needs it (its honest twin, or core). */
  appended: boolean;
  /** A row that learns from judgments (or an honest twin): which judgments it used; else null. */
  learning: LearningUse | null;
  /** A learned or honest row paired with `core` of the same run; else null. */
  versusCore: PairedRunComparison | null;
  /** A learned row paired with its honest twin (this row − twin): the leak; else null. */
  versusTwin: { twin: string; paired: PairedRunComparison } | null;
  legFailures: LegFailure[];
}

/** The decision row's report (the gates apply to it), the reference rows after it, and what every row shares. */
export interface EvalReport extends EvalRowReport {
  /** The reference rows of `--rows` after the decision row; empty for a plain run. */
  otherRows: EvalRowReport[];
  /** `--budget`: recall at each token budget, budgeted passages against whole chunks; absent without it. */
  budget?: BudgetRecallRow[];
  /** `--ablate` on the decision row: every stage, switched off in turn or not applicable; else null. */
  ablation: AblationRow[] | null;
  /** What the leg probe saw before measuring (shared by every row). */
  probe: LegProbeResult;
  /** Age and drift of the golden set; null when it has no sidecar. */
  freshness: GoldenFreshness | null;
  /** Quote entries whose quote is in no chunk of their document (measured only with --allow-stale-golden). */
  staleQuotes?: StaleQuote[];
  /** Diagnostics for stderr (clamped values, a history started fresh). */
  notes: string[];
  golden: GoldenSet;
  /** Null with --no-history. */
  history: EvalHistory | null;
}

/** Every row of the report, the decision row first. */
export function rowsOf(report: EvalReport): EvalRowReport[] {
  return [report, ...report.otherRows];
}
