// `groove eval` whole: measure, show the numbers, save what was asked for (the TREC files, the HTML report, the
// history) and decide the gates. The numbers are shown before anything is saved, so a save that fails still
// leaves them on screen; the history is saved before the gates decide, so this run is the next run's baseline.
import { GrooveError } from '../../errors.js';
import type { ReadCheckedFile } from '../golden/index.js';
import { type HistoryWriteResult, recordEvalRun } from './eval-history.js';
import { type EvalReport, type EvaluateOptions, rowsOf } from './eval-report.js';
import { type TrecExportOptions, writeTrecFiles } from './eval-trec.js';
import { type EvaluationContext, runEvaluation } from './evaluator.js';

export interface EvalRequest extends EvaluateOptions {
  /** `--report FILE`, already absolute: where the HTML report is written (checked before anything is measured). */
  report?: string;
  /** `--trec-run` / `--trec-qrels`, already absolute. */
  trec?: TrecExportOptions;
}

/** Where the run shows itself (the caller renders: stdout, stderr, the HTML page). */
export interface EvalOutput {
  /** The measured report, before anything is saved. */
  show(report: EvalReport): void;
  /** The page `--report` writes. */
  renderHtml(report: EvalReport): string;
  /** A file the run wrote: a TREC file or the HTML report. */
  wrote(file: { kind: 'trec' | 'report'; path: string }): void;
  /** What the checks found, once the files are written and before the history is saved. */
  diagnose(report: EvalReport): void;
  /** Why the saved history was started fresh or trimmed. */
  historyWarning(warning: string): void;
}

/** The files eval reads and writes outside the index, and the gate evals take turns on for the history. */
export interface EvalFilePorts {
  readFile: ReadCheckedFile;
  write(filePath: string, text: string): void;
  /** Why a new file cannot be written at a path, or null. */
  unwritable(filePath: string): string | null;
  withGate<T>(target: string, work: () => T, guards: string): Promise<T>;
}

export interface EvalRunContext extends EvaluationContext {
  files: EvalFilePorts;
  /** `[eval] history_size`. */
  historySize: number;
}

export interface EvalOutcome {
  report: EvalReport;
  /** The history write; null with --no-history. */
  saved: HistoryWriteResult | null;
  /** A gate the run asked for (--fail-on-regression, --fail-on-significant-regression) found a regression. */
  regressed: boolean;
}

const SILENT: EvalOutput = {
  show: () => undefined,
  renderHtml: () => '',
  wrote: () => undefined,
  diagnose: () => undefined,
  historyWarning: () => undefined,
};

export async function runEval(
  request: EvalRequest,
  context: EvalRunContext,
  output: EvalOutput = SILENT,
): Promise<EvalOutcome> {
  const { files } = context;
  if (request.report !== undefined) checkReportTarget(request.report, '--report', files.unwritable);
  const report = await runEvaluation(request, context);
  output.show(report);
  writeOutputFiles(report, request, files, output);
  output.diagnose(report);
  const saved = await saveToHistory(report, context);
  if (saved?.warning) output.historyWarning(saved.warning);
  return { report, saved, regressed: isRegressed(report) };
}

/**
 * `--report FILE` (and tune's): refuse, before anything is measured, a path whose folder is missing or that is a
 * folder (`flag` names the option in the message).
 */
export function checkReportTarget(
  filePath: string,
  flag: string,
  unwritable: EvalFilePorts['unwritable'],
): void {
  const why = unwritable(filePath);
  if (why === null) return;
  throw new GrooveError('INVALID_ARGUMENT', `${flag} "${filePath}" cannot be written: ${why}`, {
    hint: 'name a file in an existing folder, e.g. --report eval-report.html',
  });
}

/** The TREC files, then the HTML report, each written atomically. */
function writeOutputFiles(
  report: EvalReport,
  request: EvalRequest,
  files: EvalFilePorts,
  output: EvalOutput,
): void {
  for (const written of writeTrecFiles(report, request.trec ?? {}, files.write)) {
    output.wrote({ kind: 'trec', path: written });
  }
  if (request.report !== undefined) {
    files.write(request.report, output.renderHtml(report));
    output.wrote({ kind: 'report', path: request.report });
  }
}

/** Every row's run, saved to the history under its gate (null with --no-history). */
function saveToHistory(report: EvalReport, context: EvalRunContext): Promise<HistoryWriteResult | null> {
  const { files } = context;
  return recordEvalRun(
    report.history,
    rowsOf(report).map((row) => row.run),
    {
      historySize: context.historySize,
      read: files.readFile,
      write: files.write,
      withGate: (historyPath, work) => files.withGate(historyPath, work, `the eval history "${historyPath}"`),
    },
  );
}

function isRegressed(report: EvalReport): boolean {
  return report.gate.state === 'regressed' || report.significantGate.state === 'regressed';
}
