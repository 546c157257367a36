// `groove eval --trec-run FILE --trec-qrels FILE`: the decision row's ranking as a TREC run and the golden set
// as qrels (formats in measure/trec.ts), each written atomically, so trec_eval, ranx or ir_measures can score
// what groove scored.
import { formatTrecQrels, formatTrecRun } from '../../measure/trec.js';
import type { EvalReport } from './eval-report.js';

export interface TrecExportOptions {
  /** Absolute path of the run file to write. */
  run?: string;
  /** Absolute path of the qrels file to write. */
  qrels?: string;
}

/** The run tag: `groove`, or `groove-<row>` for a `--rows` run. */
export function trecRunTag(report: EvalReport): string {
  return report.run.row === undefined ? 'groove' : `groove-${report.run.row}`;
}

/** Write the requested files; returns the paths written. */
export function writeTrecFiles(
  report: EvalReport,
  options: TrecExportOptions,
  write: (filePath: string, text: string) => void,
): string[] {
  const written: string[] = [];
  if (options.run !== undefined) {
    write(options.run, formatTrecRun(report.run.perQuery, trecRunTag(report)));
    written.push(options.run);
  }
  if (options.qrels !== undefined) {
    write(options.qrels, formatTrecQrels(report.golden.queries));
    written.push(options.qrels);
  }
  return written;
}
