// `groove doctor` as a use case: gather the facts once (the index's meta and tables, the writer lock, the model's
// files, the golden sidecar), run every check inside one read transaction, and report what broke. It writes
// nothing: the index is opened read-only, so an old schema is reported rather than migrated.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { NOTE_LINK_RULES } from '../../document/note-links.js';
import { describeError, isGrooveError } from '../../errors.js';
import { assessGoldenAge, measureCorpusDrift } from '../../measure/golden-freshness.js';
import type { IntegrityReader } from '../../store/index-integrity.js';
import { findModelFilesProblem, identityFromMeta } from '../embedding/index.js';
import { loadGoldenMeta, type ReadCheckedFile, resolveGoldenPath } from '../golden/index.js';
import { inspectIndexLock } from '../indexing/index.js';
import { CURRENT_SCHEMA_VERSION, NOT_AN_INDEX_REMEDY, openDoctorDatabase } from './doctor-database.js';
import {
  type DoctorCheck,
  type DoctorCheckFacts,
  type DoctorContext,
  type DoctorFinding,
  type DoctorReport,
  type GoldenFacts,
  NOT_APPLICABLE,
  SAMPLE_LIMIT,
} from './doctor-report.js';
import { INTEGRITY_CHECKS } from './integrity-checks.js';
import { SERVABILITY_CHECKS } from './servability-checks.js';

export interface DoctorInput {
  kbPath: string;
  dbPath: string;
  config: ResolvedConfig;
}

export interface DoctorPorts {
  /** Checked reads, for the golden sidecar. */
  read: ReadCheckedFile;
  now: () => Date;
}

/** Every check, in the order they run and are listed. */
export const DOCTOR_CHECKS: readonly DoctorCheck[] = [...INTEGRITY_CHECKS, ...SERVABILITY_CHECKS];

const CHECK_FAILED_REMEDY = 'groove index --force (rebuilds the index from the files)';

/** Findings no check declares: a check that could not run, and a file at the index path that is not groove's. */
export const OTHER_FINDINGS: readonly DoctorCheckFacts[] = [
  {
    check: 'check-failed',
    severity: 'error',
    meaning: 'a check could not read the index (damage SQLite reports while reading)',
    remedy: CHECK_FAILED_REMEDY,
  },
  {
    check: 'not-a-groove-index',
    severity: 'error',
    meaning:
      "the file at the index path is not SQLite, or SQLite without groove's stamp or `index_meta` (its first tables are listed)",
    remedy: NOT_AN_INDEX_REMEDY,
  },
];

export function runDoctor(input: DoctorInput, ports: DoctorPorts): DoctorReport {
  const opened = openDoctorDatabase(input.dbPath, input.kbPath);
  if (!opened.readable) return unreadableFileReport(input, opened.finding);
  const { database } = opened;
  try {
    const { reader } = database;
    return reader.inSnapshot(() => {
      const context = gatherFacts(reader, input, ports);
      const { checked, findings } = runChecks(DOCTOR_CHECKS, context, database.findings);
      return {
        kbPath: input.kbPath,
        dbPath: input.dbPath,
        documents: context.counts.documents,
        chunks: context.counts.chunks,
        vectors: context.tables.has('chunk_vectors') ? reader.count('chunk_vectors') : 0,
        model: context.identity?.model ?? 'none',
        schemaVersion: context.schema.recorded,
        checked,
        findings,
      };
    });
  } finally {
    database.close();
  }
}

/** The report on a file SQLite cannot read: that one finding, and no check could run. */
function unreadableFileReport(input: DoctorInput, finding: DoctorFinding): DoctorReport {
  return {
    kbPath: input.kbPath,
    dbPath: input.dbPath,
    documents: 0,
    chunks: 0,
    vectors: 0,
    model: 'none',
    schemaVersion: 0,
    checked: [finding.check],
    findings: [finding],
  };
}

