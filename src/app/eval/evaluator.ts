// `groove eval` as a use case: load the golden set (refusing a stale one), probe every leg (refusing to measure
// a degraded system), run each row's queries through the search pipeline inside one read snapshot, score,
// snapshot and scan the corpus, compare with the baseline (with paired intervals) and decide the gates.
// Printing and saving the history are separate steps, so numbers show before a save fails.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import { compareWithPrevious, type EvalComparison, selectBaseline } from '../../measure/eval-compare.js';
import type { LegFailure } from '../../measure/eval-degradation.js';
import { normalizeEvalDepth } from '../../measure/eval-fingerprint.js';
import { type PairedRunComparison, pairRuns } from '../../measure/eval-paired.js';
import { type CorpusSnapshot, type EvalRun, formatRunTimestamp } from '../../measure/eval-run.js';
import { assessGoldenAge, type GoldenFreshness, measureCorpusDrift } from '../../measure/golden-freshness.js';
import { buildQuoteNeedles, createQuoteScan, detectQuotedQueries } from '../../measure/golden-quotes.js';
import { componentDownError, describeLegsDown, type LegProbeResult } from '../../measure/leg-verdict.js';
import type { JudgedServe } from '../../rank/counted-judgments.js';
import type { FoldMode } from '../../rank/fold-hits.js';
import type { CorpusChunkRow } from '../../store/corpus-digest.js';
import {
  checkGoldenKbs,
  type GoldenSet,
  loadGoldenFile,
  loadGoldenMeta,
  type ReadCheckedFile,
  resolveGoldenPath,
} from '../golden/index.js';
import { judgmentWindowOf, type SearchOptions, type SearchResponse } from '../search/index.js';
import { type CompareTarget, resolveCompareTarget } from './compare-target.js';
import {
  type AblationPlanEntry,
  type AblationRow,
  type AblationStage,
  planAblation,
  toAblationRows,
} from './eval-ablation.js';
import { judgedCoverage } from './eval-coverage.js';
import {
  type EvalHistory,
  type HistoryWriteResult,
  legacyHistoryPathOf,
  loadEvalHistory,
  saveEvalHistory,
} from './eval-history.js';
import { createEvalLearning, type LearningUse, pairLearnedRows, plainRunNotes } from './eval-learning.js';
import { measureRow } from './eval-measure.js';
import { buildRun } from './eval-row-run.js';
import { type EvalRowSpec, effectivePipeline, resolveEvalRows } from './eval-rows.js';
import { probeLegs } from './leg-probe.js';

export type { EvalComparison, RegressionGate, SignificantGate } from '../../measure/eval-compare.js';
export type { LegFailure } from '../../measure/eval-degradation.js';
export type { AggregateDiff, FlaggedQuery, RegressedMetric, RunComparison } from '../../measure/eval-diff.js';
export type { EvalFingerprint } from '../../measure/eval-fingerprint.js';
export type { PairedMetric, PairedRunComparison } from '../../measure/eval-paired.js';
export type {
  CorpusSnapshot,
  EvalRun,
  LegDegradation,
  QueryResult,
  QuoteFinding,
} from '../../measure/eval-run.js';
export type { CorpusDrift, GoldenFreshness } from '../../measure/golden-freshness.js';
export { formatDrift } from '../../measure/golden-freshness.js';
export type { LegDown, LegProbeResult } from '../../measure/leg-verdict.js';
export type { CompareTarget } from './compare-target.js';
export type { HistoryWriteResult } from './eval-history.js';
export type { LearningUse } from './eval-learning.js';

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
  /** Exit 1 only when a metric's whole 95% interval lies below zero. */
  failOnSignificantRegression?: boolean;
  /** Measure even with a leg down; the run is recorded as degraded. */
  allowDegraded?: boolean;
  /** Measure even when the golden sidecar is older than [eval] max_golden_age_days. */
  allowStaleGolden?: boolean;
  /** `--compare RUN_ID|PATH`: the baseline instead of the newest history run. */
  compare?: CompareTarget;
  /** `--rows core,rerank,…`: several pipelines in one run; the first decides. */
  rows?: string[];
  /** `--ablate`: also measure the decision pipeline with each of its stages switched off in turn. */
  ablate?: boolean;
  mmr?: boolean;
  mmrLambda?: number;
  mmrSameDocPenalty?: number;
  parentRetriever?: boolean;
  /** `--fold`: fold hits of one section or document, over `[search] fold`. */
  fold?: FoldMode;
}

