// What makes two eval runs comparable: the fingerprint of model, reranker, depth, k list, golden bytes and
// every versioned rule that changes the numbers. Optional parts are absent at their defaults, so turning a
// feature on breaks comparability while old baselines taken with it off stay comparable.

export interface EvalFingerprint {
  model: string;
  /** Null when no reranker ran. */
  reranker: string | null;
  /** The normalised result depth asked for (clamped to 1000). */
  limit: number;
  /** Sorted, de-duplicated, each clamped to 1000. */
  kValues: number[];
  /** SHA-256 (hex) of the golden file's raw bytes. */
  goldenHash: string;
  /** Only for a cross-KB eval (`--kb a --kb b`): the names of the KBs measured, sorted. */
  kbs?: string[];
  /** Missing in old history reads as 1. */
  metricVersion: number;
  /** Missing in old history reads as 1. */
  ftsQueryVersion: number;
  /** Only when hits were folded (`section` or `document`). */
  fold?: string;
  /** Only when MMR was effectively on. */
  mmr?: { lambda: number; sameDocPenalty: number };
  /** Only when the parent retriever was on. */
  parentRetriever?: { wholeDocThresholdTokens: number; maxExpandedTokens: number };
  /** Only when [search.fusion] differs from the built-in defaults. */
  fusion?: {
    rrfK: number;
    bm25HeadingWeight: number;
    bm25ContextWeight: number;
    bm25ContentWeight: number;
  };
  /** Only for a row that boosts: [search.boost]'s settings. */
  boost?: { strength: number; halfLifeDays: number; minJudgments: number; horizonDays: number };
  /** Only for a row with the graph hop: [search.graph]'s settings. */
  graph?: {
    hops: number;
    maxAddedPerHit: number;
    weight: number;
    links: boolean;
    coHelpful: boolean;
  };
  /** Only for an honest row: its learned stages left out each query's own judgments. */
  honest?: boolean;
  /**
   * Only for a row that learned from judgments: how many serves and items it could learn from. New feedback
   * makes a learned row another system, so it is not compared with a run learned from other judgments.
   */
  judgments?: { serves: number; items: number };
  /** Only when the index was built with a context mode other than off (the index's mode, not the config's). */
  context?: { mode: string };
  /**
   * Only when measured with a leg down (`--allow-degraded`): the legs, sorted. A degraded run measures another
   * system than a healthy one, so it is never compared with one.
   */
  degraded?: string[];
}

/** The retrieval depth cap shared with search. */
export const MAX_EVAL_DEPTH = 1000;

export interface NormalizedDepth {
  limit: number;
  kValues: number[];
  /** max(max k, limit): how many results each query fetches. */
  fetchDepth: number;
  /** Human notes about values that were clamped. */
  notes: string[];
}

/**
 * Clamp limit and each k to the search cap, sort and de-duplicate the k list. k is clamped only against the
 * cap, never against the limit: `--limit 5 --k 10` fetches 10 and reports @10.
 */
export function normalizeEvalDepth(options: { limit: number; kValues: readonly number[] }): NormalizedDepth {
  const notes: string[] = [];
  const limit = Math.min(options.limit, MAX_EVAL_DEPTH);
  if (limit !== options.limit) notes.push(`limit ${options.limit} exceeds the retrieval cap; using ${limit}`);
  const clampedK = options.kValues.filter((k) => k > MAX_EVAL_DEPTH);
  if (clampedK.length > 0)
    notes.push(`k ${clampedK.join(',')} exceeds the retrieval cap; using ${MAX_EVAL_DEPTH}`);
  const kValues = [...new Set(options.kValues.map((k) => Math.min(k, MAX_EVAL_DEPTH)))].sort((a, b) => a - b);
  return { limit, kValues, fetchDepth: Math.max(limit, ...kValues), notes };
}

/** The whole struct must match; key order and absent-vs-undefined do not matter. */
export function fingerprintsEqual(a: EvalFingerprint, b: EvalFingerprint): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
