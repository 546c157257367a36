// The learned signals a search session reads from its index: the boost from the sums stored as judgments were
// written (store/feedback-evidence.ts) when they were written with this half-life, so a boosted search reads a
// few rows per judged document; the co-helpful edges and the counts (and the boost under another half-life)
// from every judgment, read only when asked for.
import type { JudgedServe, JudgmentWindow } from '../../rank/counted-judgments.js';
import { type LearnedSignals, learnSignals } from '../../rank/learned-signals.js';
import { createStoredBoostTable, evidenceHalfLife } from '../../store/feedback-evidence.js';
import type { SqliteDatabase } from '../../store/open-database.js';

export function learnedSignalsOf(
  db: SqliteDatabase,
  judgments: () => readonly JudgedServe[],
  options: { now: Date; window: JudgmentWindow },
): LearnedSignals {
  const { now, window } = options;
  if (evidenceHalfLife(db) !== window.halfLifeDays) return learnSignals(judgments(), options);
  let whole: LearnedSignals | undefined;
  const fromJudgments = () => {
    whole ??= learnSignals(judgments(), options);
    return whole;
  };
  return {
    boost: createStoredBoostTable(db, { now, ...window }),
    get coHelpful() {
      return fromJudgments().coHelpful;
    },
    get counts() {
      return fromJudgments().counts;
    },
  };
}
