// `groove kb add`, `rename` and `remove`: each reads the registry, checks the change and writes the whole file
// atomically, all under the registry's gate, so two runs at once both land and a reader never sees half a file.
// A registry that does not parse is never rewritten.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expandPath } from '../../config/expand-path.js';
import { grooveFolders, kbDataDir } from '../../config/groove-folders.js';
import {
  checkKbName,
  findKbEntry,
  type KbEntry,
  type KbRegistry,
  overlappingEntry,
  parseKbRegistry,
  readKbRegistry,
  registryFileIn,
} from '../../config/kb-registry.js';
import { PARSER_IDS } from '../../document/document-formats.js';
import { GrooveError } from '../../errors.js';
import { filePorts } from '../adapters.js';
import { checkEmbeddingModelId } from '../embedding/index.js';
import { appendKbTable, type KbTableValues, removeKbTable, renameKbTable } from './kb-registry-text.js';

/** Where a kb command runs: its folder (relative paths) and environment (where the registry is). */
export interface KbCommandContext {
  cwd: string;
  env: Record<string, string | undefined>;
}

export interface AddKbRequest {
  name: string;
  path: string;
  config?: string;
  model?: string;
  parsers?: readonly string[];
}

const NEW_FILE_HEADER =
  '# groove knowledge bases: one [kb.NAME] table each (see docs/kbs.md). Edit by hand or with `groove kb`.\n';

/** The registry file of this environment: `<config folder>/kbs.toml`. */
export function registryPath(context: KbCommandContext): string {
  return registryFileIn(grooveFolders(context.env, os.homedir(), context.cwd).configDir);
}

/** Register a KB; returns its entry as the file now holds it. */
export async function addKb(request: AddKbRequest, context: KbCommandContext): Promise<KbEntry> {
  checkKbName(request.name);
  const values = checkedValues(request, context.cwd);
  const file = registryPath(context);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withRegistry(file, (registry) => {
    if (registry.entries.some((entry) => entry.name === request.name)) {
      throw new GrooveError('KB_CONFLICT', `a KB named "${request.name}" is already registered`, {
        hint: 'pick another name, or `groove kb remove` the old one first',
      });
    }
    const other = overlappingEntry(registry.entries, values.path);
    if (other) {
      throw new GrooveError(
        'KB_CONFLICT',
        `the folder "${values.path}" overlaps the folder "${other.root}" of KB "${other.name}"`,
        { hint: 'a folder may belong to one KB only, and no KB may lie inside another' },
      );
    }
    const text = appendKbTable(registry.text ?? NEW_FILE_HEADER, request.name, values);
    return save(file, text).find((entry) => entry.name === request.name)!;
  });
}

/** Rename a KB: its folder and settings stay as they are; groove's own folder of the KB follows the new name. */
export async function renameKb(
  oldName: string,
  newName: string,
  context: KbCommandContext,
): Promise<KbEntry> {
  checkKbName(newName);
  const file = registryPath(context);
  return withRegistry(file, (registry) => {
    findKbEntry(registry, oldName);
    if (registry.entries.some((entry) => entry.name === newName)) {
      throw new GrooveError('KB_CONFLICT', `a KB named "${newName}" is already registered`, {
        hint: 'pick another name',
      });
    }
    const text = renameKbTable(registry.text ?? '', oldName, newName);
    if (text === null) throw notATable(file, oldName);
    const moved = moveOwnFolder(oldName, newName, context);
    try {
      return save(file, text).find((entry) => entry.name === newName)!;
    } catch (error) {
      moved?.undo();
      throw error;
    }
  });
}

/**
 * A named KB's own folder (its default index, eval history, gate and lock files) is named after the KB: move it to
 * the new name, unless the new name's folder already exists (then both stay, and nothing is lost).
 */
function moveOwnFolder(oldName: string, newName: string, context: KbCommandContext): { undo(): void } | null {
  const folders = grooveFolders(context.env, os.homedir(), context.cwd);
  const from = kbDataDir(folders, { realPath: '', name: oldName });
  const to = kbDataDir(folders, { realPath: '', name: newName });
  if (!fs.existsSync(from) || fs.existsSync(to)) return null;
  fs.renameSync(from, to);
  return { undo: () => fs.renameSync(to, from) };
}

/**
 * Unregister a KB. `beforeWrite` runs under the gate once the entry is found, before the file changes (remove
 * --delete-index checks the index there); the KB's folder is never touched.
 */
export async function unregisterKb<T>(
  name: string,
  context: KbCommandContext,
  beforeWrite: (entry: KbEntry, registry: KbRegistry) => T,
): Promise<{ entry: KbEntry; prepared: T }> {
  const file = registryPath(context);
  return withRegistry(file, (registry) => {
    const entry = findKbEntry(registry, name);
    const prepared = beforeWrite(entry, registry);
    const text = removeKbTable(registry.text ?? '', name);
    if (text === null) throw notATable(file, name);
    save(file, text);
    return { entry, prepared };
  });
}

function withRegistry<T>(file: string, work: (registry: KbRegistry) => T): Promise<T> {
  return filePorts.withGate(file, () => work(readKbRegistry(file)), `the KB registry "${file}"`);
}

/** Check the edited text parses as the registry it should be, then write it atomically. */
function save(file: string, text: string): KbEntry[] {
  let entries: KbEntry[];
  try {
    entries = parseKbRegistry(text, file);
  } catch (cause) {
    throw new GrooveError('INTERNAL', `the edited KB registry would not parse; "${file}" is unchanged`, {
      cause,
      hint: 'edit the file by hand (see docs/kbs.md)',
    });
  }
  filePorts.write(file, text);
  return entries;
}

function notATable(file: string, name: string): GrooveError {
  return new GrooveError(
    'KB_REGISTRY_INVALID',
    `KB "${name}" is not written as a [kb.${name}] table in "${file}", so groove cannot edit it`,
    { hint: 'edit the file by hand, or write the entry as a [kb.NAME] table' },
  );
}

/** The new entry's values as written in the file: paths absolute; the folder and config file must exist. */
function checkedValues(request: AddKbRequest, cwd: string): KbTableValues {
  const root = expandPath(request.path, cwd);
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    throw new GrooveError('KB_NOT_FOUND', `knowledge base "${root}" is not a directory`, {
      hint: 'PATH must be an existing folder of notes',
    });
  }
  const values: KbTableValues = { path: root };
  if (request.config !== undefined) {
    const config = expandPath(request.config, cwd);
    if (!fs.statSync(config, { throwIfNoEntry: false })?.isFile()) {
      throw new GrooveError('CONFIG_NOT_FOUND', `config file "${config}" does not exist`, {
        hint: 'check the --config path',
      });
    }
    values.config = config;
  }
  if (request.model !== undefined) {
    checkEmbeddingModelId(request.model);
    values.model = request.model;
  }
  if (request.parsers !== undefined) values.parsers = checkedParsers(request.parsers);
  return values;
}

function checkedParsers(parsers: readonly string[]): string[] {
  const known: readonly string[] = PARSER_IDS;
  const unknown = parsers.filter((id) => !known.includes(id));
  if (parsers.length === 0 || unknown.length > 0) {
    const what = parsers.length === 0 ? 'no parser' : `unknown parser "${unknown[0]}"`;
    throw new GrooveError('INVALID_ARGUMENT', `--parsers: ${what}`, {
      hint: `a comma-separated list of ${PARSER_IDS.join(', ')}`,
    });
  }
  return [...new Set(parsers)];
}
