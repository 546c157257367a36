// The serve feature's public surface: other features and the facade import only this file.
export { IndexRunner } from './index-runner.js';
export { type LiveSyncHandle, startLiveSync } from './live-sync.js';