/** The index as one consistent read: the same search pipeline as `search`, plus the corpus pass. */
export interface EvalSnapshot {
  /** The embedding model id, or `none` for a lexical-only index. */
  model: string;
  /** The context mode the index was built with. */
  contextMode: 'static' | 'off';
  search(request: unknown, options?: SearchOptions): Promise<SearchResponse>;
  /** One pass over every chunk in (path, chunk_index) order: counts, digest, and each row to `visit`. */
  readCorpus(visit: (row: CorpusChunkRow) => void): CorpusSnapshot;
  /** Every recorded serve with its judgments, as of the snapshot (what learned rows learn from). */
  judgments(): readonly JudgedServe[];
  /** Words of one indexed chunk for the leg probe, or null for an index without one. */
  probeSample(): string | null;
}

export interface EvaluatorPorts {
  readFile: ReadCheckedFile;
  /** Run `work` inside one read transaction of the index. */
  withSnapshot<T>(work: (snapshot: EvalSnapshot) => Promise<T>): Promise<T>;
  /** The clock (injectable so tests can age a golden set). */
  now(): Date;
}

export interface EvalReport extends EvalComparison {
  run: EvalRun;
  /** `chosen` when --compare named the baseline, else the history's previous run. */
  comparedWith: 'previous' | 'chosen';
  /** The reference rows of `--rows` after this (decision) row; empty for a plain run. */
  otherRows: EvalReport[];
  /** A reference row paired with the decision row of the same run (same queries, same snapshot); else null. */
  versusDecision: PairedRunComparison | null;
  /** A row --rows did not name, measured because a learned row needs it (its honest twin, or core). */
  appended: boolean;
  /** A row that learns from judgments (or an honest twin): which judgments it used; else null. */
  learning: LearningUse | null;
  /** A learned or honest row paired with `core` of the same run; else null. */
  versusCore: PairedRunComparison | null;
  /** A learned row paired with its honest twin (this row − twin): the leak; else null. */
  versusTwin: { twin: string; paired: PairedRunComparison } | null;
  /** `--ablate` on the decision row: every stage, switched off in turn or not applicable; else null. */
  ablation: AblationRow[] | null;
  legFailures: LegFailure[];
  /** What the leg probe saw before measuring (shared by every row). */
  probe: LegProbeResult;
  /** Age and drift of the golden set; null when it has no sidecar. */
  freshness: GoldenFreshness | null;
  /** Diagnostics for stderr (clamped values, a history started fresh). */
  notes: string[];
  golden: GoldenSet;
  /** Null with --no-history. */
  history: EvalHistory | null;
}

