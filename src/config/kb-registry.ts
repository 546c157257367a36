// The registry of named knowledge bases: `<config folder>/kbs.toml`, one `[kb.NAME]` table per KB. Read and
// validated as strictly as groove.toml; every error names the file and, where it can, the line.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import * as z from 'zod';
import { lineOfTomlKey } from '../core/toml-key-line.js';
import { PARSER_IDS, type ParserId } from '../document/document-formats.js';
import { GrooveError } from '../errors.js';
import { MIB } from './byte-size.js';
import { expandPath } from './expand-path.js';

/** A KB name: lowercase letters, digits, `-` and `_`, starting with a letter or digit, at most 63 characters. */
export const KB_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const REGISTRY_FILE_NAME = 'kbs.toml';
const MAX_REGISTRY_BYTES = 1 * MIB;

/** One registered KB, its paths absolute. */
export interface KbEntry {
  name: string;
  /** The KB folder. */
  root: string;
  /** A groove.toml whose settings the KB uses (`config`), or null. */
  configFile: string | null;
  /** `model`: an embedding model id, or `none` for lexical-only; null leaves it to the config file. */
  model: string | null;
  /** `parsers`: the parsers enabled for this KB; null leaves them to the config file. */
  parsers: ParserId[] | null;
  /** `db_path`: where the index lives; null for groove's default. */
  dbPath: string | null;
  /** The line of the entry's table in the file, or null when it cannot be told. */
  line: number | null;
}

export interface KbRegistry {
  file: string;
  /** The file's text, or null when there is no registry file yet. */
  text: string | null;
  entries: KbEntry[];
}

const entrySchema = z.strictObject({
  path: z.string().min(1),
  config: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  parsers: z.array(z.enum(PARSER_IDS)).min(1).optional(),
  db_path: z.string().min(1).optional(),
});
const registrySchema = z.strictObject({ kb: z.record(z.string(), entrySchema).optional() });

export function registryFileIn(configDir: string): string {
  return path.join(configDir, REGISTRY_FILE_NAME);
}

/** Why `name` cannot name a KB, or null when it can. */
export function kbNameProblem(name: string): string | null {
  if (KB_NAME_PATTERN.test(name)) return null;
  return `"${name}" is not a valid KB name: use 1 to 63 lowercase letters, digits, "-" and "_", starting with a letter or digit`;
}

/** Throw INVALID_ARGUMENT (exit 2) for a name given on the command line that cannot name a KB. */
export function checkKbName(name: string): void {
  const problem = kbNameProblem(name);
  if (problem) throw new GrooveError('INVALID_ARGUMENT', problem, { hint: 'for example: notes, work-docs' });
}

function invalid(file: string, line: number | null, what: string, hint?: string): GrooveError {
  const where = line === null ? `"${file}"` : `"${file}" line ${line}`;
  return new GrooveError('KB_REGISTRY_INVALID', `KB registry ${where}: ${what}`, {
    hint: hint ?? 'fix the file by hand (see docs/kbs.md); groove changes nothing until then',
  });
}

/** Read the registry at `file`; a missing file is an empty registry. */
export function readKbRegistry(file: string): KbRegistry {
  let text: string;
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return { file, text: null, entries: [] };
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > MAX_REGISTRY_BYTES) throw new Error(`${stat.size} bytes, over the 1 MiB cap`);
    text = fs.readFileSync(file, 'utf8');
  } catch (cause) {
    if (cause instanceof GrooveError) throw cause;
    throw invalid(file, null, `cannot be read: ${(cause as Error).message}`);
  }
  return { file, text, entries: parseKbRegistry(text, file) };
}

