// `groove tune` as a use case: load the golden set, pre-flight every query (effective N), sweep the 384 fusion
// conditions inside one read snapshot, then select with nested leave-one-query-out and decide the verdict.
// It applies nothing: the result is a report; printing is the CLI's job.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import {
  CONDITION_COUNT,
  normalizeTuneDepth,
  PRIMARY_K,
  RRF_K_VALUES,
  WEIGHT_SET_COUNT,
} from '../../measure/tune-grid.js';
import { createMetricTable } from '../../measure/tune-metric-table.js';
import { runNestedLoo } from '../../measure/tune-select.js';
import { summariseTune, type TuneStatistics } from '../../measure/tune-summary.js';
import type { ThresholdFit } from '../../measure/tune-threshold.js';
import { loadGoldenFile, type ReadCheckedFile, resolveGoldenPath } from '../golden/index.js';
import {
  compileLegQuery,
  createPostingsCache,
  type PostingsCache,
  type ReadSnapshot,
} from '../search/index.js';
import { type PreparedQuery, prepareQuery, type QueryDiagnostics, sweepQuery } from './tune-measure.js';
import { measureThresholdFit } from './tune-threshold-measure.js';

export type { FusionCondition } from '../../measure/tune-grid.js';
export type { SignTest } from '../../measure/tune-select.js';
export type { ScoredFusion, TuneStatistics } from '../../measure/tune-summary.js';
export type {
  PerQueryImpact,
  SecondaryComparison,
  SecondaryMetrics,
  TuneCriterion,
  TuneVerdict,
} from '../../measure/tune-verdict.js';
export type { QueryDiagnostics } from './tune-measure.js';

/** Below this many effective queries the IR convention (50 topics) is not met: numbers are suggestive. */
export const IR_CONVENTION_TOPICS = 50;

export interface TuneOptions {
  /** `--golden`, already absolute; default `[eval] golden`, then `<kb>/.groove-eval.yml`. */
  golden?: string;
  /** `--k`; default `[eval] k_values`. 5 is always added. */
  kValues?: number[];
  /** `--limit`; default (and floor) the largest k. */
  limit?: number;
}

/** Progress for stderr while the sweep runs (it can take minutes on a large golden set). */
export type TuneEvent =
  | { kind: 'preflight-start'; queries: number }
  | { kind: 'preflight-done'; effective: number; total: number; insensitive: QueryDiagnostics[] }
  | { kind: 'small-n'; effective: number }
  | { kind: 'context-noop' }
  | { kind: 'sweep-start'; weightSets: number; kValues: number; queries: number }
  | { kind: 'sweep-done'; conditions: number; queries: number; elapsedMs: number; inMemoryQueries: number };

export interface TunerPorts {
  readFile: ReadCheckedFile;
  /** Run `work` inside one read transaction of the index. */
  withSnapshot<T>(work: (snapshot: ReadSnapshot) => Promise<T>): Promise<T>;
  onEvent?(event: TuneEvent): void;
  nowMs(): number;
}

export interface TuneReport extends TuneStatistics {
  kbPath: string;
  goldenPath: string;
  model: string;
  limit: number;
  candidatePool: number;
  primaryK: number;
  kValues: number[];
  chunkTotal: number;
  /** Every chunk's context column is empty: the bm25_context_weight axis measures nothing. */
  contextAxisNoop: boolean;
  queryCount: number;
  effectiveQueryCount: number;
  diagnostics: QueryDiagnostics[];
  /** Queries where a leg failed (the numbers then measure less than the pipeline). */
  legFailures: { id: string; reason: string }[];
  /** min_confidence fitted on the golden set's negative and answerable queries, or why it was not. */
  threshold: ThresholdFit;
}

export type TuneOutcome =
  | { kind: 'report'; report: TuneReport }
  | {
      kind: 'no-effective-queries';
      kbPath: string;
      goldenPath: string;
      queryCount: number;
      diagnostics: QueryDiagnostics[];
    };

