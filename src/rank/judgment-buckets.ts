// Judgments summed per UTC day at write time, so a search reads one row per (document, heading, day) instead of
// every judgment. A judgment recorded at t weighs 0.5 ^ ((now − t) / h) at search time; split at the day's
// latest judgment L: 0.5 ^ ((now − L) / h) × 2 ^ ((t − L) / h). The second factor does not depend on `now`, so a
// day is stored as S = Σ 2 ^ ((t − L) / h) — each term in (2 ^ (−1 / h), 1] — with L, and read as
// S × 0.5 ^ ((now − L) / h). Exact while every judgment of the day is at most `now` and inside the horizon: a
// day's earliest and latest times are stored with it, and a day that straddles `now` or the horizon's edge is
// read judgment by judgment.

export const DAY_MS = 86_400_000;

/** The UTC day a time falls in (days since 1970-01-01), or null when the time does not parse (never counts). */
export function dayOf(atMs: number): number | null {
  return Number.isNaN(atMs) ? null : Math.floor(atMs / DAY_MS);
}

/** A day's stored weight sums (helped; noise and wrong) and the time (ms) they are anchored at: its latest judgment. */
export interface DaySums {
  helped: number;
  negative: number;
  lastAtMs: number;
}

/** Merge two days' sums (a renamed document's days into the new path's): the older is re-anchored at the newer. */
export function mergeDays(a: DaySums, b: DaySums, halfLifeDays: number): DaySums {
  const [older, newer] = a.lastAtMs <= b.lastAtMs ? [a, b] : [b, a];
  const factor = relative(older.lastAtMs - newer.lastAtMs, halfLifeDays);
  return {
    helped: newer.helped + older.helped * factor,
    negative: newer.negative + older.negative * factor,
    lastAtMs: newer.lastAtMs,
  };
}

/** A day's summed weights at `now`: each sum × 0.5 ^ ((now − L) / h). */
export function daySumsAt(
  day: DaySums,
  now: Date,
  halfLifeDays: number,
): { helped: number; negative: number } {
  const scale = 0.5 ** ((now.getTime() - day.lastAtMs) / DAY_MS / halfLifeDays);
  return { helped: day.helped * scale, negative: day.negative * scale };
}

/** 2 ^ (Δ / h) for Δ ≤ 0 in ms: the weight of a judgment Δ before the anchor, relative to one at it. */
function relative(deltaMs: number, halfLifeDays: number): number {
  return deltaMs === 0 ? 1 : 2 ** (deltaMs / DAY_MS / halfLifeDays);
}

/** The span of one stored day: its earliest and latest judgment, in ms since the epoch. */
export interface DaySpan {
  firstAtMs: number;
  lastAtMs: number;
}

/**
 * How a stored day counts at `now`: `whole` (every judgment is at most `now` and inside the horizon, so the
 * stored sum is exact), `none` (every judgment is past the horizon), or `itemized` (read its judgments one by one).
 */
export function dayStanding(span: DaySpan, now: Date, horizonDays: number): 'whole' | 'none' | 'itemized' {
  const nowMs = now.getTime();
  const ageOf = (atMs: number) => Math.max(0, (nowMs - atMs) / DAY_MS);
  if (ageOf(span.lastAtMs) > horizonDays) return 'none';
  if (span.lastAtMs <= nowMs && ageOf(span.firstAtMs) <= horizonDays) return 'whole';
  return 'itemized';
}
