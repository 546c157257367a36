// `groove eval`'s measurement: load the golden set (refusing a stale one), probe every leg (refusing to measure
// a degraded system), run each row's queries through the search pipeline inside one read snapshot, score,
// snapshot and scan the corpus, then build the report once: each row compared with its baseline (with paired
// intervals) and paired with the decision row, core and its honest twin. Showing and saving are run-eval.ts's.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import { compareWithPrevious, selectBaseline } from '../../measure/eval-compare.js';
import { normalizeEvalDepth } from '../../measure/eval-fingerprint.js';
import type { MetricsByK } from '../../measure/eval-metrics.js';
import { pairRuns } from '../../measure/eval-paired.js';
import { type CorpusSnapshot, type EvalRun, formatRunTimestamp } from '../../measure/eval-run.js';
import { assessGoldenAge, type GoldenFreshness, measureCorpusDrift } from '../../measure/golden-freshness.js';
import { createQuotePresenceScan, type StaleQuote } from '../../measure/golden-quote-presence.js';
import { buildQuoteNeedles, createQuoteScan, detectQuotedQueries } from '../../measure/golden-quotes.js';
import { componentDownError, describeLegsDown, type LegProbeResult } from '../../measure/leg-verdict.js';
import {
  checkGoldenKbs,
  type GoldenSet,
  loadGoldenFile,
  loadGoldenMeta,
  resolveGoldenPath,
} from '../golden/index.js';
import { judgmentWindowOf, type ReadSnapshot } from '../search/index.js';
import { resolveCompareTarget } from './compare-target.js';
import { type AblationPlanEntry, type AblationStage, planAblation, toAblationRows } from './eval-ablation.js';
import { budgetRowsOf, evalBudgetsOf } from './eval-budget.js';
import { judgedCoverage } from './eval-coverage.js';
import { type EvalHistory, legacyHistoryPathOf, loadEvalHistory } from './eval-history.js';
import { createEvalLearning, type LearningUse, pairLearnedRows, plainRunNotes } from './eval-learning.js';
import { measureRow, type RowMeasurement } from './eval-measure.js';
import type { EvalReport, EvalRowReport, EvaluateOptions, EvaluatorPorts } from './eval-report.js';
import { buildRun, type RunContext } from './eval-row-run.js';
import { type EvalRowSpec, effectivePipeline, resolveEvalRows } from './eval-rows.js';
import { probeSnapshotLegs } from './leg-probe.js';
import { checkStaleQuotes, staleQuoteNotes } from './stale-quotes.js';

export interface EvaluationContext {
  config: ResolvedConfig;
  kbPath: string;
  /** The eval history's path (asked only when the history is read). */
  historyPath: () => string;
  /** A cross-KB eval: the names of the KBs searched as one corpus (their hits carry `kb`); absent for one KB. */
  kbs?: readonly string[];
  ports: EvaluatorPorts;
}

/** Everything settled before the index is read: the golden set, the depth, the history, the rows, the baseline. */
interface EvaluationPlan {
  golden: GoldenSet;
  freshness: GoldenFreshness | null;
  /** The KBs of a cross-KB eval, sorted; null for one KB. */
  kbs: string[] | null;
  depth: ReturnType<typeof normalizeEvalDepth>;
  history: EvalHistory | null;
  rows: EvalRowSpec[];
  explicitBaseline: EvalRun | null;
}

/** What was read inside the snapshot: every measured row (the rows, then the ablation stages) and the corpus. */
type Measured = RunContext['measured'] & {
  plan: AblationPlanEntry[];
  measuredRows: EvalRowSpec[];
  staleQuotes: StaleQuote[];
};

export async function runEvaluation(
  options: EvaluateOptions,
  context: EvaluationContext,
): Promise<EvalReport> {
  const plan = planEvaluation(options, context);
  const measured = await context.ports.withSnapshot((snapshot) =>
    measureInSnapshot(snapshot, plan, options, context),
  );
  return buildReport(plan, measured, options, context);
}

