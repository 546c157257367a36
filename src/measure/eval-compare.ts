// Comparing an eval run with its baseline: which history run that is (the newest, or the newest compatible one
// for --rows), the arrows' diff, the paired 95% intervals, and both gates. Pure: the runs come in as values.
import {
  type AggregateDiff,
  compareRuns,
  describeCorpusChange,
  diffAggregates,
  type FlaggedQuery,
  findRegressions,
  isCorpusChanged,
  type RegressedMetric,
  type RunComparison,
  selectFlaggedQueries,
} from './eval-diff.js';
import {
  findSignificantRegressions,
  type PairedMetric,
  type PairedRunComparison,
  pairRuns,
} from './eval-paired.js';
import type { EvalRun } from './eval-run.js';

export type RegressionGate =
  | { state: 'off' }
  | { state: 'no-op'; reason: string }
  | { state: 'passed'; against: string }
  | { state: 'regressed'; against: string; regressions: RegressedMetric[] };

/** --fail-on-significant-regression: fails only when a metric's whole 95% interval lies below zero. */
export type SignificantGate =
  | { state: 'off' }
  | { state: 'no-op'; reason: string }
  | { state: 'passed'; against: string }
  | { state: 'regressed'; against: string; regressions: PairedMetric[] };

export interface EvalComparison {
  /** The run compared against; null with --no-diff, --no-history or none yet. */
  previous: EvalRun | null;
  comparison: RunComparison;
  /** Set only when the previous run is compatible. */
  diff: AggregateDiff | null;
  /** Paired differences with 95% intervals; set only when the previous run is compatible. */
  paired: PairedRunComparison | null;
  corpusChanged: boolean | null;
  corpusChange: string | null;
  flagged: { k: number; rows: FlaggedQuery[] };
  regressionThreshold: number;
  gate: RegressionGate;
  significantGate: SignificantGate;
}

export interface CompareOptions {
  history: boolean;
  diff: boolean;
  failOnRegression: boolean;
  failOnSignificantRegression?: boolean;
  threshold: number;
}

/**
 * Compare a run with its baseline. With --no-diff nothing is compared (and the gates are no-ops); the diff and
 * the intervals need the whole fingerprint to match, while the corpus note never depends on it.
 */
export function compareWithPrevious(
  run: EvalRun,
  baseline: EvalRun | null,
  options: CompareOptions,
): EvalComparison {
  const previous = options.diff ? baseline : null;
  const comparison = compareRuns(run.fingerprint, previous?.fingerprint ?? null);
  const compatible = comparison === 'compatible' ? previous : null;
  const paired = compatible ? pairRuns(run, compatible) : null;
  const noOp = noOpReason(options, comparison);
  return {
    previous,
    comparison,
    diff: compatible ? diffAggregates(run.aggregate, compatible.aggregate) : null,
    paired,
    corpusChanged: isCorpusChanged(run.corpus, previous?.corpus ?? null),
    corpusChange: describeCorpusChange(run.corpus, previous?.corpus ?? null),
    flagged: selectFlaggedQueries(run, compatible, options.threshold),
    regressionThreshold: options.threshold,
    gate: decideGate(run, compatible, options.failOnRegression, noOp, options.threshold),
    significantGate: decideSignificantGate(paired, options.failOnSignificantRegression === true, noOp),
  };
}

/** The gates are no-ops without a previous run, with --no-history or --no-diff, or across fingerprints. */
function noOpReason(options: CompareOptions, comparison: RunComparison): string | null {
  if (!options.history) return '--no-history is set';
  if (!options.diff) return '--no-diff is set';
  if (comparison === 'none') return 'there is no previous run yet';
  if (comparison === 'golden-changed') return 'the golden file changed since the previous run';
  if (comparison === 'kbs-changed') return 'the previous run measured another set of knowledge bases';
  if (comparison === 'degradation-changed') {
    return 'one of the two runs was measured with a component down (--allow-degraded)';
  }
  if (comparison === 'config-changed') {
    return 'the previous run has a different fingerprint (config or metric version changed)';
  }
  return null;
}

function decideGate(
  run: EvalRun,
  compatible: EvalRun | null,
  enabled: boolean,
  noOp: string | null,
  threshold: number,
): RegressionGate {
  if (!enabled) return { state: 'off' };
  if (noOp !== null || !compatible) return { state: 'no-op', reason: noOp ?? 'nothing to compare' };
  const regressions = findRegressions(run.aggregate, compatible.aggregate, threshold);
  const against = compatible.timestamp;
  return regressions.length > 0 ? { state: 'regressed', against, regressions } : { state: 'passed', against };
}

function decideSignificantGate(
  paired: PairedRunComparison | null,
  enabled: boolean,
  noOp: string | null,
): SignificantGate {
  if (!enabled) return { state: 'off' };
  if (noOp !== null || !paired) return { state: 'no-op', reason: noOp ?? 'nothing to compare' };
  if (paired.sharedQueries < 2) {
    return {
      state: 'no-op',
      reason: `only ${paired.sharedQueries} shared query; an interval needs 2 or more`,
    };
  }
  const regressions = findSignificantRegressions(paired);
  return regressions.length > 0
    ? { state: 'regressed', against: paired.against, regressions }
    : { state: 'passed', against: paired.against };
}

/**
 * Which history run a row is compared with: the newest (a plain run), or for --rows
 * the newest with the same fingerprint — the rows of one run interleave in the history, so "newest" would
 * almost always be another row. A row measured for the first time has no baseline.
 */
export function selectBaseline(
  runs: readonly EvalRun[],
  run: EvalRun,
  mode: 'newest' | 'newest-compatible',
): EvalRun | null {
  if (mode === 'newest') return runs[0] ?? null;
  return runs.find((r) => compareRuns(run.fingerprint, r.fingerprint) === 'compatible') ?? null;
}