/** Parse and validate registry text; `file` is where it came from (relative paths are relative to its folder). */
export function parseKbRegistry(text: string, file: string): KbEntry[] {
  let raw: unknown;
  try {
    raw = { ...(parseToml(text) as object) };
  } catch (cause) {
    const line = cause instanceof TomlError ? cause.line : null;
    const reason = (cause as Error).message.split('\n')[0];
    throw invalid(file, line, `not valid TOML: ${reason}`);
  }
  const parsed = registrySchema.safeParse(raw);
  if (!parsed.success) throw schemaError(text, file, parsed.error);
  const baseDir = path.dirname(file);
  const entries = Object.entries(parsed.data.kb ?? {}).map(([name, entry]): KbEntry => {
    const line = lineOfTomlKey(text, ['kb', name]);
    const problem = kbNameProblem(name);
    if (problem) throw invalid(file, line, problem);
    return {
      name,
      root: expandPath(entry.path, baseDir),
      configFile: entry.config === undefined ? null : expandPath(entry.config, baseDir),
      model: entry.model ?? null,
      parsers: entry.parsers ? [...new Set(entry.parsers)] : null,
      dbPath: entry.db_path === undefined ? null : expandPath(entry.db_path, baseDir),
      line,
    };
  });
  checkNoOverlap(entries, file);
  return entries;
}

function schemaError(text: string, file: string, error: z.ZodError): GrooveError {
  const issue = error.issues[0]!;
  const keyPath = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const key = [...keyPath, issue.keys[0]!];
    const allowed =
      keyPath.length === 0
        ? 'the file holds only [kb.NAME] tables'
        : 'allowed: path, config, model, parsers, db_path';
    return invalid(file, lineOfTomlKey(text, key), `unknown key "${key.join('.')}" (${allowed})`);
  }
  const where = keyPath.join('.');
  return invalid(file, lineOfTomlKey(text, keyPath), `key "${where}" ${issue.message}`);
}

/** Whether one folder is the other or lies inside it. */
export function rootsOverlap(a: string, b: string): boolean {
  const [x, y] = [comparable(a), comparable(b)];
  return x === y || x.startsWith(withSeparator(y)) || y.startsWith(withSeparator(x));
}

function withSeparator(dir: string): string {
  return dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`;
}

/** The folder's real path where it exists (symbolic links followed), else the path as written. */
function comparable(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** The registered KB whose folder overlaps `root`, other than the one named `except`; null when none. */
export function overlappingEntry(entries: readonly KbEntry[], root: string, except?: string): KbEntry | null {
  return entries.find((entry) => entry.name !== except && rootsOverlap(entry.root, root)) ?? null;
}

function checkNoOverlap(entries: readonly KbEntry[], file: string): void {
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i]!;
    const other = overlappingEntry(entries.slice(0, i), entry.root);
    if (!other) continue;
    const otherLine = other.line === null ? '' : ` (line ${other.line})`;
    throw invalid(
      file,
      entry.line,
      `the folder of KB "${entry.name}" ("${entry.root}") overlaps the folder of KB "${other.name}"${otherLine} ("${other.root}")`,
      'one folder may belong to one KB only: remove one entry or point it at another folder',
    );
  }
}

/** The entry named `name`; KB_UNKNOWN (exit 2) naming the registered KBs when there is none. */
export function findKbEntry(registry: KbRegistry, name: string): KbEntry {
  const entry = registry.entries.find((candidate) => candidate.name === name);
  if (entry) return entry;
  const known = registry.entries.map((candidate) => candidate.name);
  const listing = known.length === 0 ? 'no KB is registered' : `registered: ${known.join(', ')}`;
  throw new GrooveError('KB_UNKNOWN', `no KB named "${name}" in "${registry.file}" (${listing})`, {
    hint: 'add it with `groove kb add NAME PATH`, or see `groove kb list`',
  });
}

/**
 * The entry `name` of the registry in groove's config folder, its config file checked to exist. KB_UNKNOWN when
 * the registry has no such KB.
 */
export function registeredKb(name: string, configDir: string): KbEntry {
  checkKbName(name);
  const entry = findKbEntry(readKbRegistry(registryFileIn(configDir)), name);
  if (entry.configFile !== null && !fs.existsSync(entry.configFile)) {
    throw new GrooveError(
      'CONFIG_NOT_FOUND',
      `config file "${entry.configFile}" of KB "${name}" does not exist`,
      { hint: `fix its "config" line in "${registryFileIn(configDir)}"` },
    );
  }
  return entry;
}