/** The checks and reads that need no index, in the order their refusals are reported. */
function planEvaluation(options: EvaluateOptions, context: EvaluationContext): EvaluationPlan {
  const { config, kbPath, ports } = context;
  const golden = loadGoldenFile(
    resolveGoldenPath({ flag: options.golden, configured: config.eval.golden, kbPath }),
    { read: ports.readFile, kbPath },
  );
  const kbs = context.kbs ? [...context.kbs].sort() : null;
  checkGoldenKbs(golden, kbs);
  const freshness = checkGoldenAge(golden, options, config, ports);
  const kValues = options.kValues ?? config.eval.kValues;
  checkCutoffs([...kValues, ...(options.limit === undefined ? [] : [options.limit])]);
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
  const rows = options.rows
    ? resolveEvalRows(options.rows, options, config)
    : [plainRow(effectivePipeline(options, config))];
  const explicitBaseline = options.compare
    ? resolveCompareTarget(options.compare, history?.runs ?? [], ports.readFile)
    : null;
  return { golden, freshness, kbs, depth, history, rows, explicitBaseline };
}

function checkCutoffs(cutoffs: readonly number[]): void {
  for (const k of cutoffs) {
    if (!Number.isInteger(k) || k < 1) {
      throw new GrooveError('INVALID_ARGUMENT', `k and limit must be positive integers, got "${k}"`, {
        hint: 'e.g. --k 1,5,10 --limit 10',
      });
    }
  }
}

/** The single row of a run without --rows: unnamed, learning nothing. */
function plainRow(pipeline: EvalRowSpec['pipeline']): EvalRowSpec {
  return { name: null, pipeline, learned: false, twin: null, appended: false };
}

/** Probe, plan the ablation, measure every row, then scan the corpus — all in the one snapshot. */
async function measureInSnapshot(
  snapshot: ReadSnapshot,
  plan: EvaluationPlan,
  options: EvaluateOptions,
  context: EvaluationContext,
): Promise<Measured> {
  const { config } = context;
  const { rows, golden, freshness, depth } = plan;
  const probe = await probeBeforeMeasuring(snapshot, rows, options);
  const scan = scanCorpus(snapshot, golden);
  checkStaleQuotes(golden, scan.staleQuotes, options);
  const ablationPlan = options.ablate
    ? planAblation(rows[0]!.pipeline, {
        lexicalOnly: snapshot.model === 'none',
        down: probe.down,
        decisionRow: rows[0]!.name,
        config,
      })
    : [];
  // Ablation rows go through the same loop as --rows rows; they learn nothing of their own (the decision
  // pipeline never does).
  const measuredRows = [...rows, ...ablationPlan.flatMap(ablationRowSpec)];
  const serves = snapshot.judgments();
  const goldenSource = freshness?.meta.source ?? null;
  const learning = createEvalLearning(serves, {
    now: context.ports.now(),
    window: judgmentWindowOf(config),
    queries: golden.queries,
    goldenSource,
  });
  const measurements: RowMeasurement[] = [];
  const budgets = evalBudgetsOf(options.budgets, snapshot.embedder);
  for (const [i, row] of measuredRows.entries()) {
    measurements.push(
      await measureRow((request, searchOptions) => snapshot.search(request, searchOptions), golden.queries, {
        pipeline: row.pipeline,
        fetchDepth: depth.fetchDepth,
        kValues: depth.kValues,
        learnedFor: (query) => learning.signalsFor(row.pipeline, query),
        ...(budgets && i === 0 ? { budgets } : {}),
      }),
    );
  }
  const judged: (MetricsByK | null)[] = measurements.map((m) =>
    judgedCoverage(serves, m.perQuery, { kValues: depth.kValues, goldenSource }),
  );
  const learningUse: (LearningUse | null)[] = measuredRows.map((row) =>
    learning.use(row.pipeline, { learned: row.learned }),
  );
  const findings = measurements.map((m) => detectQuotedQueries(m.perQuery, scan.needles, scan.matches));
  return {
    probe,
    plan: ablationPlan,
    measuredRows,
    measurements,
    learningUse,
    corpus: scan.corpus,
    staleQuotes: scan.staleQuotes,
    findings,
    judged,
    model: snapshot.model,
    contextMode: snapshot.contextMode,
    kbs: plan.kbs,
  };
}

/** The leg probe; a leg down refuses the run unless --allow-degraded. */
async function probeBeforeMeasuring(
  snapshot: ReadSnapshot,
  rows: readonly EvalRowSpec[],
  options: EvaluateOptions,
): Promise<LegProbeResult> {
  const rerank = rows.some((r) => r.pipeline.reranker !== null);
  const probe = await probeSnapshotLegs(snapshot, { rerank });
  if (probe.down.length > 0 && options.allowDegraded !== true) {
    throw componentDownError(describeLegsDown(probe.down));
  }
  return probe;
}

