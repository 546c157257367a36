// One measured row of eval (a decision, reference or ablation row) as a run: its fingerprint, its aggregate
// with the extra metrics and judged@k, its findings, and the refusal of a row whose legs failed on some queries.
import { abstentionCases, computeAbstention } from '../../measure/abstention-metrics.js';
import { collectDegradation } from '../../measure/eval-degradation.js';
import type { EvalFingerprint } from '../../measure/eval-fingerprint.js';
import {
  type AggregateMetrics,
  aggregateMetrics,
  METRIC_VERSION,
  type MetricsByK,
} from '../../measure/eval-metrics.js';
import { aggregateExtraMetrics } from '../../measure/eval-metrics-extra.js';
import type { CorpusSnapshot, EvalRun, QuoteFinding } from '../../measure/eval-run.js';
import { componentDownError, type LegProbeResult } from '../../measure/leg-verdict.js';
import { FTS_QUERY_VERSION } from '../../rank/fts-query.js';
import type { GoldenSet } from '../golden/index.js';
import { type LearningUse, learnedFingerprint } from './eval-learning.js';
import type { RowMeasurement } from './eval-measure.js';
import type { EvalRowSpec } from './eval-rows.js';

/** What one measured row needs to become a run: the snapshot's measurements and the run's settings. */
export interface RunContext {
  measured: {
    probe: LegProbeResult;
    measurements: readonly RowMeasurement[];
    learningUse: readonly (LearningUse | null)[];
    judged: readonly (MetricsByK | null)[];
    findings: readonly QuoteFinding[][];
    corpus: CorpusSnapshot;
    model: string;
    contextMode: 'static' | 'off';
    /** The KBs of a cross-KB eval, sorted; null for one KB. */
    kbs: string[] | null;
  };
  depth: { limit: number; kValues: number[] };
  golden: GoldenSet;
  timestamp: string;
  allowDegraded: boolean | undefined;
}

/**
 * The i-th measured row as a run: its fingerprint, aggregate and findings. A row whose legs failed on some
 * queries is refused unless --allow-degraded, which records the degradation in the run and its fingerprint.
 */
export function buildRun(row: EvalRowSpec, i: number, context: RunContext): EvalRun {
  const { measured, depth, golden, timestamp } = context;
  const measurement = measured.measurements[i]!;
  const degradation = collectDegradation(measured.probe, measurement.legFailures, golden.queries.length);
  if (degradation.length > 0 && context.allowDegraded !== true) {
    throw componentDownError(
      `component down: ${degradation[0]!.leg} — ${degradation[0]!.reason}; the numbers would mix healthy and degraded queries`,
    );
  }
  const { pipeline } = row;
  const fingerprint: EvalFingerprint = {
    model: measured.model,
    reranker: pipeline.reranker,
    limit: depth.limit,
    kValues: depth.kValues,
    goldenHash: golden.hash,
    ...(measured.kbs ? { kbs: measured.kbs } : {}),
    metricVersion: METRIC_VERSION,
    ftsQueryVersion: FTS_QUERY_VERSION,
    ...(pipeline.mmr ? { mmr: pipeline.mmr } : {}),
    ...(pipeline.fold !== 'none' ? { fold: pipeline.fold } : {}),
    ...(pipeline.parentRetriever ? { parentRetriever: pipeline.parentRetriever } : {}),
    ...(pipeline.fusion ? { fusion: pipeline.fusion } : {}),
    ...learnedFingerprint(pipeline, measured.learningUse[i]!),
    ...(measured.contextMode !== 'off' ? { context: { mode: measured.contextMode } } : {}),
    ...(degradation.length > 0 ? { degraded: [...new Set(degradation.map((d) => d.leg))].sort() } : {}),
  };
  const run: EvalRun = {
    timestamp,
    fingerprint,
    corpus: measured.corpus,
    aggregate: withExtraAggregate(
      measured.judged[i] ?? null,
      aggregateMetrics(measurement.perQuery, depth.kValues),
      measurement.perQuery,
      depth.kValues,
    ),
    perQuery: measurement.perQuery,
    findings: measured.findings[i]!,
    ...(row.name === null ? {} : { row: row.name }),
    ...(degradation.length > 0 ? { degradation } : {}),
    ...abstentionOf(measurement),
  };
  return run;
}

/** The aggregate plus the means of P@k, MAP@k, hit rate@k and R-precision, and judged@k when measured. */
function withExtraAggregate(
  judgedAtK: MetricsByK | null,
  aggregate: AggregateMetrics,
  perQuery: EvalRun['perQuery'],
  kValues: readonly number[],
): AggregateMetrics {
  const extra = aggregateExtraMetrics(
    perQuery.map((q) => ({ expected: q.expected, extra: q.metrics.extra })),
    kValues,
  );
  return { ...aggregate, ...(extra ? { extra } : {}), ...(judgedAtK ? { judgedAtK } : {}) };
}

/** The row's abstention on the golden set's negative queries, when it has any. */
function abstentionOf(measurement: RowMeasurement): Pick<EvalRun, 'abstention'> {
  const abstention = computeAbstention(abstentionCases(measurement.perQuery), measurement.minConfidence ?? 0);
  return abstention ? { abstention } : {};
}
