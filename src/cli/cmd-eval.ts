// `groove eval`: measure retrieval against a golden file, diff with the previous run, optionally gate CI; with
// several --kb, against the search across those KBs.
import {
  type EvalReport,
  type EvaluateOptions,
  evalReportToJson,
  type KnowledgeBase,
  openKnowledgeBase,
  withCombinedEvalSnapshot,
} from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import type { SearchRequest } from '../config/search-params.js';
import { GrooveError } from '../errors.js';
import { type CliIo, EXIT, wantsColor } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { renderEvalHtml } from './html-report/index.js';
import { loadSearchTargets, type SearchTarget } from './kb-configs.js';
import { withOpenTargets } from './open-targets.js';
import { renderAblationText } from './render-ablation.js';
import { renderEvalDiagnostics, renderEvalRowsText, renderGate, renderQuoteFindings } from './render-eval.js';
import { renderIntegrityDiagnostics, renderSignificantGate } from './render-integrity.js';

interface EvalFlags extends CommonFlags {
  golden?: string;
  reranker?: string;
  k?: number[];
  limit?: number;
  history: boolean;
  diff: boolean;
  color: boolean;
  failOnRegression?: boolean;
  failOnSignificantRegression?: boolean;
  allowDegraded?: boolean;
  allowStaleGolden?: boolean;
  compare?: string;
  rows?: string[];
  ablate?: boolean;
  mmr?: boolean;
  mmrLambda?: number;
  mmrSameDocPenalty?: number;
  parentRetriever?: boolean;
  fold?: SearchRequest['fold'];
  trecRun?: string;
  trecQrels?: string;
  report?: string;
}

export async function run(context: RunContext<EvalFlags>): Promise<number> {
  const targets = loadSearchTargets(context.flags, context.io);
  if (targets !== null) return runAcross(context, targets);
  const { flags, io } = context;
  const config = loadConfig(flags, io);
  const kb = openKnowledgeBase(config, { readOnly: true });
  const reportPath = flags.report === undefined ? undefined : expandPath(flags.report, io.cwd);
  try {
    if (reportPath !== undefined) kb.checkReportTarget(reportPath, '--report');
    const report = await kb.evaluate(evaluateOptions(flags, io.cwd));
    writeReport(report, flags, io);
    const trec = kb.exportTrec(report, {
      run: flags.trecRun === undefined ? undefined : expandPath(flags.trecRun, io.cwd),
      qrels: flags.trecQrels === undefined ? undefined : expandPath(flags.trecQrels, io.cwd),
    });
    for (const written of trec) io.stderr.write(`groove eval: wrote ${written}\n`);
    if (reportPath !== undefined) {
      kb.writeReport(reportPath, renderEvalHtml(report));
      io.stderr.write(`groove eval: wrote the HTML report ${reportPath}\n`);
    }
    return await finishRun(kb, report, io);
  } finally {
    await kb.close();
  }
}

/**
 * `--kb a --kb b …`: one cross-KB search per golden query over the named KBs, with the KB set's own history.
 * What cannot be measured across KBs yet is refused, and the golden file must be named.
 */
async function runAcross({ flags, io }: RunContext<EvalFlags>, targets: SearchTarget[]): Promise<number> {
  for (const [flag, given] of [
    ['--rows', flags.rows],
    ['--ablate', flags.ablate],
    ['--report', flags.report],
    ['--trec-run', flags.trecRun],
    ['--trec-qrels', flags.trecQrels],
  ] as const) {
    if (given !== undefined && given !== false) {
      throw new GrooveError('INVALID_ARGUMENT', `${flag} cannot be used with several --kb`, {
        hint: `run ${flag} on one KB at a time (groove eval --kb NAME ${flag} …)`,
      });
    }
  }
  if (flags.golden === undefined) {
    throw new GrooveError('INVALID_ARGUMENT', 'an eval across several --kb needs --golden FILE', {
      hint: 'no KB owns a golden set of several KBs: name it with --golden; an expected entry may carry `kb: NAME`',
    });
  }
  return withOpenTargets(targets, async ([first, ...others]) => {
    const named = [first!, ...others].map(({ kb, name }) => ({ kb, name }));
    const report = await first!.kb.evaluateAcross(
      named.map((target) => target.name),
      (work) => withCombinedEvalSnapshot(named, work),
      evaluateOptions(flags, io.cwd),
    );
    writeReport(report, flags, io);
    return finishRun(first!.kb, report, io);
  });
}

function evaluateOptions(flags: EvalFlags, cwd: string): EvaluateOptions {
  return {
    golden: flags.golden === undefined ? undefined : expandPath(flags.golden, cwd),
    kValues: flags.k,
    limit: flags.limit,
    history: flags.history,
    diff: flags.diff,
    failOnRegression: flags.failOnRegression,
    failOnSignificantRegression: flags.failOnSignificantRegression,
    allowDegraded: flags.allowDegraded,
    allowStaleGolden: flags.allowStaleGolden,
    compare:
      flags.compare === undefined ? undefined : { id: flags.compare, path: expandPath(flags.compare, cwd) },
    rows: flags.rows,
    ablate: flags.ablate,
    mmr: flags.mmr,
    mmrLambda: flags.mmrLambda,
    mmrSameDocPenalty: flags.mmrSameDocPenalty,
    parentRetriever: flags.parentRetriever,
    fold: flags.fold,
  };
}

/** The report on stdout: JSON or the text rows. */
function writeReport(report: EvalReport, flags: EvalFlags, io: CliIo): void {
  if (flags.format === 'json') {
    io.stdout.write(`${JSON.stringify(evalReportToJson(report), null, 2)}\n`);
  } else {
    const color = wantsColor(io, flags.color);
    io.stdout.write(renderEvalRowsText(report, { color }));
    io.stdout.write(renderAblationText(report));
  }
}

/** Diagnostics, the history write (before the gate exits, so this run is the next run's baseline), the gates. */
async function finishRun(kb: KnowledgeBase, report: EvalReport, io: CliIo): Promise<number> {
  io.stderr.write(renderIntegrityDiagnostics(report));
  io.stderr.write(renderEvalDiagnostics(report));
  io.stderr.write(renderQuoteFindings(report.run.findings));
  const written = await kb.recordEvalRun(report);
  if (written?.warning) io.stderr.write(`groove eval: warning: ${written.warning}\n`);
  io.stderr.write(renderGate(report));
  io.stderr.write(renderSignificantGate(report));
  const regressed = report.gate.state === 'regressed' || report.significantGate.state === 'regressed';
  return regressed ? EXIT.failure : EXIT.ok;
}
