// `groove search`'s query argument and parameter options, generated from the search parameter table as option
// data, and the request built from the parsed flags. No option has a default: an absent flag stays undefined,
// so the config's value applies.
import { Option } from 'commander';
import { paramHelp } from '../config/search-param-text.js';
import { SEARCH_PARAMS, type SearchParam, type SearchRequest } from '../config/search-params.js';
import type { OptionSpec } from './command-spec.js';
import { collect, parseFiniteNumber } from './flag-parsers.js';

/** The flag's help: the shared text, then how the command line takes a list. */
export function cliHelp(param: SearchParam): string {
  const text = paramHelp(param);
  if (param.cli.kind !== 'option' || param.cli.list === undefined) return text;
  return `${text} [${param.cli.list === 'repeat' ? 'repeatable' : 'comma-separated'}]`;
}

const splitList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

type OptionForm = Extract<SearchParam['cli'], { kind: 'option' }>;

function optionOf(param: SearchParam, cli: OptionForm): OptionSpec {
  const flags = cli.value === undefined ? cli.flag : `${cli.flag} ${cli.value}`;
  const description = cliHelp(param);
  if (param.type === 'integer' || param.type === 'number')
    return { flags, description, parse: parseFiniteNumber('search', cli.flag) };
  if (cli.list === 'repeat') return { flags, description, parse: collect as OptionSpec['parse'] };
  if (cli.list === 'comma') return { flags, description, parse: splitList };
  return { flags, description };
}

/** The query argument of `groove search`, from the table. */
export function searchArgument(): { syntax: string; description: string } {
  const param = (SEARCH_PARAMS as readonly SearchParam[]).find((p) => p.cli.kind === 'argument')!;
  return { syntax: (param.cli as { value: string }).value, description: cliHelp(param) };
}

/** Every parameter's flag (and its `--no-` form), in table order. */
export function searchParamOptions(): OptionSpec[] {
  const options: OptionSpec[] = [];
  for (const param of SEARCH_PARAMS as readonly SearchParam[]) {
    const cli = param.cli;
    if (cli.kind !== 'option') continue;
    options.push(optionOf(param, cli));
    if (cli.negation !== undefined)
      options.push({ flags: `--no-${cli.flag.slice(2)}`, description: cli.negation });
  }
  return options;
}

/** The search request of the query and the parsed flags; flags not given are left out. */
export function searchRequestFromFlags(query: string, flags: Record<string, unknown>): SearchRequest {
  const request: Record<string, unknown> = { query };
  for (const param of SEARCH_PARAMS as readonly SearchParam[]) {
    if (param.cli.kind !== 'option') continue;
    const value = flags[new Option(param.cli.flag).attributeName()];
    if (value !== undefined) request[param.name] = value;
  }
  return request as SearchRequest;
}
