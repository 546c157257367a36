// The index feature's public surface: other features and the facade import only this file.

export { withFeedbackDatabase } from './feedback-database.js';
export { type IndexBackend, openIndexBackend, unsupportedOnSharedStore } from './index-backend.js';
export { checkIndexLocation, IndexDatabase } from './index-database.js';
export {
  type IndexEvent,
  type IndexEventSink,
  type IndexSummary,
  indexSummaryToJson,
} from './index-events.js';
export { type FileSession, IndexFile } from './index-file.js';
export { inspectIndexLock, type LockOwner, type LockState } from './index-lock.js';
export {
  assertIndexOwner,
  crossKbEvalHistoryPathOf,
  evalHistoryPathOf,
  judgeIndexOwner,
  type KbIdentity,
  kbGoldenPathOf,
  kbIdentityOf,
  kbOwnFolder,
  kbOwnFolderPath,
  type OwnerVerdict,
  ownIndexPath,
  withDefaultIndexPath,
} from './index-owner.js';
export {
  readIndexStatus,
  requireKbPaths,
  type StatusReport,
  statusReportToJson,
  type UsageCounts,
} from './index-status.js';
export { type IndexOptions, indexKnowledgeBase } from './index-writer.js';
export { buildIndexerPorts, type ExtractedFile, extractFile } from './indexer-ports.js';
export { guardSettingsDropsAt } from './settings-guard.js';
export type { ReplicaEvents } from './shared-index.js';
