// The application's public surface: the edges (cli, mcp, the local socket, the status page) and bench import only
// this file. A search goes through KnowledgeBase.search; `searchStages` exposes its stages one by one for the
// stage-timing benchmarks only.
import {
  buildDocumentFilter,
  compileLegQuery,
  runLexicalLeg,
  validateSearchRequest,
} from './search/index.js';

export { displayLine, displayPath } from '../core/display-path.js';
export { isHit as isExpectedHit } from '../measure/eval-metrics.js';
export { isGatedMetric } from '../measure/eval-paired.js';
export { describeLeg, legBroke } from '../measure/leg-health.js';
export { describeLegsDown, refuseDownLegs } from '../measure/leg-verdict.js';
export { TIE_TOLERANCE } from '../measure/tune-select.js';
export type { LegHealth, LegReport, LegState } from '../types.js';
export {
  type ConnectionGraph,
  connectionGraphToJson,
  type GraphEdge,
  type GraphEdgeKind,
  type GraphNode,
  type GraphRequest,
  isServedExtension,
  topicListingToJson,
} from './browse/index.js';
export { withCombinedEvalSnapshot } from './combined-eval-snapshot.js';
export {
  type DoctorFinding,
  type DoctorReport,
  doctorReportToJson,
  type Severity,
} from './doctor/index.js';
export {
  createEmbedderFor,
  listRegisteredModels,
  pullRegisteredModel,
} from './embedding/index.js';
export {
  type AblationRow,
  type AbstentionMetrics,
  buildEvalTrend,
  type EvalOutcome,
  type EvalOutput,
  type EvalReport,
  type EvalRequest,
  type EvalRowReport,
  type EvalTrendPoint,
  type EvaluateOptions,
  evalReportToJson,
  formatDrift,
  type GoldenFreshness,
  type LearningUse,
  type NamedMetric,
  namedAggregateMetrics,
  type PairedMetric,
  type PairedRunComparison,
  type QuoteFinding,
  type RateWithInterval,
  rowsOf,
} from './eval/index.js';
export type {
  FeedbackFilterName,
  GoldenBuildResult,
  GoldenImportResult,
  GoldenQuoteResult,
  GoldenStampResult,
  UnanchoredEntry,
} from './golden/index.js';
export {
  type IndexEvent,
  type IndexSummary,
  indexSummaryToJson,
  statusReportToJson,
  withDefaultIndexPath,
} from './indexing/index.js';
export { quoteGolden } from './kb-golden-quote.js';
export {
  type IndexOptions,
  type KnowledgeBase,
  type KnowledgeBaseDeps,
  openKnowledgeBase,
  type StatusReport,
} from './knowledge-base.js';
export { checkReportPath, writeReportFile } from './report-file.js';
export {
  type CombinedHit,
  type CombinedResponse,
  type EffectiveSearchParams,
  FOLD_MODES,
  type FoldMode,
  type SearchHit,
  type SearchResponse,
  type SnapshotMemory,
  searchResponseToJson,
  searchWireSchema,
} from './search/index.js';
export { type SearchTarget, searchKnowledgeBases } from './search-knowledge-bases.js';
export {
  followRegistry,
  IndexRunner,
  type KbSelector,
  type KbSummary,
  type LiveSyncHandle,
  type MissingKb,
  MODEL_RETRY_FIRST_MS,
  MODEL_RETRY_MAX_MS,
  type ModelRetryHandle,
  type RegistryFollower,
  retryModelInBackground,
  type ServedKb,
  ServedKbs,
  type ServeStatus,
  type ServingKb,
  StatusBoard,
  servedKbsStatusToJson,
  serveStatusToJson,
  startLiveSync,
} from './serve/index.js';
export {
  type FusionCondition,
  formatThresholdSnippet,
  type QueryDiagnostics,
  type ScoredFusion,
  type ThresholdFit,
  type TuneCriterion,
  type TuneEvent,
  type TuneOutcome,
  type TuneReport,
} from './tune/index.js';
export {
  type FileViolations,
  type ValidationReport,
  type Violation,
  type ViolationKind,
  validateKnowledgeBase,
} from './validate/index.js';

/** The search pipeline's stages, callable one at a time (bench/search-stages.ts times each). */
export const searchStages = {
  validateRequest: validateSearchRequest,
  compileQuery: compileLegQuery,
  documentFilter: buildDocumentFilter,
  lexicalLeg: runLexicalLeg,
} as const;
export {
  type AddKbRequest,
  addKb,
  type KbCommandContext,
  type KbHealth,
  type KbListing,
  type KbOverview,
  type KbRemoval,
  kbOverviewToJson,
  listKbs,
  registeredKbNames,
  registryPath,
  removeKb,
  renameKb,
  showKb,
} from './kbs/index.js';
export {
  checkServicePaths,
  installService,
  planService,
  type ServicePlan,
  type ServiceRequest,
  type ServiceState,
  serviceStatus,
  uninstallService,
} from './service/index.js';
export { KbUsage, type UsageCounts } from './usage/index.js';
