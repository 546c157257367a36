// The tune feature's public surface: other features and the facade import only this file.
export { formatThresholdSnippet, type ThresholdFit } from '../../measure/tune-threshold.js';
export {
  type FusionCondition,
  type QueryDiagnostics,
  runTune,
  type ScoredFusion,
  type TuneCriterion,
  type TuneEvent,
  type TuneOptions,
  type TuneOutcome,
  type TuneReport,
  type TunerPorts,
} from './tuner.js';
