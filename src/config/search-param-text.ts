// How a search parameter's bounds and default read, in the one wording the CLI help, the MCP schema
// descriptions and the docs share.
import type { SearchParam } from './search-params.js';

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The groove.toml key of a DEFAULTS path: `search.mmr.lambda` → `[search.mmr] lambda`. */
export function configKey(configPath: string): string {
  const parts = configPath.split('.').map(snakeCase);
  const key = parts.pop()!;
  return parts.length === 0 ? key : `[${parts.join('.')}] ${key}`;
}

/** The allowed values, e.g. `1-1000`, `0 or more`, `at most 1024 bytes`; empty when anything goes. */
export function rangeText(param: SearchParam): string {
  switch (param.type) {
    case 'integer':
    case 'number':
      if (param.min !== undefined && param.max !== undefined) return `${param.min}-${param.max}`;
      if (param.min !== undefined) return `${param.min} or more`;
      return param.max === undefined ? '' : `${param.max} or less`;
    case 'string':
      return param.maxBytes === undefined ? '' : `at most ${param.maxBytes} bytes`;
    case 'stringList':
      return `${entryCount(param)} of at most ${param.maxBytes} bytes each`;
    case 'date':
      return 'a calendar date YYYY-MM-DD';
    case 'choice':
      return `one of ${(param.values ?? []).join(', ')}`;
    case 'boolean':
      return '';
  }
}

function entryCount(param: SearchParam): string {
  const noun = `${param.entry ?? 'entry'}s`;
  const min = param.minEntries ?? 0;
  return min > 0 ? `${min}-${param.maxEntries} ${noun}` : `at most ${param.maxEntries} ${noun}`;
}

/** `default 5, from [search] limit`; empty for a parameter that has no default (off, or no filter). */
export function defaultText(param: SearchParam): string {
  const source = param.default;
  return source === undefined ? '' : `default ${source.value}, from ${configKey(source.configPath)}`;
}

/** The description followed by its bounds and default: the text of `--help` and of the MCP schema. */
export function paramHelp(param: SearchParam): string {
  const facts = [rangeText(param), defaultText(param)].filter((text) => text !== '');
  return facts.length === 0 ? param.description : `${param.description} (${facts.join('; ')})`;
}
