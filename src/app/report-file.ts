// The HTML reports a command writes to a path the user named (`groove tune --report FILE`).
import { filePorts } from './adapters.js';
import { checkReportTarget } from './eval/index.js';

/** Refuse, before anything is measured, a report path that cannot be written; `flag` names it in the error. */
export function checkReportPath(filePath: string, flag: string): void {
  checkReportTarget(filePath, flag, filePorts.unwritable);
}

/** Write an HTML report atomically: a reader sees the old file or the whole new one. */
export function writeReportFile(filePath: string, html: string): void {
  filePorts.write(filePath, html);
}
