// What the HTML report plots and tabulates: every aggregate metric of a run under the name the paired intervals
// use (`recall@5`, `MRR`, `nDCG@10`, `P@10`, …), and the trend over the eval history — each stored run against
// the current one, compatible or not, degraded or not — oldest first, the current run last.
import { compareRuns, type RunComparison } from '../../measure/eval-diff.js';
import type { AggregateMetrics } from '../../measure/eval-metrics.js';
import type { EvalRun } from '../../measure/eval-run.js';
import type { EvalReport } from './eval-report.js';

export interface NamedMetric {
  metric: string;
  /** Null when the run did not measure it (older history has no P@k, MAP@k, hit rate, R-precision). */
  value: number | null;
}

/**
 * The run's aggregate metrics at the given k values, in the paired comparison's order, then judged@k;
 * recall, MRR and nDCG are always present, the others only when the run measured them.
 */
export function namedAggregateMetrics(
  aggregate: AggregateMetrics,
  kValues: readonly number[],
): NamedMetric[] {
  const { extra, judgedAtK } = aggregate;
  const byK = (name: string, values: Record<number, number> | undefined) =>
    kValues.map((k) => ({ metric: `${name}@${k}`, value: values?.[k] ?? null }));
  return [
    ...byK('recall', aggregate.recallAtK),
    { metric: 'MRR', value: aggregate.mrr },
    ...byK('nDCG', aggregate.ndcgAtK),
    ...byK('P', extra?.precisionAtK),
    ...byK('MAP', extra?.mapAtK),
    ...byK('hit', extra?.hitRateAtK),
    { metric: 'R-precision', value: extra?.rPrecision ?? null },
    ...byK('judged', judgedAtK),
  ];
}

export interface EvalTrendPoint {
  timestamp: string;
  /** The `--rows` row the run measured; null for a plain run. */
  row: string | null;
  /** The run this report measured (always the last point). */
  current: boolean;
  /** How the run's fingerprint compares with the current run's: only `compatible` runs are joined by a line. */
  comparison: RunComparison;
  /** Measured with a leg down (--allow-degraded). */
  degraded: boolean;
  /** The metrics of the current run's k values; a metric the run lacks is null. */
  values: NamedMetric[];
}

/**
 * The decision row's metrics over the history read before this run, oldest first, plus this run as the last
 * point. Empty history (or --no-history): one point, the current run.
 */
export function buildEvalTrend(report: EvalReport): EvalTrendPoint[] {
  const current = report.run;
  const kValues = current.fingerprint.kValues;
  const point = (run: EvalRun, isCurrent: boolean): EvalTrendPoint => ({
    timestamp: run.timestamp,
    row: run.row ?? null,
    current: isCurrent,
    comparison: isCurrent ? 'compatible' : compareRuns(current.fingerprint, run.fingerprint),
    degraded: (run.fingerprint.degraded ?? []).length > 0 || (run.degradation ?? []).length > 0,
    values: namedAggregateMetrics(run.aggregate, kValues),
  });
  const stored = [...(report.history?.runs ?? [])].reverse();
  return [...stored.map((run) => point(run, false)), point(current, true)];
}
