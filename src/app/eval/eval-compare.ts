// Comparing an eval run with its baseline: which run that is (the newest in the history, the newest compatible
// one for --rows, or the one --compare names), the arrows' diff, the paired 95% intervals, and both gates.
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
} from '../../core/eval-diff.js';
import {
  findSignificantRegressions,
  type PairedMetric,
  type PairedRunComparison,
  pairRuns,
} from '../../core/eval-paired.js';
import type { EvalRun } from '../../core/eval-run.js';
import { GrooveError } from '../../errors.js';
import type { ReadCheckedFile } from '../golden/index.js';
import { MAX_HISTORY_BYTES } from './eval-history.js';
import { evalRunFromJson } from './eval-run-json.js';

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

/** What `--compare` names: a run of the history by its timestamp (or a unique prefix of it), else a file. */
export interface CompareTarget {
  /** The value as typed. */
  id: string;
  /** The same value resolved as a path against the working directory. */
  path: string;
}

/**
 * Resolve --compare: a history run whose timestamp equals or uniquely starts with the value, else a JSON file —
 * a `groove eval --format json` report, or a history file (its newest run).
 */
export function resolveCompareTarget(
  target: CompareTarget,
  runs: readonly EvalRun[],
  read: ReadCheckedFile,
): EvalRun {
  const exact = runs.find((r) => r.timestamp === target.id);
  if (exact) return exact;
  const prefixed = runs.filter((r) => r.timestamp.startsWith(target.id));
  if (prefixed.length === 1) return prefixed[0]!;
  if (prefixed.length > 1) {
    throw compareError(
      `--compare "${target.id}" matches ${prefixed.length} runs of the history`,
      'give more of the timestamp',
    );
  }
  const file = read(target.path, { maxBytes: MAX_HISTORY_BYTES });
  if (!file.ok) {
    const known = runs
      .slice(0, 5)
      .map((r) => r.timestamp)
      .join(', ');
    throw compareError(
      `--compare "${target.id}" is neither a run of the eval history nor a readable file (${file.detail})`,
      known
        ? `runs in the history: ${known}`
        : 'the history is empty; pass a JSON file written by `groove eval --format json`',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(file.bytes).toString('utf8'));
  } catch (cause) {
    throw compareError(`--compare file "${target.path}" is not JSON (${(cause as Error).message})`);
  }
  const stored = Array.isArray((value as { runs?: unknown })?.runs)
    ? (value as { runs: unknown[] }).runs[0]
    : value;
  const run = stored === undefined ? null : evalRunFromJson(stored);
  if (!run || run.perQuery.length === 0) {
    throw compareError(`--compare file "${target.path}" holds no eval run with per-query results`);
  }
  return run;
}

function compareError(message: string, hint?: string): GrooveError {
  return new GrooveError('INVALID_ARGUMENT', message, {
    hint: hint ?? 'pass a run timestamp from the history, or a file written by `groove eval --format json`',
  });
}
