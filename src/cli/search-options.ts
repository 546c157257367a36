// `groove search`'s parameter options, generated from the search parameter table, and the request built
// from the parsed flags. Commander is given no defaults: an absent flag stays undefined, so the config's
// value applies.
import { type Command, Option } from 'commander';
import { paramHelp, SEARCH_PARAMS, type SearchParam, type SearchRequest } from '../app/index.js';
import { GrooveError } from '../errors.js';

/** The flag's help: the shared text, then how the command line takes a list. */
export function cliHelp(param: SearchParam): string {
  const text = paramHelp(param);
  if (param.cli.kind !== 'option' || param.cli.list === undefined) return text;
  return `${text} [${param.cli.list === 'repeat' ? 'repeatable' : 'comma-separated'}]`;
}

function parseNumber(flag: string) {
  return (value: string): number => {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) {
      throw new GrooveError('INVALID_ARGUMENT', `${flag} "${value}" is not a finite number`);
    }
    return number;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];
const splitList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

type OptionForm = Extract<SearchParam['cli'], { kind: 'option' }>;

function optionOf(param: SearchParam, cli: OptionForm): Option {
  const option = new Option(cli.value === undefined ? cli.flag : `${cli.flag} ${cli.value}`, cliHelp(param));
  if (param.type === 'integer' || param.type === 'number') return option.argParser(parseNumber(cli.flag));
  if (cli.list === 'repeat') return option.argParser(collect);
  if (cli.list === 'comma') return option.argParser(splitList);
  return option;
}

/** Declare the query argument and every parameter's flag (and `--no-` form) on `groove search`. */
export function addSearchParamOptions(command: Command): Command {
  for (const param of SEARCH_PARAMS as readonly SearchParam[]) {
    const cli = param.cli;
    if (cli.kind === 'argument') {
      command.argument(cli.value, cliHelp(param));
      continue;
    }
    command.addOption(optionOf(param, cli));
    if (cli.negation !== undefined) command.addOption(new Option(`--no-${cli.flag.slice(2)}`, cli.negation));
  }
  return command;
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
