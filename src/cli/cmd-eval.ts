// `groove eval`: measure retrieval against a golden file, diff with the previous run, optionally gate CI; with
// several --kb, against the search across those KBs.
import {
  type EvalOutcome,
  type EvalOutput,
  type EvalReport,
  type EvalRequest,
  type EvaluateOptions,
  evalReportToJson,
  withCombinedEvalSnapshot,
} from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import { type CliIo, EXIT, wantsColor } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { renderEvalHtml } from './html-report/index.js';
import { loadSearchTargets, type SearchTarget } from './kb-configs.js';
import type { EvalFlags } from './measure-options.js';
import { withOpenTargets } from './open-targets.js';
import { renderAblationText } from './render-ablation.js';
import { renderBudgetText } from './render-budget.js';
import { renderEvalDiagnostics, renderEvalRowsText, renderGate, renderQuoteFindings } from './render-eval.js';
import { renderIntegrityDiagnostics, renderSignificantGate } from './render-integrity.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

export async function run({ flags, io }: RunContext<EvalFlags>): Promise<number> {
  const targets = loadSearchTargets(flags, io);
  if (targets !== null) return runAcross(flags, io, targets);
  const request: EvalRequest = {
    ...evaluateOptions(flags, io.cwd),
    report: flags.report === undefined ? undefined : expandPath(flags.report, io.cwd),
    trec: {
      run: flags.trecRun === undefined ? undefined : expandPath(flags.trecRun, io.cwd),
      qrels: flags.trecQrels === undefined ? undefined : expandPath(flags.trecQrels, io.cwd),
    },
  };
  const outcome = await withKnowledgeBase(flags, io, 'read', (kb) =>
    kb.runEval(request, evalOutput(flags, io)),
  );
  return finishRun(outcome, io);
}

/**
 * `--kb a --kb b …`: one cross-KB search per golden query over the named KBs, with the KB set's own history.
 * What cannot be measured across KBs yet is refused, and the golden file must be named.
 */
async function runAcross(flags: EvalFlags, io: CliIo, targets: SearchTarget[]): Promise<number> {
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
  const outcome = await withOpenTargets(targets, ([first, ...others]) => {
    const named = [first!, ...others].map(({ kb, name }) => ({ kb, name }));
    return first!.kb.runEvalAcross(
      named.map((target) => target.name),
      (work) => withCombinedEvalSnapshot(named, work),
      evaluateOptions(flags, io.cwd),
      evalOutput(flags, io),
    );
  });
  return finishRun(outcome, io);
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
    budgets: flags.budget,
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
    io.stdout.write(renderBudgetText(report));
  }
}

/** The run shown on the CLI: the report on stdout; what was written, diagnostics and warnings on stderr. */
function evalOutput(flags: EvalFlags, io: CliIo): EvalOutput {
  return {
    show: (report) => writeReport(report, flags, io),
    renderHtml: renderEvalHtml,
    wrote: ({ kind, path }) =>
      io.stderr.write(
        kind === 'trec' ? `groove eval: wrote ${path}\n` : `groove eval: wrote the HTML report ${path}\n`,
      ),
    diagnose: (report) => {
      io.stderr.write(renderIntegrityDiagnostics(report));
      io.stderr.write(renderEvalDiagnostics(report));
      io.stderr.write(renderQuoteFindings(report.run.findings));
    },
    historyWarning: (warning) => io.stderr.write(`groove eval: warning: ${warning}\n`),
  };
}

/** The gates' verdicts on stderr, and the exit code they decided. */
function finishRun({ report, regressed }: EvalOutcome, io: CliIo): number {
  io.stderr.write(renderGate(report));
  io.stderr.write(renderSignificantGate(report));
  return regressed ? EXIT.failure : EXIT.ok;
}
