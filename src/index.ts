// Public library API: explicit named exports only. `openKnowledgeBase(resolveConfig(...))` is the way in; the
// facade's methods are the same use cases the CLI and the MCP server call.

export type { IndexSummary } from './app/index.js';
export {
  type CombinedHit,
  type CombinedResponse,
  type IndexOptions,
  type KnowledgeBase,
  type KnowledgeBaseDeps,
  openKnowledgeBase,
  type SearchHit,
  type SearchResponse,
  type SearchTarget,
  type SnapshotMemory,
  type StatusReport,
  searchKnowledgeBases,
  searchResponseToJson,
} from './app/index.js';
export { DEFAULTS } from './config/defaults.js';
export {
  type ConfigOverrides,
  type ResolveConfigOptions,
  type ResolvedConfig,
  resolveConfig,
} from './config/resolve-config.js';
export type { ErrorCode } from './errors.js';
export { ERROR_CODES, GrooveError, isGrooveError } from './errors.js';
export type * from './types.js';
