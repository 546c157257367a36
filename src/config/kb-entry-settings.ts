// What a registry entry sets on the configuration: its folder and name, and the model, parsers and index path
// it names (each one over its config file's value).
import { extensionsOfParsers } from '../document/document-formats.js';
import type { Defaults } from './defaults.js';
import type { KbEntry } from './kb-registry.js';

/** The part of the resolved configuration a KB entry sets. */
export interface KbEntryTarget extends Pick<Defaults, 'model' | 'parsers'> {
  kbPath: string | null;
  kbName: string | null;
  dbPath: string | null;
  modelExplicit: boolean;
}

export function applyKbEntry(config: KbEntryTarget, entry: KbEntry): void {
  config.kbPath = entry.root;
  config.kbName = entry.name;
  if (entry.dbPath !== null) config.dbPath = entry.dbPath;
  if (entry.model !== null) {
    config.model = entry.model;
    config.modelExplicit = true;
  }
  if (entry.parsers !== null) {
    config.parsers.enabled = [...entry.parsers];
    config.parsers.extensions = extensionsOfParsers(config.parsers.enabled, config.parsers.codeLanguages);
  }
}