export async function runEvaluation(
  options: EvaluateOptions,
  context: {
    config: ResolvedConfig;
    kbPath: string;
    /** The eval history's path (asked only when the history is read). */
    historyPath: () => string;
    /** A cross-KB eval: the names of the KBs searched as one corpus (their hits carry `kb`); absent for one KB. */
    kbs?: readonly string[];
    ports: EvaluatorPorts;
  },
): Promise<EvalReport> {
  const { config, kbPath, ports } = context;
  const golden = loadGoldenFile(
    resolveGoldenPath({ flag: options.golden, configured: config.eval.golden, kbPath }),
    { read: ports.readFile, kbPath },
  );
  const kbs = context.kbs ? [...context.kbs].sort() : null;
  checkGoldenKbs(golden, kbs);
  const freshness = checkGoldenAge(golden, options, config, ports);
  const kValues = options.kValues ?? config.eval.kValues;
  for (const k of [...kValues, ...(options.limit === undefined ? [] : [options.limit])]) {
    if (!Number.isInteger(k) || k < 1) {
      throw new GrooveError('INVALID_ARGUMENT', `k and limit must be positive integers, got "${k}"`, {
        hint: 'e.g. --k 1,5,10 --limit 10',
      });
    }
  }
  if (options.compare && options.diff === false) {
    throw new GrooveError('INVALID_ARGUMENT', '--compare and --no-diff contradict each other', {
      hint: 'drop one of them',
    });
  }
  const depth = normalizeEvalDepth({ limit: options.limit ?? Math.max(...kValues), kValues });
  const history =
    options.history === false
      ? null
      : loadEvalHistory(context.historyPath(), {
          read: ports.readFile,
          legacyPath: kbs ? null : legacyHistoryPathOf(kbPath),
        });
  const rows: EvalRowSpec[] = options.rows
    ? resolveEvalRows(options.rows, options, config)
    : [
        {
          name: null,
          pipeline: effectivePipeline(options, config),
          learned: false,
          twin: null,
          appended: false,
        },
      ];
  const explicitBaseline = options.compare
    ? resolveCompareTarget(options.compare, history?.runs ?? [], ports.readFile)
    : null;

  const measured = await ports.withSnapshot(async (snapshot) => {
    const rerank = rows.some((r) => r.pipeline.reranker !== null);
    const probe = await probeLegs((request) => snapshot.search(request), snapshot.probeSample(), { rerank });
    if (probe.down.length > 0 && options.allowDegraded !== true)
      throw componentDownError(describeLegsDown(probe.down));
    const plan = options.ablate
      ? planAblation(rows[0]!.pipeline, {
          lexicalOnly: snapshot.model === 'none',
          down: probe.down,
          decisionRow: rows[0]!.name,
          config,
        })
      : [];
    // Ablation rows go through the same loop as --rows rows; they learn nothing of their own (the decision
    // pipeline never does).
    const measuredRows = [...rows, ...plan.flatMap(ablationRowSpec)];
    const serves = snapshot.judgments();
    const learning = createEvalLearning(serves, {
      now: ports.now(),
      window: judgmentWindowOf(config),
      queries: golden.queries,
      goldenSource: freshness?.meta.source ?? null,
    });
    const measurements = [];
    for (const row of measuredRows) {
      measurements.push(
        await measureRow(
          (request, searchOptions) => snapshot.search(request, searchOptions),
          golden.queries,
          {
            pipeline: row.pipeline,
            fetchDepth: depth.fetchDepth,
            kValues: depth.kValues,
            learnedFor: (query) => learning.signalsFor(row.pipeline, query),
          },
        ),
      );
    }
    const judged = measurements.map((m) =>
      judgedCoverage(serves, m.perQuery, {
        kValues: depth.kValues,
        goldenSource: freshness?.meta.source ?? null,
      }),
    );
    const learningUse = measuredRows.map((row) => learning.use(row.pipeline, { learned: row.learned }));
    const needles = buildQuoteNeedles(golden.queries.map((q) => q.query));
    const scan = createQuoteScan(needles);
    const corpus = snapshot.readCorpus((row) =>
      scan.observe(row.path, [row.heading, row.context, row.content]),
    );
    const matches = scan.matchesByPath();
    const findings = measurements.map((m) => detectQuotedQueries(m.perQuery, needles, matches));
    return {
      probe,
      plan,
      measuredRows,
      measurements,
      learningUse,
      corpus,
      findings,
      judged,
      model: snapshot.model,
      contextMode: snapshot.contextMode,
      kbs,
    };
  });

  if (freshness) {
    const { corpus } = measured;
    const atCreation = { documents: freshness.meta.corpusDocuments, chunks: freshness.meta.corpusChunks };
    freshness.drift = measureCorpusDrift(atCreation, corpus, config.eval.goldenDriftWarn);
  }
  const timestamp = formatRunTimestamp(ports.now());
  const reports = rows.map((row, i): EvalReport => {
    const run = buildRun(row, i, {
      measured,
      depth,
      golden,
      timestamp,
      allowDegraded: options.allowDegraded,
    });
    const decision = i === 0;
    const baseline =
      decision && explicitBaseline
        ? explicitBaseline
        : selectBaseline(history?.runs ?? [], run, row.name === null ? 'newest' : 'newest-compatible');
    return {
      run,
      ...compareWithPrevious(run, baseline, {
        history: options.history !== false || explicitBaseline !== null,
        diff: options.diff !== false,
        // Only the decision row is gated; reference rows are printed, never enforced.
        failOnRegression: decision && options.failOnRegression === true,
        failOnSignificantRegression: decision && options.failOnSignificantRegression === true,
        threshold: config.eval.regressionThreshold,
      }),
      comparedWith: decision && explicitBaseline ? 'chosen' : 'previous',
      otherRows: [],
      versusDecision: null,
      appended: row.appended,
      learning: measured.learningUse[i]!,
      versusCore: null,
      versusTwin: null,
      ablation: null,
      legFailures: measured.measurements[i]!.legFailures,
      probe: measured.probe,
      freshness,
      notes: decision
        ? [...depth.notes, ...plainRunNotes(options.rows !== undefined, config), ...(history?.warnings ?? [])]
        : [],
      golden,
      history,
    };
  });
  const [decisionReport, ...otherRows] = reports;
  for (const other of otherRows) other.versusDecision = pairRuns(other.run, decisionReport!.run);
  pairLearnedRows(rows, reports);
  if (options.ablate) {
    const context = { measured, depth, golden, timestamp, allowDegraded: options.allowDegraded };
    // The measured stages follow the rows, in plan order.
    const ablated = new Map<AblationStage, EvalRun>();
    measured.plan
      .filter((entry) => entry.pipeline !== null)
      .forEach((entry, j) => {
        const i = rows.length + j;
        ablated.set(entry.stage, buildRun(measured.measuredRows[i]!, i, context));
      });
    decisionReport!.ablation = toAblationRows(measured.plan, ablated, decisionReport!.run);
  }
  return { ...decisionReport!, otherRows };
}

