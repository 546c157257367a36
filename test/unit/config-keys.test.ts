// The table of groove.toml keys: paths and settings are unique and spelt from one another, DEFAULTS holds each
// key's default at its settings path, a file writing every default resolves to the built-in settings, and the
// key reference in docs/configuration.md is exactly what the generator renders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { CONFIG_SECTION_END, CONFIG_SECTION_START, renderConfigSection } from '../../scripts/config-doc.js';
import { type ConfigKey, setAt, valueAt } from '../../src/config/config-key.js';
import { CONFIG_KEYS } from '../../src/config/config-keys.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { resolveConfig } from '../../src/config/resolve-config.js';

const KEYS = CONFIG_KEYS as readonly ConfigKey[];
const FILE_KEYS = KEYS.filter((key): key is ConfigKey & { toml: string } => key.toml !== null);
const camelCase = (text: string) => text.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

describe('the table of groove.toml keys', () => {
  it('declares each TOML path and each setting once', () => {
    expect(new Set(FILE_KEYS.map((key) => key.toml)).size).toBe(FILE_KEYS.length);
    expect(new Set(KEYS.map((key) => key.setting)).size).toBe(KEYS.length);
  });

  it('sets the camelCase of the TOML path unless a key names another setting', () => {
    const renamed = FILE_KEYS.filter((key) => key.setting !== camelCase(key.toml)).map((key) => key.toml);
    expect(renamed).toEqual([
      'model_dir',
      'index.max_file_size',
      'parsers.max_decompressed_size',
      'parsers.max_memory',
      'parsers.code.languages',
    ]);
  });

  it('puts every default at its settings path in DEFAULTS, and nothing else', () => {
    const withDefault = KEYS.filter((key) => 'default' in key);
    for (const key of withDefault) expect(valueAt(DEFAULTS, key.setting), key.setting).toEqual(key.default);
    const rebuilt = {};
    for (const key of withDefault) setAt(rebuilt, key.setting, key.default);
    expect(rebuilt).toEqual(DEFAULTS);
  });

  it('resolves a file that writes every default to the built-in settings', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-keys-'));
    try {
      const file = {};
      for (const key of FILE_KEYS) {
        if (key.default !== undefined && key.default !== null) setAt(file, key.toml, key.default);
      }
      const configPath = path.join(root, 'groove.toml');
      fs.writeFileSync(configPath, stringify(file));
      const config = resolveConfig({ configPath, cwd: root, env: { GROOVE_HOME: path.join(root, 'home') } });
      for (const key of KEYS.filter((k) => 'default' in k)) {
        expect(valueAt(config, key.setting), key.setting).toEqual(key.default);
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('is what the key reference in docs/configuration.md shows', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/configuration.md'), 'utf8');
    const start = doc.indexOf(CONFIG_SECTION_START);
    const end = doc.indexOf(CONFIG_SECTION_END) + CONFIG_SECTION_END.length;
    expect(start).toBeGreaterThan(0);
    expect(doc.slice(start, end)).toBe(renderConfigSection());
  });
});
