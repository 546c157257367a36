// How long each stage of one search took, in milliseconds of wall time, for the response's `timings_ms`. A stage
// that did not run has no entry. The vector leg runs beside the lexical leg (its query embedding on the
// inference thread), so its time is from its start until its answer was taken up, and the two overlap.

/** The stages a response times, in pipeline order, then the whole search. */
export const TIMED_STAGES = [
  'lexical',
  'vector',
  'fusion',
  'boost',
  'graph',
  'rerank',
  'fold',
  'mmr',
  'parent',
  'total',
] as const;
export type TimedStage = (typeof TIMED_STAGES)[number];
export type StageTimings = Partial<Record<TimedStage, number>>;

export interface StageClock {
  /** Run `work` and add its wall time to `stage` (a stage run several times, as `parent` per hit, adds up). */
  time<T>(stage: TimedStage, work: () => T): T;
  /** Add the wall time from now until `pending` settles to `stage`. */
  timeAsync<T>(stage: TimedStage, pending: Promise<T>): Promise<T>;
  /** Leave a stage out again: it was started but did not run (a leg that answered `disabled`). */
  drop(stage: TimedStage): void;
  /** Every timed stage, and `total` since the clock started; milliseconds rounded to 3 decimals. */
  timings(): StageTimings;
}

export function startStageClock(now: () => number = () => performance.now()): StageClock {
  const started = now();
  const spent = new Map<TimedStage, number>();
  const add = (stage: TimedStage, ms: number) => spent.set(stage, (spent.get(stage) ?? 0) + Math.max(0, ms));
  return {
    time(stage, work) {
      const start = now();
      try {
        return work();
      } finally {
        add(stage, now() - start);
      }
    },
    timeAsync(stage, pending) {
      const start = now();
      const record = () => add(stage, now() - start);
      return pending.then(
        (value) => {
          record();
          return value;
        },
        (error: unknown) => {
          record();
          throw error;
        },
      );
    },
    drop(stage) {
      spent.delete(stage);
    },
    timings() {
      const out: StageTimings = {};
      for (const stage of TIMED_STAGES) {
        const ms = stage === 'total' ? Math.max(0, now() - started) : spent.get(stage);
        if (ms !== undefined) out[stage] = Math.round(ms * 1000) / 1000;
      }
      return out;
    },
  };
}
