// `validate`: the frontmatter of every Markdown file the indexer would read — the same walk, ignore rules,
// enabled parsers and checked reads, through the indexer's own ports — checked against the schema. No index
// is opened or needed.
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { formatCarriesFrontmatter, formatOfPath } from '../../document/parse-document.js';
import { GrooveError } from '../../errors.js';
import { buildIndexerPorts } from '../indexing/index.js';
import { DEFAULT_SCHEMA_FILE, loadSchemaFile } from './schema-file.js';
import { type Violation, validateFrontmatter } from './validate-frontmatter.js';

export interface ValidateRequest {
  /** Absolute; default `<kb>/groove-schema.toml`. */
  schemaPath?: string;
  /** Report keys the schema does not declare. */
  strict: boolean;
}

export interface FileViolations {
  /** KB-relative, `/`-separated (as the index names documents). */
  path: string;
  violations: Violation[];
}

export interface ValidationReport {
  kbPath: string;
  schemaPath: string;
  /** False when the default schema does not exist: nothing was validated. */
  schemaFound: boolean;
  /** Undeclared keys were reported (`--strict`, or `allow_unknown_fields = false` in the schema). */
  strict: boolean;
  /** Markdown files whose frontmatter was checked. */
  scanned: number;
  /** Only the files with violations, in path order. */
  files: FileViolations[];
  /** Files the indexer would skip too (links, too large, binary…), with the indexer's message. */
  skipped: { path: string; message: string }[];
  /** Walk warnings (an unreadable folder, .grooveignore notes). */
  warnings: string[];
}

/** Only files the indexer parses with frontmatter have any to check. */
function carriesFrontmatter(relPath: string): boolean {
  return formatCarriesFrontmatter(formatOfPath(relPath));
}

export function validateKnowledgeBase(config: ResolvedConfig, request: ValidateRequest): ValidationReport {
  const kbPath = config.kbPath;
  if (!kbPath) {
    throw new GrooveError('KB_PATH_MISSING', 'no knowledge base given', {
      hint: 'pass --kb-path DIR or set kb_path in groove.toml',
    });
  }
  // The walk comes first: it refuses a KB that is missing or unreadable before a missing schema says "nothing
  // to validate", and an unusable .grooveignore stops validation as it stops indexing.
  const ports = buildIndexerPorts(kbPath, config);
  const walked = ports.walk();
  const schemaPath = request.schemaPath ?? path.join(kbPath, DEFAULT_SCHEMA_FILE);
  const loaded = loadSchemaFile(schemaPath, request.schemaPath !== undefined);
  const report: ValidationReport = {
    kbPath,
    schemaPath,
    schemaFound: loaded.found,
    strict: request.strict || (loaded.found && !loaded.schema.allowUnknownFields),
    scanned: 0,
    files: [],
    skipped: [],
    warnings: [],
  };
  if (!loaded.found) return report;
  report.warnings.push(...walked.warnings);
  report.skipped.push(...walked.skipped.map((s) => ({ path: s.relPath, message: s.message })));
  for (const file of walked.files) {
    if (!carriesFrontmatter(file.relPath)) continue;
    const read = ports.readFile(file);
    if (!read.ok) {
      report.skipped.push({ path: file.relPath, message: read.message });
      continue;
    }
    report.scanned += 1;
    const violations = validateFrontmatter(read.text, loaded.schema, { strict: request.strict });
    if (violations.length > 0) report.files.push({ path: file.relPath, violations });
  }
  report.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return report;
}
