// The built-in settings, generated from the table of groove.toml keys (config-keys.ts), where each default is
// declared; docs/configuration.md documents each key with its range.
import { type ConfigKey, type SettingsOf, setAt } from './config-key.js';
import { CONFIG_KEYS } from './config-keys.js';

/** Directories skipped whatever `exclude_dirs` says. */
export const ALWAYS_EXCLUDED_DIRS = ['.git', '.svn', 'node_modules'] as const;

export type Defaults = SettingsOf<typeof CONFIG_KEYS>;

/** Every key's built-in value at its settings path; keys without one are left out. */
function defaultsOf(keys: readonly ConfigKey[]): object {
  const defaults = {};
  for (const key of keys) if ('default' in key) setAt(defaults, key.setting, structuredClone(key.default));
  return defaults;
}

/** Built-in settings; resolve-config.ts deep-copies them before merging the file and the CLI on top. */
export const DEFAULTS = defaultsOf(CONFIG_KEYS) as Defaults;
