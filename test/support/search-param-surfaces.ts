// Reads the search parameters back out of the three places that show them — `groove search --help`, the MCP
// `search` tool's JSON schema and the docs table — and lists where any of them disagrees with the table.
// Test-only.
import { configKey, rangeText } from '../../src/config/search-param-text.js';
import { SEARCH_PARAMS, type SearchParam } from '../../src/config/search-params.js';
import { SEARCH_SERVER_ARGUMENTS } from '../../src/mcp/tool-schemas.js';

/** What a surface says about one parameter. */
export interface ParamFacts {
  description: string;
  range: string;
  defaultValue: string;
  defaultFrom: string;
}

export type Surface = Map<string, ParamFacts>;

export const PARAMS = SEARCH_PARAMS as readonly SearchParam[];

/** What the table says, in the words every surface must use. */
export function expectedFacts(): Surface {
  return new Map(
    PARAMS.map((p) => [
      p.wire,
      {
        description: p.description,
        range: rangeText(p),
        defaultValue: p.default === undefined ? '' : String(p.default.value),
        defaultFrom: p.default === undefined ? '' : configKey(p.default.configPath),
      },
    ]),
  );
}

/** `description (range; default V, from KEY)` split into its parts; no parenthesis at the end = no facts. */
export function splitHelpText(text: string): ParamFacts {
  const facts: ParamFacts = { description: text, range: '', defaultValue: '', defaultFrom: '' };
  if (!text.endsWith(')')) return facts;
  let depth = 0;
  let open = text.length - 1;
  for (; open >= 0; open--) {
    if (text[open] === ')') depth++;
    if (text[open] === '(' && --depth === 0) break;
  }
  facts.description = text.slice(0, open).trimEnd();
  for (const part of text.slice(open + 1, -1).split('; ')) {
    const source = /^default (.+), from (.+)$/.exec(part);
    if (source) {
      facts.defaultValue = source[1]!;
      facts.defaultFrom = source[2]!;
    } else facts.range = part;
  }
  return facts;
}

/** Commander's help as term → text, wrapped lines joined (`--limit <n>` is filed under `--limit`). */
export function helpEntries(help: string): Map<string, string> {
  const entries = new Map<string, string>();
  let current: string | null = null;
  for (const line of help.split('\n')) {
    const entry = /^ {2}(\S.*?) {2,}(\S.*)$/.exec(line);
    const more = /^ {4,}(\S.*)$/.exec(line);
    if (entry) {
      current = entry[1]!.split(' ')[0]!;
      entries.set(current, entry[2]!);
    } else if (more && current) entries.set(current, `${entries.get(current)} ${more[1]}`);
    else current = null;
  }
  return entries;
}

/** Each parameter as `groove search --help` shows it, under its wire name; the list-form note is dropped. */
export function helpSurface(help: string): Surface {
  const entries = helpEntries(help);
  const surface: Surface = new Map();
  for (const p of PARAMS) {
    const term = p.cli.kind === 'argument' ? p.cli.value.replace(/[<>]/g, '') : p.cli.flag;
    const text = entries.get(term);
    if (text !== undefined)
      surface.set(p.wire, splitHelpText(text.replace(/ \[(repeatable|comma-separated)\]$/, '')));
  }
  return surface;
}

interface JsonProperty {
  description?: string;
}

/** Each property of the MCP tool's input schema, by its (wire) name; the server's own arguments left out. */
export function mcpSurface(schema: { properties?: Record<string, unknown> }): Surface {
  const server: readonly string[] = SEARCH_SERVER_ARGUMENTS;
  const entries = (Object.entries(schema.properties ?? {}) as [string, JsonProperty][]).filter(
    ([wire]) => !server.includes(wire),
  );
  return new Map(entries.map(([wire, property]) => [wire, splitHelpText(property.description ?? '')]));
}

/** The rows of the docs section between its markers, by the first column (the wire name). */
export function docsSurface(doc: string, start: string, end: string): Surface {
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) return new Map();
  const plain = (cell: string) => (cell === '—' ? '' : cell.replace(/^`(.*)`$/, '$1'));
  const rows = doc
    .slice(from + start.length, to)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return new Map(
    rows.map((line) => {
      const cells = line.slice(2, -2).split(' | ');
      const [wire, , , , defaultValue, defaultFrom, range, description] = cells.map((c) => c.trim());
      return [
        plain(wire ?? ''),
        {
          description: description ?? '',
          range: plain(range ?? ''),
          defaultValue: plain(defaultValue ?? ''),
          defaultFrom: plain(defaultFrom ?? ''),
        },
      ];
    }),
  );
}

/** Every disagreement of the surfaces with the table: a parameter missing or extra, or a fact that differs. */
export function surfaceMismatches(expected: Surface, surfaces: Record<string, Surface>): string[] {
  const found: string[] = [];
  for (const [surfaceName, surface] of Object.entries(surfaces)) {
    for (const [wire, want] of expected) {
      const got = surface.get(wire);
      if (!got) {
        found.push(`${surfaceName}: ${wire} is missing`);
        continue;
      }
      for (const field of Object.keys(want) as (keyof ParamFacts)[]) {
        if (got[field] !== want[field]) {
          found.push(`${surfaceName}: ${wire} ${field} is "${got[field]}", the table says "${want[field]}"`);
        }
      }
    }
    for (const wire of surface.keys()) {
      if (!expected.has(wire)) found.push(`${surfaceName}: ${wire} is not in the table`);
    }
  }
  return found;
}
