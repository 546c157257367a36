// What `groove doctor` reports, the shape of one check, and the report's one wire form.
import type { GoldenFreshness } from '../../measure/golden-freshness.js';
import type { IntegrityReader, RuleBreaks } from '../../store/index-integrity.js';
import type { IndexIdentity, ModelFilesProblem } from '../embedding/index.js';
import type { LockState } from '../indexing/index.js';

/** A finding names at most this many of the rows or files it counts. */
export const SAMPLE_LIMIT = 5;

/**
 * `error`: the index holds wrong or missing data, or cannot be served as built; `warning`: it works, worse;
 * `info`: the index is fine, and this is worth knowing about the notes (it does not fail doctor).
 */
export type Severity = 'error' | 'warning' | 'info';

export interface DoctorFinding {
  check: string;
  severity: Severity;
  summary: string;
  /** How many rows, files or problems break the rule. */
  count: number;
  /** The first few of them, named (at most SAMPLE_LIMIT). */
  samples: string[];
  remedy: string;
}

export interface DoctorReport {
  kbPath: string;
  dbPath: string;
  documents: number;
  chunks: number;
  vectors: number;
  /** The embedding model the index records, or `none`. */
  model: string;
  /** The schema version the index records (0 when it records none). */
  schemaVersion: number;
  /** The checks that applied to this index, in the order they ran; a check that found nothing is listed too. */
  checked: string[];
  /** Errors first, then warnings, then info. */
  findings: DoctorFinding[];
}

/** The golden set's sidecar as doctor found it. */
export type GoldenFacts =
  | { kind: 'none' }
  | { kind: 'invalid'; message: string; remedy: string }
  | { kind: 'sidecar'; goldenPath: string; freshness: GoldenFreshness };

/** Everything a check may look at: SQL through the reader, and the facts gathered once before the checks run. */
export interface DoctorContext {
  reader: IntegrityReader;
  tables: ReadonlySet<string>;
  dbPath: string;
  identity: IndexIdentity | null;
  /** The schema version the index records (0 when none) and the one this groove writes. */
  schema: { recorded: number; current: number };
  counts: { documents: number; chunks: number };
  /**
   * The version of the link rules the last full parse of the notes used (the chunk policy's `links`; null when
   * the index records none) and the one this groove applies.
   */
  linkRules: { recorded: number | null; current: number };
  /** `[parsers] enabled`: the extensions of the files groove indexes (which link targets name notes). */
  noteExtensions: readonly string[];
  lock: LockState;
  model: ModelFilesProblem | null;
  golden: GoldenFacts;
  /** The extensions the enabled parsers claim (`[parsers] enabled`, `[parsers.code] languages`). */
  servedExtensions: readonly string[];
}

/** A rule that holds or is broken: what a check returns when it finds something. */
export interface Detection {
  count: number;
  summary: string;
  samples?: string[];
  /** Replaces the check's remedy when the fix depends on what was found. */
  remedy?: string;
}

/** The check does not apply to this index (a table it reads is absent, the index has no model…). */
export const NOT_APPLICABLE = Symbol('not applicable');

/** A check as the docs list it: its name, severity, what a finding means and the usual fix. */
export interface DoctorCheckFacts {
  check: string;
  severity: Severity;
  /** What a finding of this check means, for the table in docs/doctor.md. */
  meaning: string;
  remedy: string;
}

export interface DoctorCheck extends DoctorCheckFacts {
  inspect(context: DoctorContext): Detection | null | typeof NOT_APPLICABLE;
}

/** `1 chunk`, `3 chunks`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A detection from rule breaks, or null when nothing breaks the rule. */
export function detectBreaks(breaks: RuleBreaks, summary: (count: number) => string): Detection | null {
  return breaks.count === 0
    ? null
    : { count: breaks.count, summary: summary(breaks.count), samples: breaks.samples };
}

/** Whether every one of `tables` is in the file. */
export function hasTables(context: DoctorContext, ...tables: string[]): boolean {
  return tables.every((table) => context.tables.has(table));
}

/** The one wire form of a report (`groove doctor --format json`). */
export function doctorReportToJson(report: DoctorReport): Record<string, unknown> {
  return {
    kb_path: report.kbPath,
    db_path: report.dbPath,
    documents: report.documents,
    chunks: report.chunks,
    vectors: report.vectors,
    model: report.model,
    schema_version: report.schemaVersion,
    checked: report.checked,
    findings: report.findings.map((finding) => ({
      check: finding.check,
      severity: finding.severity,
      summary: finding.summary,
      count: finding.count,
      samples: finding.samples,
      remedy: finding.remedy,
    })),
  };
}
