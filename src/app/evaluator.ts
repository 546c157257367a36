// `groove eval` as a use case: load the golden set and history, run every query through the search pipeline
// inside one read snapshot, score, snapshot and scan the corpus, compare with the previous run, decide the
// regression gate. Printing and saving the history are separate steps, so numbers show before a save fails.
import type { ResolvedConfig } from '../config/resolve-config.js';
import {
  type AggregateDiff,
  compareRuns,
  describeCorpusChange,
  diffAggregates,
  type FlaggedQuery,
  findRegressions,
  isCorpusChanged,
  type RegressedMetric,
  type RunComparison,
  selectFlaggedQueries,
} from '../core/eval-diff.js';
import { type EvalFingerprint, normalizeEvalDepth } from '../core/eval-fingerprint.js';
import { aggregateMetrics, computeQueryMetrics, METRIC_VERSION } from '../core/eval-metrics.js';
import { type CorpusSnapshot, type EvalRun, formatRunTimestamp, type QueryResult } from '../core/eval-run.js';
import { FTS_QUERY_VERSION } from '../core/fts-query.js';
import { buildQuoteNeedles, createQuoteScan, detectQuotedQueries } from '../core/golden-quotes.js';
import { GrooveError } from '../errors.js';
import type { CorpusChunkRow } from '../store/corpus-digest.js';
import {
  type EvalHistory,
  type HistoryWriteResult,
  historyPathFor,
  loadEvalHistory,
  saveEvalHistory,
} from './eval-history.js';
import { type GoldenSet, loadGoldenFile, type ReadCheckedFile, resolveGoldenPath } from './golden-file.js';
import type { LegReport, SearchResponse } from './search-types.js';

export type { AggregateDiff, FlaggedQuery, RegressedMetric, RunComparison } from '../core/eval-diff.js';
export type { EvalFingerprint } from '../core/eval-fingerprint.js';
export type { CorpusSnapshot, EvalRun, QueryResult, QuoteFinding } from '../core/eval-run.js';
export type { HistoryWriteResult } from './eval-history.js';

export interface EvaluateOptions {
  /** `--golden`, already absolute; default `[eval] golden`, then `<kb>/.groove-eval.yml`. */
  golden?: string;
  /** `--k`; default `[eval] k_values`. */
  kValues?: number[];
  /** `--limit`; default the largest k. */
  limit?: number;
  /** false = `--no-history`: neither read nor write the history. */
  history?: boolean;
  /** false = `--no-diff`: compare with nothing (the history is still read and written). */
  diff?: boolean;
  failOnRegression?: boolean;
  mmr?: boolean;
  mmrLambda?: number;
  mmrSameDocPenalty?: number;
  parentRetriever?: boolean;
}

/** The index as one consistent read: the same search pipeline as `search`, plus the corpus pass. */
export interface EvalSnapshot {
  /** The embedding model id, or `none` for a lexical-only index. */
  model: string;
  /** The context mode the index was built with. */
  contextMode: 'static' | 'off';
  search(request: unknown): Promise<SearchResponse>;
  /** One pass over every chunk in (path, chunk_index) order: counts, digest, and each row to `visit`. */
  readCorpus(visit: (row: CorpusChunkRow) => void): CorpusSnapshot;
}

export interface EvaluatorPorts {
  readFile: ReadCheckedFile;
  /** Run `work` inside one read transaction of the index. */
  withSnapshot<T>(work: (snapshot: EvalSnapshot) => Promise<T>): Promise<T>;
  now(): Date;
}

export type RegressionGate =
  | { state: 'off' }
  | { state: 'no-op'; reason: string }
  | { state: 'passed'; against: string }
  | { state: 'regressed'; against: string; regressions: RegressedMetric[] };

/** How often each retrieval leg failed during the run (a failed leg means the numbers measure less). */
export interface LegFailure {
  leg: keyof LegReport;
  queries: number;
  firstReason: string;
}

export interface EvalReport {
  run: EvalRun;
  /** The run compared against: the newest in the history; null with --no-diff, --no-history or none yet. */
  previous: EvalRun | null;
  comparison: RunComparison;
  /** Set only when the previous run is compatible. */
  diff: AggregateDiff | null;
  corpusChanged: boolean | null;
  /** `642 -> 646 documents, …` when the corpus moved since the previous run. */
  corpusChange: string | null;
  /** Misses and per-query regressions at the largest k. */
  flagged: { k: number; rows: FlaggedQuery[] };
  regressionThreshold: number;
  gate: RegressionGate;
  legFailures: LegFailure[];
  /** Diagnostics for stderr (clamped values, a history started fresh). */
  notes: string[];
  golden: GoldenSet;
  /** Null with --no-history. */
  history: EvalHistory | null;
}

