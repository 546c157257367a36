// The groove.toml reference of docs/configuration.md, rendered from the table of keys, and the splice that
// puts it between its marker comments.
import { MIB } from '../src/config/byte-size.js';
import type { ConfigKey, ValueSpec } from '../src/config/config-key.js';
import { CONFIG_KEYS } from '../src/config/config-keys.js';
import { configKey } from '../src/config/search-param-text.js';

export const CONFIG_SECTION_START =
  '<!-- config-keys:start (generated from src/config/config-keys.ts by `npx tsx scripts/gen-config-doc.ts`; do not edit by hand) -->';
export const CONFIG_SECTION_END = '<!-- config-keys:end -->';

const code = (text: string) => `\`${text}\``;
const SIZE_UNITS = 'a byte count, or a string with `B KB MB GB KiB MiB GiB`';

function boundsText(min: number | undefined, max: number | undefined, unit: string): string {
  if (min !== undefined && max !== undefined) return `${min}–${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  return max === undefined ? '' : `at most ${max}${unit}`;
}

function stringRange(spec: ValueSpec): string {
  if (spec.pattern !== undefined) return spec.pattern.message.replace(/^must be /, '');
  const length =
    spec.min === 1 && spec.max === undefined ? '' : boundsText(spec.min, spec.max, ' characters');
  const contains = spec.contains === undefined ? '' : `containing ${code(spec.contains.text)}`;
  return [length, contains].filter((text) => text !== '').join(', ');
}

function listRange(spec: ValueSpec): string {
  const entry = spec.entry!;
  const count = boundsText(spec.min, spec.max, '');
  if (entry.type === 'choice') return `${count} of ${(entry.values ?? []).map(code).join(', ')}`;
  const each = rangeOf(entry);
  return [count === '' ? '' : `${count} entries`, each === '' ? '' : `each ${each}`]
    .filter((text) => text !== '')
    .join(', ');
}

/** The values a key takes, in words; empty where the type says it all. */
function rangeOf(spec: ValueSpec): string {
  switch (spec.type) {
    case 'integer':
    case 'number':
      return boundsText(spec.min, spec.max, '');
    case 'string':
      return stringRange(spec);
    case 'size':
      return SIZE_UNITS;
    case 'choice':
      return `one of ${(spec.values ?? []).map(code).join(', ')}`;
    case 'url':
      return 'a URL';
    case 'list':
      return listRange(spec);
    case 'boolean':
      return '';
  }
}

function tomlValue(value: unknown, type: ValueSpec['type']): string {
  if (Array.isArray(value)) return `[${value.map((v) => tomlValue(v, 'string')).join(', ')}]`;
  if (type === 'size' && typeof value === 'number' && value % MIB === 0) return `"${value / MIB}MiB"`;
  return typeof value === 'string' ? `"${value}"` : String(value);
}

function defaultCell(key: ConfigKey): string {
  if (key.docDefault !== undefined) return key.docDefault;
  return key.default === undefined || key.default === null ? '—' : code(tomlValue(key.default, key.type));
}

function row(key: ConfigKey & { toml: string }): string {
  const range = rangeOf(key);
  return `| ${[code(configKey(key.toml)), defaultCell(key), range === '' ? '—' : range, key.description].join(' | ')} |`;
}

/** The section's lines between (and including) the markers. */
export function renderConfigSection(): string {
  const keys = (CONFIG_KEYS as readonly ConfigKey[]).filter((key): key is ConfigKey & { toml: string } =>
    Boolean(key.toml),
  );
  return [
    CONFIG_SECTION_START,
    '| key | default | range | meaning |',
    '|---|---|---|---|',
    ...keys.map(row),
    CONFIG_SECTION_END,
  ].join('\n');
}

/** `doc` with the text between the markers replaced by a freshly rendered section. */
export function spliceConfigSection(doc: string): string {
  const start = doc.indexOf(CONFIG_SECTION_START);
  const end = doc.indexOf(CONFIG_SECTION_END);
  if (start < 0 || end < start) throw new Error('the config key markers are missing from the document');
  return doc.slice(0, start) + renderConfigSection() + doc.slice(end + CONFIG_SECTION_END.length);
}