export async function runTune(
  options: TuneOptions,
  context: { config: ResolvedConfig; kbPath: string; ports: TunerPorts },
): Promise<TuneOutcome> {
  const { config, kbPath, ports } = context;
  const emit = (event: TuneEvent) => ports.onEvent?.(event);
  const golden = loadGoldenFile(
    resolveGoldenPath({ flag: options.golden, configured: config.eval.golden, kbPath }),
    { read: ports.readFile, kbPath },
  );
  const depth = normalizeTuneDepth({ kValues: options.kValues ?? config.eval.kValues, limit: options.limit });
  // The golden loader refuses exclusion-only queries, so every query compiles to something searchable.
  // Negative queries (nothing expected) fit the threshold only; fusion is swept on the answerable ones.
  const queries = golden.queries.flatMap((q) => {
    if (q.expected.length === 0) return [];
    const compiled = compileLegQuery(q.query);
    return compiled.kind === 'query' ? [{ golden: q, compiled }] : [];
  });

  return ports.withSnapshot(async (snapshot) => {
    let contextSeen = false;
    const corpus = snapshot.readCorpus((row) => {
      if (row.context !== '') contextSeen = true;
    });
    emit({ kind: 'preflight-start', queries: queries.length });
    const prepared: PreparedQuery[] = [];
    for (const q of queries) {
      prepared.push(
        await prepareQuery(snapshot, q.golden, {
          candidatePool: depth.candidatePool,
          chunkTotal: corpus.chunks,
          compiled: q.compiled,
        }),
      );
    }
    const diagnostics = prepared.map((p) => p.diagnostics);
    const effective = prepared.flatMap((p, i) => (p.diagnostics.effective ? [i] : []));
    emit({
      kind: 'preflight-done',
      effective: effective.length,
      total: prepared.length,
      insensitive: diagnostics.filter((d) => !d.effective),
    });
    if (effective.length === 0) {
      return {
        kind: 'no-effective-queries',
        kbPath,
        goldenPath: golden.path,
        queryCount: prepared.length,
        diagnostics,
      };
    }
    if (effective.length < IR_CONVENTION_TOPICS) emit({ kind: 'small-n', effective: effective.length });
    const contextAxisNoop = !contextSeen;
    if (contextAxisNoop) emit({ kind: 'context-noop' });

    emit({
      kind: 'sweep-start',
      weightSets: WEIGHT_SET_COUNT,
      kValues: RRF_K_VALUES.length,
      queries: prepared.length,
    });
    const started = ports.nowMs();
    const table = createMetricTable(prepared.length, depth.kValues);
    const hits = new Map<number, { path: string; heading: string | null; text?: string }>();
    const keepText = golden.queries.some((q) => q.expected.some((e) => e.quote !== undefined));
    let inMemory = 0;
    const postings = openPostings(snapshot);
    prepared.forEach((p, queryIndex) => {
      const swept = sweepQuery(snapshot, p, {
        queryIndex,
        table,
        limit: depth.limit,
        candidatePool: depth.candidatePool,
        hits,
        postings,
        keepText,
      });
      if (swept.lexicalPath === 'memory') inMemory++;
    });
    emit({
      kind: 'sweep-done',
      conditions: CONDITION_COUNT,
      queries: prepared.length,
      elapsedMs: ports.nowMs() - started,
      inMemoryQueries: inMemory,
    });

    const loo = runNestedLoo({ queryCount: table.queryCount, values: table.primary }, effective);
    const report: TuneReport = {
      kbPath,
      goldenPath: golden.path,
      model: snapshot.model,
      limit: depth.limit,
      candidatePool: depth.candidatePool,
      primaryK: PRIMARY_K,
      kValues: depth.kValues,
      chunkTotal: corpus.chunks,
      contextAxisNoop,
      queryCount: prepared.length,
      effectiveQueryCount: effective.length,
      diagnostics,
      ...summariseTune(loo, table, { ids: prepared.map((p) => p.golden.id), effective }),
      legFailures: prepared.flatMap((p) => (p.legFailure ? [{ id: p.golden.id, reason: p.legFailure }] : [])),
      threshold: await measureThresholdFit(snapshot, golden.queries, {
        limit: depth.limit,
        currentThreshold: config.search.minConfidence,
      }),
    };
    return { kind: 'report', report };
  });
}

/** The word-level postings, or null (SQL per weight set) if this index cannot provide them. */
function openPostings(snapshot: ReadSnapshot): PostingsCache | null {
  try {
    return createPostingsCache(snapshot.reader.openWordPostings());
  } catch {
    return null;
  }
}