export async function runEvaluation(
  options: EvaluateOptions,
  context: { config: ResolvedConfig; kbPath: string; ports: EvaluatorPorts },
): Promise<EvalReport> {
  const { config, kbPath, ports } = context;
  const golden = loadGoldenFile(
    resolveGoldenPath({ flag: options.golden, configured: config.eval.golden, kbPath }),
    { read: ports.readFile, kbPath },
  );
  const kValues = options.kValues ?? config.eval.kValues;
  for (const k of [...kValues, ...(options.limit === undefined ? [] : [options.limit])]) {
    if (!Number.isInteger(k) || k < 1) {
      throw new GrooveError('INVALID_ARGUMENT', `k and limit must be positive integers, got "${k}"`, {
        hint: 'e.g. --k 1,5,10 --limit 10',
      });
    }
  }
  const depth = normalizeEvalDepth({ limit: options.limit ?? Math.max(...kValues), kValues });
  const history =
    options.history === false ? null : loadEvalHistory(historyPathFor(kbPath), { read: ports.readFile });
  const pipeline = effectivePipeline(options, config);
  const reranker = config.reranker === 'none' ? null : config.reranker;

  const measured = await ports.withSnapshot(async (snapshot) => {
    const legs = new Map<keyof LegReport, LegFailure>();
    const perQuery: QueryResult[] = [];
    for (const q of golden.queries) {
      const response = await snapshot.search({
        query: q.query,
        limit: depth.fetchDepth,
        // Eval measures retrieval unfiltered: no quality floor, no filters.
        includeLowQuality: true,
        rerank: reranker !== null,
        mmr: pipeline.mmr !== null,
        ...(pipeline.mmr
          ? { mmrLambda: pipeline.mmr.lambda, mmrSameDocPenalty: pipeline.mmr.sameDocPenalty }
          : {}),
        parentRetriever: pipeline.parentRetriever !== null,
      });
      if (reranker !== null && response.legs.reranker === 'off') {
        throw new GrooveError('MODEL_UNAVAILABLE', `reranker "${reranker}" was asked for but is not loaded`, {
          hint: 'eval measures exactly the reranker given; pass --reranker none to measure without one',
        });
      }
      countLegFailures(legs, response.legs);
      const topK = response.results.map((hit, i) => ({
        rank: i + 1,
        path: hit.path,
        heading: hit.heading,
        score: hit.score,
      }));
      perQuery.push({
        id: q.id,
        query: q.query,
        expected: q.expected,
        topK,
        metrics: computeQueryMetrics(q.expected, topK, depth.kValues),
      });
    }
    const needles = buildQuoteNeedles(golden.queries.map((q) => q.query));
    const scan = createQuoteScan(needles);
    const corpus = snapshot.readCorpus((row) =>
      scan.observe(row.path, [row.heading, row.context, row.content]),
    );
    const findings = detectQuotedQueries(perQuery, needles, scan.matchesByPath());
    return { perQuery, corpus, findings, model: snapshot.model, contextMode: snapshot.contextMode, legs };
  });

  const fingerprint: EvalFingerprint = {
    model: measured.model,
    reranker,
    limit: depth.limit,
    kValues: depth.kValues,
    goldenHash: golden.hash,
    metricVersion: METRIC_VERSION,
    ftsQueryVersion: FTS_QUERY_VERSION,
    ...(pipeline.mmr ? { mmr: pipeline.mmr } : {}),
    ...(pipeline.parentRetriever ? { parentRetriever: pipeline.parentRetriever } : {}),
    ...(pipeline.fusion ? { fusion: pipeline.fusion } : {}),
    ...(measured.contextMode !== 'off' ? { context: { mode: measured.contextMode } } : {}),
  };
  const run: EvalRun = {
    timestamp: formatRunTimestamp(ports.now()),
    fingerprint,
    corpus: measured.corpus,
    aggregate: aggregateMetrics(measured.perQuery, depth.kValues),
    perQuery: measured.perQuery,
    findings: measured.findings,
  };
  return {
    run,
    ...compareWithPrevious(run, history?.runs[0] ?? null, {
      history: options.history !== false,
      diff: options.diff !== false,
      failOnRegression: options.failOnRegression === true,
      threshold: config.eval.regressionThreshold,
    }),
    legFailures: [...measured.legs.values()],
    notes: [...depth.notes, ...(history?.warnings ?? [])],
    golden,
    history,
  };
}

