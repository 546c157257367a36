// What search learns from judgments, in one value: the boost table and the co-helpful edges, built from an
// explicit list of serves, a clock and the judgment window. The search session builds it from the whole
// feedback table; eval's honest rows build one per golden query from the serves that query did not produce
// (withoutOwnServes), so no judgment behind a label can raise that label.
import { buildCoHelpfulEdges, type CoHelpfulEdges } from './co-helpful-edges.js';
import {
  countJudgments,
  type JudgedServe,
  type JudgmentCounts,
  type JudgmentWindow,
} from './counted-judgments.js';
import { type BoostTable, buildBoostTable } from './feedback-boost.js';

export interface LearnedSignals {
  boost: BoostTable;
  coHelpful: CoHelpfulEdges;
  counts: JudgmentCounts;
}

export function learnSignals(
  serves: readonly JudgedServe[],
  options: { now: Date; window: JudgmentWindow },
): LearnedSignals {
  const { judgments, counts } = countJudgments(serves, options.now, options.window);
  return { boost: buildBoostTable(judgments), coHelpful: buildCoHelpfulEdges(judgments), counts };
}

/** What a golden query leaves out of its own honest signals: its id (a built set's task id) and its text. */
export interface OwnServesKey {
  id: string;
  query: string;
}

/**
 * A query's text as judgments are matched by it: Unicode NFKC (full-width and half-width forms agree), lower
 * case, runs of white space as one space, trimmed.
 */
export function normalizeQueryText(query: string): string {
  return query.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * The serves a golden query did not produce: every serve except those of its task (task id = the query's id,
 * which is how `golden build --from-feedback` names its queries) and those recorded for the same normalised
 * query text (a hand-written set carries no task ids; a re-worded repeat of the task is missed).
 */
export function withoutOwnServes<T extends JudgedServe>(serves: readonly T[], own: OwnServesKey): T[] {
  return ownServesFilter(serves)(own);
}

/** withoutOwnServes for many queries over the same serves: each serve's text is normalised once. */
export function ownServesFilter<T extends JudgedServe>(serves: readonly T[]): (own: OwnServesKey) => T[] {
  const texts = serves.map((s) => normalizeQueryText(s.query));
  return (own) => {
    const text = normalizeQueryText(own.query);
    return serves.filter((s, i) => s.taskId !== own.id && texts[i] !== text);
  };
}