/**
 * One pass over the corpus, before measuring: its counts and digest, the documents that quote a golden query
 * (judged per row once measured), and the quote entries whose quote is in no chunk of their document.
 */
function scanCorpus(snapshot: ReadSnapshot, golden: GoldenSet) {
  const needles = buildQuoteNeedles(golden.queries.map((q) => q.query));
  const scan = createQuoteScan(needles);
  const presence = createQuotePresenceScan(golden.queries);
  const corpus: CorpusSnapshot = snapshot.readCorpus((row) => {
    scan.observe(row.path, [row.heading, row.context, row.content]);
    presence.observe(row.path, row.content);
  });
  return { corpus, needles, matches: scan.matchesByPath(), staleQuotes: presence.stale() };
}

/** The report, built once: every row's run, comparison and pairings, then the ablation of the decision row. */
function buildReport(
  plan: EvaluationPlan,
  measured: Measured,
  options: EvaluateOptions,
  context: EvaluationContext,
): EvalReport {
  const { config } = context;
  const { rows, golden, depth, history, explicitBaseline } = plan;
  const freshness = plan.freshness && withDrift(plan.freshness, measured.corpus, config);
  const runContext: RunContext = {
    measured,
    depth,
    golden,
    timestamp: formatRunTimestamp(context.ports.now()),
    allowDegraded: options.allowDegraded,
  };
  const runs = rows.map((row, i) => buildRun(row, i, runContext));
  const learned = pairLearnedRows(rows, runs);
  const reports = rows.map((row, i): EvalRowReport => {
    const decision = i === 0;
    const chosen = decision && explicitBaseline !== null;
    const baseline = chosen
      ? explicitBaseline
      : selectBaseline(history?.runs ?? [], runs[i]!, row.name === null ? 'newest' : 'newest-compatible');
    return {
      run: runs[i]!,
      ...compareWithPrevious(runs[i]!, baseline, {
        history: options.history !== false || explicitBaseline !== null,
        diff: options.diff !== false,
        // Only the decision row is gated; reference rows are printed, never enforced.
        failOnRegression: decision && options.failOnRegression === true,
        failOnSignificantRegression: decision && options.failOnSignificantRegression === true,
        threshold: config.eval.regressionThreshold,
      }),
      comparedWith: chosen ? 'chosen' : 'previous',
      versusDecision: decision ? null : pairRuns(runs[i]!, runs[0]!),
      appended: row.appended,
      learning: measured.learningUse[i]!,
      ...learned[i]!,
      legFailures: measured.measurements[i]!.legFailures,
    };
  });
  const [decisionReport, ...otherRows] = reports;
  return {
    ...decisionReport!,
    otherRows,
    ablation: options.ablate ? ablationOf(measured, runContext, rows.length, runs[0]!) : null,
    ...budgetRowsOf(options.budgets, measured.measurements[0]!),
    probe: measured.probe,
    freshness,
    ...(measured.staleQuotes.length > 0 ? { staleQuotes: measured.staleQuotes } : {}),
    notes: [
      ...depth.notes,
      ...staleQuoteNotes(measured.staleQuotes),
      ...plainRunNotes(options.rows !== undefined, config),
      ...(history?.warnings ?? []),
    ],
    golden,
    history,
  };
}

/** The golden set's freshness with how far the corpus moved since it was made. */
function withDrift(
  freshness: GoldenFreshness,
  corpus: CorpusSnapshot,
  config: ResolvedConfig,
): GoldenFreshness {
  const atCreation = { documents: freshness.meta.corpusDocuments, chunks: freshness.meta.corpusChunks };
  return { ...freshness, drift: measureCorpusDrift(atCreation, corpus, config.eval.goldenDriftWarn) };
}

/** Every stage of `--ablate`; the measured stages follow the rows, in plan order. */
function ablationOf(measured: Measured, runContext: RunContext, rowCount: number, decision: EvalRun) {
  const ablated = new Map<AblationStage, EvalRun>();
  measured.plan
    .filter((entry) => entry.pipeline !== null)
    .forEach((entry, j) => {
      const i = rowCount + j;
      ablated.set(entry.stage, buildRun(measured.measuredRows[i]!, i, runContext));
    });
  return toAblationRows(measured.plan, ablated, decision);
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
