// Pure renderers for `groove validate`: `file:line: message` text, the JSON report, and GitHub Actions workflow
// commands (`::error file=…,line=…::…`) that annotate the files of a pull request.
import path from 'node:path';
import { displayLine, type ValidationReport, type Violation } from '../app/index.js';

/** How a report's file is named in text and github output: relative to the working folder, `/`-separated. */
function shownPath(report: ValidationReport, relPath: string, cwd: string): string {
  const absolute = path.join(report.kbPath, ...relPath.split('/'));
  return path.relative(cwd, absolute).split(path.sep).join('/');
}

function violationCount(report: ValidationReport): number {
  return report.files.reduce((sum, file) => sum + file.violations.length, 0);
}

/** The closing line of text and github output. */
export function summaryLine(report: ValidationReport, cwd: string): string {
  const schema = path.relative(cwd, report.schemaPath).split(path.sep).join('/');
  if (!report.schemaFound) return `no schema found at ${schema}; nothing to validate`;
  const count = violationCount(report);
  const files = `${report.scanned} file${report.scanned === 1 ? '' : 's'}`;
  const found =
    count === 0
      ? 'no violations'
      : `${count} violation${count === 1 ? '' : 's'} in ${report.files.length} file${report.files.length === 1 ? '' : 's'}`;
  const skipped = report.skipped.length === 0 ? '' : `, ${report.skipped.length} skipped`;
  const strict = report.strict ? ' (undeclared keys reported)' : '';
  return `checked ${files} against ${schema}${strict}: ${found}${skipped}`;
}

/** One `path:line: message [kind]` line per violation, then the summary; every line escaped for a terminal. */
export function renderValidationText(report: ValidationReport, cwd: string): string {
  const lines: string[] = [];
  for (const file of report.files) {
    const shown = shownPath(report, file.path, cwd);
    for (const v of file.violations) lines.push(`${shown}:${v.line}: ${v.message} [${v.kind}]`);
  }
  lines.push(summaryLine(report, cwd));
  return lines.map((line) => `${displayLine(line)}\n`).join('');
}

/** Stderr lines for what was not checked (text and json formats). */
export function renderValidationWarnings(report: ValidationReport): string {
  const messages = [...report.warnings, ...report.skipped.map((skip) => skip.message)];
  return messages.map((message) => `groove validate: warning: ${displayLine(message)}\n`).join('');
}

export function validationReportToJson(report: ValidationReport): Record<string, unknown> {
  const violated = report.files.length;
  return {
    kb_path: report.kbPath,
    schema: report.schemaPath,
    schema_found: report.schemaFound,
    strict: report.strict,
    scanned: report.scanned,
    violated,
    ok: report.scanned - violated,
    files: report.files.map((file) => ({
      path: file.path,
      violations: file.violations.map(violationToJson),
    })),
    skipped: report.skipped,
    warnings: report.warnings,
  };
}

function violationToJson(v: Violation): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  for (const key of ['index', 'expected', 'actual', 'pattern', 'allowed', 'min', 'max'] as const) {
    if (v[key] !== undefined) details[key] = v[key];
  }
  return { kind: v.kind, field: v.field, line: v.line, ...details, message: v.message };
}

/** A workflow command's message: `%`, CR and LF would end or garble the command, so they are %-encoded. */
export function escapeWorkflowData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A workflow command's property value: as the message, plus `:` and `,`, which separate properties. */
export function escapeWorkflowProperty(text: string): string {
  return escapeWorkflowData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function workflowCommand(command: string, properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeWorkflowProperty(value)}`)
    .join(',');
  return `::${command}${props === '' ? '' : ` ${props}`}::${escapeWorkflowData(message)}\n`;
}

/** `::error` per violation, `::warning` per skipped file, then the summary as a plain log line. */
export function renderValidationGithub(report: ValidationReport, cwd: string): string {
  if (!report.schemaFound) return workflowCommand('notice', {}, summaryLine(report, cwd));
  let out = '';
  for (const warning of report.warnings) out += workflowCommand('warning', {}, warning);
  for (const skip of report.skipped) {
    out += workflowCommand('warning', { file: shownPath(report, skip.path, cwd) }, skip.message);
  }
  for (const file of report.files) {
    const shown = shownPath(report, file.path, cwd);
    for (const v of file.violations) {
      const properties = { file: shown, line: String(v.line), title: `groove validate: ${v.kind}` };
      out += workflowCommand('error', properties, v.message);
    }
  }
  return `${out}${escapeWorkflowData(summaryLine(report, cwd))}\n`;
}
