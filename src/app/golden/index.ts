// The golden feature's public surface: other features and the facade import only this file.
export {
  assertWithinRate,
  type FeedbackInput,
  type FeedbackReceipt,
  recordFeedback,
} from './feedback.js';
export {
  buildGoldenFromFeedback,
  type FeedbackFilterName,
  type GoldenBuildOptions,
  type GoldenBuildResult,
  type GoldenPorts,
  type GoldenStampResult,
  stampGolden,
} from './golden-build.js';
export {
  checkGoldenKbs,
  type GoldenQuery,
  type GoldenSet,
  loadGoldenFile,
  type ReadCheckedFile,
  resolveGoldenPath,
  withGoldenDefault,
} from './golden-file.js';
export { type GoldenImportOptions, type GoldenImportResult, importGolden } from './golden-import.js';
export { loadGoldenMeta } from './golden-meta.js';
export {
  type GoldenQuoteOptions,
  type GoldenQuoteResult,
  quoteGoldenAnchors,
  type UnanchoredEntry,
  type UnanchoredReason,
} from './golden-quote.js';
