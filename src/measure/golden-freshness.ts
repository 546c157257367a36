// How fresh a golden set is: its age against [eval] max_golden_age_days (past it eval refuses) and how far the
// corpus has moved since the set was judged (past golden_drift_warn eval warns). Pure: the clock is an input.

/** The sidecar `<golden>.meta.yml`: when the set was made and the corpus it was judged against. */
export interface GoldenMeta {
  /** RFC 3339 time the set was built or stamped. */
  created: string;
  corpusDocuments: number;
  corpusChunks: number;
  /** How the set came to be: `feedback` (golden build) or `stamp` (a hand-written set, stamped). */
  source: string;
}

export interface CorpusCounts {
  documents: number;
  chunks: number;
}

export interface GoldenFreshness {
  meta: GoldenMeta;
  /** Whole and fractional days since `created` (negative when the clock is behind the sidecar). */
  ageDays: number;
  maxAgeDays: number;
  /** Older than maxAgeDays: eval refuses unless --allow-stale-golden. */
  stale: boolean;
  /** Filled in once the measured corpus is known. */
  drift: CorpusDrift | null;
}

export interface CorpusDrift {
  /** The counts the sidecar recorded when the set was made. */
  atCreation: CorpusCounts;
  now: CorpusCounts;
  /** The larger relative change of the two counts (0.077 = 7.7%); +∞ when the set was judged on an empty index. */
  change: number;
  warnAbove: number;
  /** change > warnAbove. */
  drifted: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Age of the set at `now` and whether it is past the limit. */
export function assessGoldenAge(meta: GoldenMeta, now: Date, maxAgeDays: number): GoldenFreshness {
  const ageDays = (now.getTime() - Date.parse(meta.created)) / DAY_MS;
  return { meta, ageDays, maxAgeDays, stale: ageDays > maxAgeDays, drift: null };
}

/** Relative movement of the corpus since the set was judged. */
export function measureCorpusDrift(
  atCreation: CorpusCounts,
  now: CorpusCounts,
  warnAbove: number,
): CorpusDrift {
  const relative = (before: number, after: number) => {
    if (before === after) return 0;
    return before === 0 ? Number.POSITIVE_INFINITY : Math.abs(after - before) / before;
  };
  const change = Math.max(
    relative(atCreation.documents, now.documents),
    relative(atCreation.chunks, now.chunks),
  );
  return { atCreation, now, change, warnAbove, drifted: change > warnAbove };
}

/** `7.7%`, or `from an empty index` when there was nothing to compare against. */
export function formatDrift(change: number): string {
  return Number.isFinite(change) ? `${(change * 100).toFixed(1)}%` : 'from an empty index';
}
