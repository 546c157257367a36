// The models feature's public surface: other features and the facade import only this file.
export {
  createEmbedderFor,
  createRerankerFor,
  embedderIdOf,
  prestartInference,
  searchOpensLocalModel,
  stopUnusedInference,
} from './embedder-factory.js';
export { checkEmbeddingModelId, listRegisteredModels, pullRegisteredModel } from './model-catalog.js';
export { findModelFilesProblem, type ModelFilesProblem } from './model-files.js';
export {
  adoptIndexModel,
  assertSameIdentity,
  type IndexIdentity,
  identityFromMeta,
  identityOf,
  identityToMeta,
} from './model-identity.js';
export { embedderInsteadOf, loadFailureOf, mayLoadLater, rerankerInsteadOf } from './unloaded-models.js';
