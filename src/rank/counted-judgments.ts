// The judgments learned features (the boost, the co-helpful graph edges) count, read from the recorded serves:
// every judged item except always-served ones (they were injected, not ranked, so they say nothing about
// ranking), each weighted by its age — halving every `halfLifeDays` — and none older than `horizonDays`.
import type { FeedbackServe, FeedbackVerdict } from '../types.js';

/** A recorded serve with the time it was recorded (RFC 3339), which the learned features age it by. */
export interface JudgedServe extends FeedbackServe {
  recordedAt: string;
}

/** How judgments age: [search.boost] half_life_days and horizon_days, shared by every learned feature. */
export interface JudgmentWindow {
  halfLifeDays: number;
  horizonDays: number;
}

export interface CountedJudgment {
  serveId: number;
  taskId: string;
  path: string;
  heading: string | null;
  verdict: FeedbackVerdict;
  /** 0.5 ^ (age in days / half-life): 1 for a judgment recorded now. */
  weight: number;
}

export interface JudgmentCounts {
  /** Serves and judged items handed in. */
  serves: number;
  items: number;
  /** Items that count: not always-served, and recorded within the horizon. */
  counted: number;
  alwaysServed: number;
  pastHorizon: number;
}

const DAY_MS = 86_400_000;

/**
 * Days between `recordedAt` and `now`; a time after `now` (a clock moved back) is age 0, and a time that does
 * not parse is infinitely old, so it never counts.
 */
export function ageInDays(recordedAt: string, now: Date): number {
  const at = Date.parse(recordedAt);
  if (Number.isNaN(at)) return Number.POSITIVE_INFINITY;
  return Math.max(0, (now.getTime() - at) / DAY_MS);
}

/** The weight of a judgment `ageDays` old: it halves every `halfLifeDays`. */
export function decayWeight(ageDays: number, halfLifeDays: number): number {
  return 0.5 ** (ageDays / halfLifeDays);
}

/** Every judged item that counts, with its weight, in recording order; and what was left out. */
export function countJudgments(
  serves: readonly JudgedServe[],
  now: Date,
  window: JudgmentWindow,
): { judgments: CountedJudgment[]; counts: JudgmentCounts } {
  const counts: JudgmentCounts = {
    serves: serves.length,
    items: 0,
    counted: 0,
    alwaysServed: 0,
    pastHorizon: 0,
  };
  const judgments: CountedJudgment[] = [];
  for (const serve of serves) {
    counts.items += serve.items.length;
    const age = ageInDays(serve.recordedAt, now);
    const inWindow = age <= window.horizonDays;
    const weight = decayWeight(age, window.halfLifeDays);
    for (const item of serve.items) {
      if (item.alwaysServed) {
        counts.alwaysServed++;
        continue;
      }
      if (!inWindow) {
        counts.pastHorizon++;
        continue;
      }
      judgments.push({
        serveId: serve.serveId,
        taskId: serve.taskId,
        path: item.path,
        heading: item.heading,
        verdict: item.verdict,
        weight,
      });
    }
  }
  counts.counted = judgments.length;
  return { judgments, counts };
}