function gatherFacts(reader: IntegrityReader, input: DoctorInput, ports: DoctorPorts): DoctorContext {
  const tables = reader.tables();
  const meta = tables.has('index_meta') ? reader.meta() : {};
  const identity = identityFromMeta(meta);
  const recorded = Number(meta.schema_version ?? 0);
  const counts = {
    documents: tables.has('documents') ? reader.count('documents') : 0,
    chunks: tables.has('chunks') ? reader.count('chunks') : 0,
  };
  return {
    reader,
    tables,
    dbPath: input.dbPath,
    identity,
    schema: { recorded: Number.isFinite(recorded) ? recorded : 0, current: CURRENT_SCHEMA_VERSION },
    counts,
    linkRules: { recorded: recordedLinkRules(meta.chunk_policy), current: NOTE_LINK_RULES },
    noteExtensions: input.config.parsers.extensions,
    lock: inspectIndexLock(input.dbPath),
    model: identity ? findModelFilesProblem(input.config, identity) : null,
    golden: goldenFacts(input, ports, counts),
    servedExtensions: input.config.parsers.extensions,
  };
}

/** The link rules' version in a recorded chunk policy (index-database.ts writes it), or null. */
function recordedLinkRules(chunkPolicy: string | undefined): number | null {
  if (chunkPolicy === undefined) return null;
  try {
    const links = (JSON.parse(chunkPolicy) as { links?: unknown }).links;
    return typeof links === 'number' ? links : null;
  } catch {
    return null;
  }
}

/** The golden sidecar eval would read, judged as eval judges it: its age now and the corpus drift since. */
function goldenFacts(
  input: DoctorInput,
  ports: DoctorPorts,
  corpus: { documents: number; chunks: number },
): GoldenFacts {
  const { config, kbPath } = input;
  const goldenPath = resolveGoldenPath({ configured: config.eval.golden, kbPath });
  try {
    const meta = loadGoldenMeta(goldenPath, { read: ports.read });
    if (meta === null) return { kind: 'none' };
    const freshness = assessGoldenAge(meta, ports.now(), config.eval.maxGoldenAgeDays);
    const atCreation = { documents: meta.corpusDocuments, chunks: meta.corpusChunks };
    freshness.drift = measureCorpusDrift(atCreation, corpus, config.eval.goldenDriftWarn);
    return { kind: 'sidecar', goldenPath, freshness };
  } catch (error) {
    if (!isGrooveError(error)) throw error;
    return { kind: 'invalid', message: error.message, remedy: error.hint ?? 'delete the sidecar' };
  }
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Run each check once; a check that cannot read the index becomes a finding of its own, not a crash. */
function runChecks(
  checks: readonly DoctorCheck[],
  context: DoctorContext,
  fileFindings: readonly DoctorFinding[],
): { checked: string[]; findings: DoctorFinding[] } {
  const checked: string[] = fileFindings.map((finding) => finding.check);
  const findings: DoctorFinding[] = [...fileFindings];
  const failed: string[] = [];
  for (const check of checks) {
    let detection: ReturnType<DoctorCheck['inspect']>;
    try {
      detection = check.inspect(context);
    } catch (error) {
      failed.push(`${check.check}: ${describeError(error)}`);
      continue;
    }
    if (detection === NOT_APPLICABLE) continue;
    checked.push(check.check);
    if (detection === null) continue;
    findings.push({
      check: check.check,
      severity: check.severity,
      summary: detection.summary,
      count: detection.count,
      samples: (detection.samples ?? []).slice(0, SAMPLE_LIMIT),
      remedy: detection.remedy ?? check.remedy,
    });
  }
  if (failed.length > 0) {
    findings.push({
      check: 'check-failed',
      severity: 'error',
      summary: `${failed.length === 1 ? 'a check' : `${failed.length} checks`} could not read the index`,
      count: failed.length,
      samples: failed.slice(0, SAMPLE_LIMIT),
      remedy: CHECK_FAILED_REMEDY,
    });
  }
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return { checked, findings };
}
