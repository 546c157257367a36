// Front door of what agents did with served documents: the per-KB tracker and its counts.
export type { UsageCounts } from '../indexing/index.js';
export { KbUsage, type KbUsageOwner, NO_USAGE } from './kb-usage.js';
