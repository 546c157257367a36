// The four filters that turn recorded agent judgments into a golden set, each counted, because without each
// one the metric lies: always-served items credit retrieval with work it did not do; a serve with no positive
// says nothing about where a good document belongs; a retired positive asks search for the impossible; a task
// repeated across sessions inflates N and double-weights frequent tasks.
import type { FeedbackItem, FeedbackServe } from '../types.js';
import type { ExpectedEntry } from './eval-metrics.js';

export type FeedbackFilterName = 'always-served' | 'no-positive' | 'positive-not-indexed' | 'repeated-task';

export interface FilterStep {
  filter: FeedbackFilterName;
  /** Serves (queries) this filter removed. */
  queriesRemoved: number;
  /** Items this filter removed (items of a removed query included). */
  itemsRemoved: number;
}

export interface GoldenDraftQuery {
  /** The task id: unique once repeated tasks are collapsed. */
  id: string;
  query: string;
  expected: ExpectedEntry[];
}

export interface GoldenDraft {
  input: { queries: number; items: number; tasks: number };
  steps: FilterStep[];
  queries: GoldenDraftQuery[];
  /** Judged-negative items (noise / wrong) in the kept serves: labelled, but binary golden sets list only positives. */
  negativesKept: number;
}

/** Whether a positive can still be found: its path is indexed (and, with a heading, a chunk carries it). */
export type IsIndexed = (path: string, heading: string | null) => boolean;

/** Apply the four filters in order and turn what survives into golden queries. */
export function filterFeedback(serves: readonly FeedbackServe[], isIndexed: IsIndexed): GoldenDraft {
  const input = {
    queries: serves.length,
    items: serves.reduce((sum, s) => sum + s.items.length, 0),
    tasks: new Set(serves.map((s) => s.taskId)).size,
  };
  const steps: FilterStep[] = [];
  const positive = (item: FeedbackItem) => item.verdict === 'helped';

  // 1. Items served to every task are not retrieval's doing.
  let current = serves.map((s) => ({ ...s, items: s.items.filter((item) => !item.alwaysServed) }));
  steps.push({
    filter: 'always-served',
    queriesRemoved: 0,
    itemsRemoved: input.items - countItems(current),
  });

  // 2. A serve without a positive says nothing about where a good document belongs.
  current = keepServes(current, (s) => s.items.some(positive), 'no-positive', steps);

  // 3. Positives that are no longer indexed cannot be retrieved; a serve left without any goes too.
  const beforeGone = countItems(current);
  current = current.map((s) => ({
    ...s,
    items: s.items.filter((item) => !positive(item) || isIndexed(item.path, item.heading)),
  }));
  const goneItems = beforeGone - countItems(current);
  const stepGone = { queries: 0, items: goneItems };
  const stillPositive = current.filter((s) => s.items.some(positive));
  for (const s of current) {
    if (!s.items.some(positive)) {
      stepGone.queries++;
      stepGone.items += s.items.length;
    }
  }
  current = stillPositive;
  steps.push({
    filter: 'positive-not-indexed',
    queriesRemoved: stepGone.queries,
    itemsRemoved: stepGone.items,
  });

  // 4. The same task across sessions counts once: its latest surviving serve.
  const latest = new Map<string, number>();
  for (const s of current) latest.set(s.taskId, Math.max(latest.get(s.taskId) ?? -Infinity, s.serveId));
  current = keepServes(current, (s) => latest.get(s.taskId) === s.serveId, 'repeated-task', steps);

  const queries = current.map((s) => ({ id: s.taskId, query: s.query, expected: uniquePositives(s.items) }));
  const negativesKept = current.reduce((sum, s) => sum + s.items.filter((i) => !positive(i)).length, 0);
  return { input, steps, queries, negativesKept };
}

function countItems(serves: readonly FeedbackServe[]): number {
  return serves.reduce((sum, s) => sum + s.items.length, 0);
}

function keepServes(
  serves: FeedbackServe[],
  keep: (serve: FeedbackServe) => boolean,
  filter: FeedbackFilterName,
  steps: FilterStep[],
): FeedbackServe[] {
  const kept = serves.filter(keep);
  steps.push({
    filter,
    queriesRemoved: serves.length - kept.length,
    itemsRemoved: countItems(serves) - countItems(kept),
  });
  return kept;
}

/** Positives as expected entries, each (path, trimmed lowercase heading) once, in judged order. */
function uniquePositives(items: readonly FeedbackItem[]): ExpectedEntry[] {
  const seen = new Set<string>();
  const out: ExpectedEntry[] = [];
  for (const item of items) {
    if (item.verdict !== 'helped') continue;
    const key = `${item.path}\u0000${item.heading?.trim().toLowerCase() ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: item.path, heading: item.heading });
  }
  return out;
}
