// `groove doctor` as text: what was checked, then each finding with its samples and its fix.
import { type DoctorFinding, type DoctorReport, displayLine, displayPath } from '../app/index.js';

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function renderFinding(finding: DoctorFinding): string[] {
  const label = finding.severity.padEnd(8);
  const lines = [`${label} ${finding.check} (${finding.count}): ${displayLine(finding.summary)}`];
  for (const sample of finding.samples) lines.push(`           ${displayLine(sample)}`);
  if (finding.count > finding.samples.length && finding.samples.length > 0)
    lines.push(`           … and ${finding.count - finding.samples.length} more`);
  lines.push(`         fix: ${displayLine(finding.remedy)}`);
  return lines;
}

export function renderDoctorReport(report: DoctorReport): string {
  const lines = [
    `groove doctor: ${displayPath(report.dbPath)}`,
    `  ${plural(report.documents, 'document')}, ${plural(report.chunks, 'chunk')}, ${plural(report.vectors, 'vector')}; model ${displayLine(report.model)}; schema ${report.schemaVersion}`,
  ];
  const checks = plural(report.checked.length, 'check');
  if (report.findings.length === 0) return `${[...lines, `no findings (${checks} passed)`].join('\n')}\n`;
  lines.push('');
  for (const finding of report.findings) lines.push(...renderFinding(finding));
  const count = (severity: DoctorFinding['severity']) =>
    report.findings.filter((finding) => finding.severity === severity).length;
  const info = count('info');
  lines.push(
    '',
    `${plural(report.findings.length, 'finding')}: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}${info > 0 ? `, ${info} info` : ''} (${checks} run)`,
  );
  return `${lines.join('\n')}\n`;
}
