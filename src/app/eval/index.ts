// The eval feature's public surface: other features and the facade import only this file.
export { ABLATION_STAGES, type AblationRow, type AblationStage } from './eval-ablation.js';
export { evalReportToJson } from './eval-report-json.js';
export { type TrecExportOptions, writeTrecFiles } from './eval-trec.js';
export {
  buildEvalTrend,
  type EvalTrendPoint,
  type NamedMetric,
  namedAggregateMetrics,
} from './eval-trend.js';
export {
  type EvalReport,
  type EvalSnapshot,
  type EvaluateOptions,
  formatDrift,
  type HistoryWriteResult,
  type LearningUse,
  type PairedMetric,
  type PairedRunComparison,
  type QuoteFinding,
  recordEvalRun,
  runEvaluation,
} from './evaluator.js';
export { type LegProbeOptions, pickProbeSample, probeLegs } from './leg-probe.js';
