// The serve feature's public surface: other features and the facade import only this file.
export { IndexRunner, type IndexRunnerStatus, type IndexRunRecord } from './index-runner.js';
export { type LiveSyncHandle, type LiveSyncStats, startLiveSync } from './live-sync.js';
export {
  MODEL_RETRY_FIRST_MS,
  MODEL_RETRY_MAX_MS,
  type ModelRetryHandle,
  retryModelInBackground,
} from './model-retry.js';
export { followRegistry, type RegistryFollower } from './registry-follow.js';
export {
  type ServeStatus,
  StatusBoard,
  servedKbsStatusToJson,
  serveStatusToJson,
} from './serve-status.js';
export {
  type KbSelector,
  type KbSummary,
  type MissingKb,
  type ServedKb,
  ServedKbs,
  type ServingKb,
} from './served-kbs.js';