export type EvalComparison = Pick<
  EvalReport,
  | 'previous'
  | 'comparison'
  | 'diff'
  | 'corpusChanged'
  | 'corpusChange'
  | 'flagged'
  | 'regressionThreshold'
  | 'gate'
>;

/**
 * Compare a run with the newest history run. With --no-diff nothing is compared (and the gate is a no-op);
 * the diff needs the whole fingerprint to match, while the corpus note never depends on it.
 */
export function compareWithPrevious(
  run: EvalRun,
  newestInHistory: EvalRun | null,
  options: { history: boolean; diff: boolean; failOnRegression: boolean; threshold: number },
): EvalComparison {
  const previous = options.diff ? newestInHistory : null;
  const comparison = compareRuns(run.fingerprint, previous?.fingerprint ?? null);
  const compatible = comparison === 'compatible' ? previous : null;
  return {
    previous,
    comparison,
    diff: compatible ? diffAggregates(run.aggregate, compatible.aggregate) : null,
    corpusChanged: isCorpusChanged(run.corpus, previous?.corpus ?? null),
    corpusChange: describeCorpusChange(run.corpus, previous?.corpus ?? null),
    flagged: selectFlaggedQueries(run, compatible, options.threshold),
    regressionThreshold: options.threshold,
    gate: decideGate(run, compatible, { ...options, comparison }),
  };
}

/** Write the report's run to the history (no-op with --no-history). */
export function recordEvalRun(
  report: EvalReport,
  options: { historySize: number; write: (filePath: string, text: string) => void; maxBytes?: number },
): HistoryWriteResult | null {
  if (!report.history) return null;
  return saveEvalHistory(report.history, report.run, options);
}

interface EffectivePipeline {
  mmr: { lambda: number; sameDocPenalty: number } | null;
  parentRetriever: { wholeDocThresholdTokens: number; maxExpandedTokens: number } | null;
  fusion: EvalFingerprint['fusion'] | null;
}

/** Flags over [search.*]; fusion enters the fingerprint only when it differs from the built-in 60/2/1/1. */
function effectivePipeline(options: EvaluateOptions, config: ResolvedConfig): EffectivePipeline {
  const { mmr, parentRetriever, fusion } = config.search;
  const fusionIsDefault =
    fusion.rrfK === 60 &&
    fusion.bm25HeadingWeight === 2 &&
    fusion.bm25ContextWeight === 1 &&
    fusion.bm25ContentWeight === 1;
  return {
    mmr:
      (options.mmr ?? mmr.enabled)
        ? {
            lambda: options.mmrLambda ?? mmr.lambda,
            sameDocPenalty: options.mmrSameDocPenalty ?? mmr.sameDocPenalty,
          }
        : null,
    parentRetriever:
      (options.parentRetriever ?? parentRetriever.enabled)
        ? {
            wholeDocThresholdTokens: parentRetriever.wholeDocThresholdTokens,
            maxExpandedTokens: parentRetriever.maxExpandedTokens,
          }
        : null,
    fusion: fusionIsDefault ? null : { ...fusion },
  };
}

function countLegFailures(legs: Map<keyof LegReport, LegFailure>, report: LegReport): void {
  for (const leg of ['lexical', 'vector', 'reranker'] as const) {
    const status = report[leg];
    if (!status.startsWith('failed')) continue;
    const seen = legs.get(leg);
    if (seen) seen.queries++;
    else legs.set(leg, { leg, queries: 1, firstReason: status.replace(/^failed: /, '') });
  }
}

/** The gate is a no-op without a previous run, with --no-history or --no-diff, or across fingerprints. */
function decideGate(
  run: EvalRun,
  compatible: EvalRun | null,
  options: {
    history: boolean;
    diff: boolean;
    failOnRegression: boolean;
    threshold: number;
    comparison: RunComparison;
  },
): RegressionGate {
  if (!options.failOnRegression) return { state: 'off' };
  if (!options.history) return { state: 'no-op', reason: '--no-history is set' };
  if (!options.diff) return { state: 'no-op', reason: '--no-diff is set' };
  if (options.comparison === 'none') return { state: 'no-op', reason: 'there is no previous run yet' };
  if (!compatible) {
    return {
      state: 'no-op',
      reason:
        options.comparison === 'golden-changed'
          ? 'the golden file changed since the previous run'
          : 'the previous run has a different fingerprint (config or metric version changed)',
    };
  }
  const regressions = findRegressions(run.aggregate, compatible.aggregate, options.threshold);
  const against = compatible.timestamp;
  return regressions.length > 0 ? { state: 'regressed', against, regressions } : { state: 'passed', against };
}
