// The KB registry's front door: `groove kb add/list/show/rename/remove` over `<config folder>/kbs.toml`.
export {
  type KbHealth,
  type KbListing,
  type KbOverview,
  kbOverviewToJson,
  kbSettings,
  listKbs,
  registeredKbNames,
  showKb,
} from './kb-overview.js';
export { type KbRemoval, removeKb } from './kb-remove.js';
export {
  type AddKbRequest,
  addKb,
  type KbCommandContext,
  registryPath,
  renameKb,
} from './registry-edits.js';
