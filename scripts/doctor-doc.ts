// The check table of docs/doctor.md, rendered from the doctor's check declarations, and the splice that puts it
// between the table's marker comments.
import { DOCTOR_CHECKS, type DoctorCheckFacts, OTHER_FINDINGS } from '../src/app/doctor/index.js';
import { inline } from './cli-doc.js';

export const TABLE_START =
  '<!-- doctor-checks:start (generated from src/app/doctor by `npm run docs:doctor`; do not edit by hand) -->';
export const TABLE_END = '<!-- doctor-checks:end -->';

function row(check: DoctorCheckFacts): string {
  return `| \`${check.check}\` | ${check.severity} | ${inline(check.meaning)} | ${inline(check.remedy)} |`;
}

/** The table between (and including) the markers, in the order doctor runs the checks. */
export function renderDoctorTable(): string {
  return [
    TABLE_START,
    '| check | severity | what it means | remedy |',
    '|---|---|---|---|',
    ...[...DOCTOR_CHECKS, ...OTHER_FINDINGS].map(row),
    TABLE_END,
  ].join('\n');
}

/** `doc` with the text between the markers replaced by a freshly rendered table. */
export function spliceDoctorTable(doc: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('the doctor-checks markers are missing from docs/doctor.md');
  return doc.slice(0, start) + renderDoctorTable() + doc.slice(end + TABLE_END.length);
}
