// How many judged items one client may record: a token bucket refilled at `perMinute` items a minute and holding
// at most `perMinute` (so a burst never exceeds one minute's worth). Pure: the clock is handed in.

export interface JudgmentBudget {
  /** Null when `items` may be recorded now, else the whole seconds to wait until they may. */
  waitFor(items: number): number | null;
  /** Take `items` from the bucket (after they were stored). */
  spend(items: number): void;
  /** The most one call may ever record: the bucket's size. */
  readonly capacity: number;
}

const MINUTE_MS = 60_000;

export function createJudgmentBudget(perMinute: number, now: () => number): JudgmentBudget {
  let tokens = perMinute;
  let refilledAt = now();
  const refill = () => {
    const at = now();
    tokens = Math.min(perMinute, tokens + ((at - refilledAt) * perMinute) / MINUTE_MS);
    refilledAt = at;
  };
  return {
    capacity: perMinute,
    waitFor(items) {
      refill();
      if (items <= tokens) return null;
      return Math.max(1, Math.ceil(((items - tokens) * MINUTE_MS) / perMinute / 1000));
    },
    spend(items) {
      refill();
      tokens -= items;
    },
  };
}
