// A run never drops documents because of where it was started: when the settings in effect would remove stored
// documents whose files are still there (a parser not enabled, a folder in exclude_dirs), the run drops them only
// when those settings were chosen for this KB (`--config`, or the KB's registry entry). With settings found from
// the current folder, or the defaults, `groove index` is refused with the setting named and the way to make the
// change deliberate; a server's live sync keeps those documents and logs the same words, so it goes on serving.
import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig, SettingsSource } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import { IndexDatabase } from './index-database.js';
import type { IndexEventSink } from './index-events.js';
import {
  describeExclusions,
  type SettingsExclusion,
  settingsExclusionMatcher,
} from './settings-exclusion.js';

/** The settings that decide which files an index holds, as recorded in index_meta (`shaping_settings`). */
export interface ShapingSettings {
  parsers: string[];
  codeLanguages: string[];
  excludeDirs: string[];
}

export function shapingSettingsOf(config: ResolvedConfig): ShapingSettings {
  const sorted = (values: readonly string[]) => [...new Set(values)].sort();
  return {
    parsers: sorted(config.parsers.enabled),
    codeLanguages: sorted(config.parsers.codeLanguages),
    excludeDirs: sorted(config.excludeDirs),
  };
}

function parseShaping(value: string | undefined): ShapingSettings | null {
  if (value === undefined) return null;
  try {
    const parsed = JSON.parse(value) as ShapingSettings;
    return Array.isArray(parsed.parsers) && Array.isArray(parsed.excludeDirs) ? parsed : null;
  } catch {
    return null;
  }
}

/** Settings sources that name this KB's settings on purpose, whatever folder the run was started from. */
const DELIBERATE: ReadonlySet<SettingsSource> = new Set<SettingsSource>(['explicit', 'kb-entry']);

function describeSource(config: ResolvedConfig): string {
  switch (config.settingsSource) {
    case 'explicit':
      return `--config "${config.configPath}"`;
    case 'kb-entry':
      return "the knowledge base's registry entry";
    case 'found':
      return `"${config.configPath}", found from the current folder`;
    default:
      return 'the defaults (no --config given and no groove.toml found from the current folder)';
  }
}

const list = (values: readonly string[]) => `[${values.map((v) => `"${v}"`).join(', ')}]`;

export interface SettingsGuardInput {
  kbPath: string;
  config: ResolvedConfig;
  /** Only these KB-relative paths are looked at by the run (live sync); every stored document when absent. */
  onlyPaths?: readonly string[];
  onEvent?: IndexEventSink;
  /** Settings not chosen for this KB: refuse the run, or keep the documents (with a warning). */
  whenUnchosen: 'refuse' | 'keep';
}

interface Dropped {
  relPath: string;
  exclusion: SettingsExclusion;
}

/** Stored documents (in the run's scope) the settings leave out while their files are still in the KB. */
function droppedBySettings(database: IndexDatabase, input: SettingsGuardInput): Dropped[] {
  const exclusionOf = settingsExclusionMatcher({
    extensions: input.config.parsers.extensions,
    excludeDirs: input.config.excludeDirs,
  });
  const dropped: Dropped[] = [];
  for (const relPath of database.documents.readDocumentStates(input.onlyPaths).keys()) {
    const exclusion = exclusionOf(relPath);
    if (exclusion === null) continue;
    const file = path.join(input.kbPath, ...relPath.split('/'));
    if (fs.statSync(file, { throwIfNoEntry: false })?.isFile()) dropped.push({ relPath, exclusion });
  }
  return dropped;
}

/**
 * The stored documents the run must keep although the walk will not list them. Settings chosen for this KB drop
 * such documents (said in a warning event; none kept); other settings refuse the run (SETTINGS_WOULD_DROP) or,
 * with `whenUnchosen: 'keep'`, keep them (said in a warning event).
 */
export function guardSettingsDrops(database: IndexDatabase, input: SettingsGuardInput): string[] {
  const dropped = droppedBySettings(database, input);
  if (dropped.length === 0) return [];
  const { config } = input;
  const count = `${dropped.length} document${dropped.length === 1 ? '' : 's'}`;
  const what = `${count} whose files are still in the knowledge base: ${describeExclusions(dropped.map((d) => d.exclusion))}`;
  if (DELIBERATE.has(config.settingsSource)) {
    const message = `dropping ${what}, as the settings from ${describeSource(config)} say`;
    input.onEvent?.({ kind: 'warning', message });
    return [];
  }
  // Name only the settings that drop something: the parsers, exclude_dirs, or both.
  const byParsers = dropped.some((d) => d.exclusion.setting === 'parsers');
  const byFolders = dropped.some((d) => d.exclusion.setting === 'exclude_dirs');
  const describe = (parsers: readonly string[], excludeDirs: readonly string[]) =>
    [
      ...(byParsers ? [`[parsers] enabled = ${list(parsers)}`] : []),
      ...(byFolders ? [`exclude_dirs = ${list(excludeDirs)}`] : []),
    ].join(' and ');
  const inEffect = `the settings in effect come from ${describeSource(config)}: ${describe(config.parsers.enabled, config.excludeDirs)}`;
  const built = parseShaping(database.meta().shaping_settings);
  const before = built
    ? `the index was built with ${describe(built.parsers, built.excludeDirs)}`
    : 'the index was built with other settings';
  const hint = `${before}: pass --config with the groove.toml that holds those settings to keep the documents, or pass --config with the new settings to drop them deliberately`;
  if (input.whenUnchosen === 'refuse') {
    throw new GrooveError('SETTINGS_WOULD_DROP', `refusing to drop ${what}; ${inEffect}`, { hint });
  }
  input.onEvent?.({ kind: 'warning', message: `kept ${what}; ${inEffect} (${hint})` });
  return dropped.map((d) => d.relPath);
}

/**
 * The same check against the index at `dbPath` before a `--force` rebuild replaces it (always refusing; a missing
 * or unreadable index has nothing to keep).
 */
export function guardSettingsDropsAt(dbPath: string, input: Omit<SettingsGuardInput, 'whenUnchosen'>): void {
  if (!IndexDatabase.exists(dbPath)) return;
  let database: IndexDatabase;
  try {
    database = IndexDatabase.open(dbPath, { create: false });
  } catch {
    return;
  }
  try {
    guardSettingsDrops(database, { ...input, whenUnchosen: 'refuse' });
  } finally {
    database.close();
  }
}
