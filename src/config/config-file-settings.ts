// The settings a validated groove.toml sets, each key's value written to its settings path as the table of keys
// (config-keys.ts) says, and the rules that tie keys together.
import path from 'node:path';
import { extensionsOfParsers } from '../document/document-formats.js';
import { GrooveError } from '../errors.js';
import { type ConfigKey, setAt, valueAt } from './config-key.js';
import { CONFIG_KEYS } from './config-keys.js';
import type { Defaults } from './defaults.js';
import type { ConfigFile } from './schema.js';

/** The part of the resolved configuration a config file sets. */
export interface FileSettingsTarget extends Defaults {
  kbPath: string | null;
  dbPath: string | null;
  modelCacheDir: string | null;
  modelExplicit: boolean;
}

/** Copy every key the file sets onto `config`; relative paths are taken against the file's folder. */
export function applyFileSettings(config: FileSettingsTarget, file: ConfigFile, filePath: string): void {
  const baseDir = path.dirname(filePath);
  for (const key of CONFIG_KEYS as readonly ConfigKey[]) {
    if (key.toml === null) continue;
    const value = valueAt(file, key.toml);
    if (value !== undefined) setAt(config, key.setting, key.read ? key.read(value as never, baseDir) : value);
  }
  if (file.model !== undefined || file.embedding?.provider !== undefined) config.modelExplicit = true;
  config.parsers.extensions = extensionsOfParsers(config.parsers.enabled, config.parsers.codeLanguages);
  checkParentRetriever(config, filePath);
}

/** An expanded hit must be able to hold more than a document returned whole. */
function checkParentRetriever(config: FileSettingsTarget, filePath: string): void {
  const pr = config.search.parentRetriever;
  if (pr.maxExpandedTokens <= pr.wholeDocThresholdTokens) {
    throw new GrooveError(
      'CONFIG_INVALID',
      `config "${filePath}": [search.parent_retriever] max_expanded_tokens (${pr.maxExpandedTokens}) must be greater than whole_doc_threshold_tokens (${pr.wholeDocThresholdTokens})`,
      { hint: 'raise max_expanded_tokens or lower whole_doc_threshold_tokens' },
    );
  }
}