/** A measured ablation stage as a row of the evaluator's loop, named `-stage`. */
function ablationRowSpec(entry: AblationPlanEntry): EvalRowSpec[] {
  if (entry.pipeline === null) return [];
  return [{ name: entry.name, pipeline: entry.pipeline, learned: false, twin: null, appended: false }];
}

/** Read the sidecar, if any, and refuse a set older than [eval] max_golden_age_days. */
function checkGoldenAge(
  golden: GoldenSet,
  options: EvaluateOptions,
  config: ResolvedConfig,
  ports: EvaluatorPorts,
): GoldenFreshness | null {
  const meta = loadGoldenMeta(golden.path, { read: ports.readFile });
  if (!meta) return null;
  const freshness = assessGoldenAge(meta, ports.now(), config.eval.maxGoldenAgeDays);
  if (freshness.stale && options.allowStaleGolden !== true) {
    const days = Math.floor(freshness.ageDays);
    throw new GrooveError(
      'GOLDEN_STALE',
      `golden set "${golden.path}" is ${days} days old (created ${meta.created}; [eval] max_golden_age_days = ${freshness.maxAgeDays}): it was judged against the documents of that day, and every document added since competes for slots without being able to be an answer, so its recall would measure the set's age rather than retrieval`,
      {
        hint: 'rebuild it (`groove eval golden build --from-feedback`), or re-check it and run `groove eval golden stamp`; --allow-stale-golden measures anyway',
      },
    );
  }
  return freshness;
}

/**
 * Write the report's runs to the history (no-op with --no-history): reference rows first, the decision row
 * newest. Under the history's gate (any process) the file is read again and the runs go in front of what it
 * holds NOW, so another eval that saved since this one started keeps its run.
 */
export function recordEvalRun(
  report: EvalReport,
  options: {
    historySize: number;
    read: ReadCheckedFile;
    write: (filePath: string, text: string) => void;
    withGate: <T>(historyPath: string, work: () => T) => Promise<T>;
    maxBytes?: number;
  },
): Promise<HistoryWriteResult | null> {
  const started = report.history;
  if (!started) return Promise.resolve(null);
  return options.withGate(started.path, () => {
    const current = loadEvalHistory(started.path, {
      read: options.read,
      maxBytes: options.maxBytes,
      legacyPath: started.legacyPath,
    });
    const written = saveEvalHistory(current, [report.run, ...report.otherRows.map((r) => r.run)], options);
    // A history that stopped parsing after this run started is replaced now: say so (the start was reported).
    const fresh = current.warnings.filter((w) => !started.warnings.includes(w));
    const warning = [...fresh, ...(written.warning ? [written.warning] : [])].join('; ');
    return { ...written, warning: warning === '' ? null : warning };
  });
}
