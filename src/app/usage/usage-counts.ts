// What agents did with the documents searches served them, counted per knowledge base.
import type { ServedPair } from '../../store/usage-log.js';
import type { UsageCounts } from '../indexing/index.js';

export type { UsageCounts };

export const NO_USAGE: UsageCounts = { tasks: 0, served: 0, fetched: 0, judged: 0 };

/** Count `pairs`; `judged` holds `taskId\u0000path` for each judged pair, or null when unknown. */
export function countUsage(pairs: readonly ServedPair[], judged: ReadonlySet<string> | null): UsageCounts {
  const tasks = new Set(pairs.map((pair) => pair.taskId));
  return {
    tasks: tasks.size,
    served: pairs.length,
    fetched: pairs.filter((pair) => pair.fetched).length,
    judged: judged === null ? null : pairs.filter((pair) => judged.has(judgedKey(pair))).length,
  };
}

export function judgedKey(pair: { taskId: string; path: string }): string {
  return `${pair.taskId}\u0000${pair.path}`;
}
