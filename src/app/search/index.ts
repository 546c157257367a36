// The search feature's public surface: other features and the facade import only this file.
export { buildDocumentFilter } from '../../rank/document-filter.js';
export { FOLD_MODES, type FoldMode } from '../../rank/fold-hits.js';
export { type CompiledLegQuery, compileLegQuery, runLexicalLeg, runVectorLeg } from './candidate-legs.js';
export { type CheckedSearch, checkSearchRequest } from './checked-search.js';
export { type CombinedHit, type CombinedResponse, type SearchPart, searchParts } from './combined-search.js';
export { createPostingsCache, type PostingsCache, sweepLexicalLeg } from './lexical-sweep.js';
export {
  type BoostParams,
  boostParamsOf,
  type EffectiveSearchParams,
  type GraphParams,
  graphParamsOf,
  isBuiltInFusion,
  judgmentWindowOf,
  resolveSearchParams,
  type SearchKnobs,
} from './resolve-search-params.js';
export type { SearchCache, WordRanking } from './search-cache.js';
export { searchWireSchema } from './search-param-schema.js';
export { validateSearchRequest } from './search-request.js';
export { type ReadSnapshot, SearchSession, type SessionView } from './search-session.js';
export {
  type SearchHit,
  type SearchResponse,
  type SearchResponseSettings,
  searchResponseToJson,
} from './search-types.js';
export type { CandidateLeg, SearchOptions } from './searcher.js';
export type { SnapshotMemory } from './snapshot-budget.js';
export { applyTokenBudget } from './token-budget.js';
export { type TokenCounter, tokenCounterFor } from './token-counter.js';
