// The eval feature's public surface: other features and the facade import only this file.
export type { AbstentionMetrics, RateWithInterval } from '../../measure/abstention-metrics.js';
export { ABLATION_STAGES, type AblationRow, type AblationStage } from './eval-ablation.js';
export type { HistoryWriteResult } from './eval-history.js';
export {
  type EvalReport,
  type EvalRowReport,
  type EvaluateOptions,
  formatDrift,
  type GoldenFreshness,
  type LearningUse,
  type PairedMetric,
  type PairedRunComparison,
  type QuoteFinding,
  rowsOf,
} from './eval-report.js';
export { evalReportToJson } from './eval-report-json.js';
export type { TrecExportOptions } from './eval-trec.js';
export {
  buildEvalTrend,
  type EvalTrendPoint,
  type NamedMetric,
  namedAggregateMetrics,
} from './eval-trend.js';
export { runEvaluation } from './evaluator.js';
export { type LegProbeOptions, probeSnapshotLegs } from './leg-probe.js';
export {
  checkReportTarget,
  type EvalFilePorts,
  type EvalOutcome,
  type EvalOutput,
  type EvalRequest,
  type EvalRunContext,
  runEval,
} from './run-eval.js';
