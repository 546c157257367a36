// Front door of what agents did with served documents: the per-KB tracker and its counts.
export { KbUsage, type KbUsageOwner } from './kb-usage.js';
export { countUsage, NO_USAGE, type UsageCounts } from './usage-counts.js';
