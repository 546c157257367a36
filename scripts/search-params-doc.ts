// The "Search parameters" section of docs/configuration.md, rendered from the search parameter table, and
// the splice that puts it between the section's marker comments.
import { configKey, rangeText } from '../src/config/search-param-text.js';
import { SEARCH_PARAMS, type SearchParam } from '../src/config/search-params.js';

export const SECTION_START =
  '<!-- search-params:start (generated from src/config/search-params.ts by `npx tsx scripts/gen-search-params-doc.ts`; do not edit by hand) -->';
export const SECTION_END = '<!-- search-params:end -->';

const TYPE_NAMES: Record<SearchParam['type'], string> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  stringList: 'list of strings',
  date: 'date',
  choice: 'choice',
};

const code = (text: string) => `\`${text}\``;
const orDash = (text: string) => (text === '' ? '—' : text);

function cliCell(param: SearchParam): string {
  const cli = param.cli;
  if (cli.kind === 'argument') return code(cli.value);
  const main = code(cli.value === undefined ? cli.flag : `${cli.flag} ${cli.value}`);
  const list = cli.list === undefined ? '' : cli.list === 'repeat' ? ' (repeatable)' : ' (comma-separated)';
  return cli.negation === undefined ? `${main}${list}` : `${main}, ${code(`--no-${cli.flag.slice(2)}`)}`;
}

function row(param: SearchParam): string {
  const cells = [
    code(param.wire),
    code(param.name),
    cliCell(param),
    TYPE_NAMES[param.type],
    param.default === undefined ? '—' : code(String(param.default.value)),
    param.default === undefined ? '—' : code(configKey(param.default.configPath)),
    orDash(rangeText(param)),
    param.description,
  ];
  return `| ${cells.join(' | ')} |`;
}

/** The section's lines between (and including) the markers. */
export function renderSearchParamsSection(): string {
  return [
    SECTION_START,
    '| MCP / JSON | library | CLI | type | default | set in groove.toml by | range | description |',
    '|---|---|---|---|---|---|---|---|',
    ...(SEARCH_PARAMS as readonly SearchParam[]).map(row),
    SECTION_END,
  ].join('\n');
}

/** `doc` with the text between the markers replaced by a freshly rendered section. */
export function spliceSearchParamsSection(doc: string): string {
  const start = doc.indexOf(SECTION_START);
  const end = doc.indexOf(SECTION_END);
  if (start < 0 || end < start) throw new Error('the search parameter markers are missing from the document');
  return doc.slice(0, start) + renderSearchParamsSection() + doc.slice(end + SECTION_END.length);
}
