// A command as data: its name, arguments, options and help, and a lazily imported module that runs it and
// returns the exit code. buildCommand turns a spec into a commander command; the module is imported only when
// that command runs, so `groove status` never loads what `groove serve` needs.
import { Command, Option } from 'commander';
import type { CliIo } from './cli-io.js';

/** One option: commander's flag syntax (`--limit <n>`, `--rerank`, `--no-rerank`, `--mmr [bool]`). */
export interface OptionSpec {
  flags: string;
  description: string;
  /** Turns the text into the value (and refuses a bad one); for a repeatable flag it also gets the previous value. */
  parse?(value: string, previous: unknown): unknown;
  choices?: readonly string[];
  default?: unknown;
}

/** The name commander stores an option under: `--kb-path <dir>` → `kbPath`, `--no-history` → `history`. */
type AttributeName<Flags extends string> = Flags extends `--no-${infer Rest}`
  ? CamelCase<FirstWord<Rest>>
  : Flags extends `--${infer Rest}`
    ? CamelCase<FirstWord<Rest>>
    : never;
type FirstWord<Text extends string> = Text extends `${infer Word} ${string}` ? Word : Text;
type CamelCase<Text extends string> = Text extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Text;

/** An option's parsed value: what `parse` returns, else one of `choices`, else the text of a `<value>`, else a switch. */
type OptionValue<Option extends OptionSpec> = Option extends {
  parse(value: string, previous: never): infer Value;
}
  ? Value
  : Option extends { choices: readonly (infer Choice)[] }
    ? Choice
    : Option['flags'] extends `${string}<${string}>`
      ? string
      : boolean;

/** The names of the options that are not a `--no-` form. */
type PositiveNames<Option extends OptionSpec> = Option extends { flags: `--no-${string}` }
  ? never
  : AttributeName<Option['flags']>;

/** Commander always sets an option with a default, and a `--no-x` declared without its `--x` (true until given). */
type AlwaysSet<Option extends OptionSpec, All extends OptionSpec> = Option extends { default: unknown }
  ? true
  : Option extends { flags: `--no-${string}` }
    ? AttributeName<Option['flags']> extends PositiveNames<All>
      ? false
      : true
    : false;

/**
 * The flags commander parses from a command's options, typed from the option data itself (declared `as const`):
 * the option's attribute name, its value, and whether it is always present.
 */
export type FlagsOf<Options extends readonly OptionSpec[]> = {
  [Option in Options[number] as AlwaysSet<Option, Options[number]> extends true
    ? AttributeName<Option['flags']>
    : never]: OptionValue<Option>;
} & {
  [Option in Options[number] as AlwaysSet<Option, Options[number]> extends true
    ? never
    : AttributeName<Option['flags']>]?: OptionValue<Option>;
};

/** What a command's module gets: the parsed flags, the positional arguments, the io and the CLI's version. */
export interface RunContext<Flags> {
  flags: Flags;
  args: string[];
  io: CliIo;
  version: string;
}

export interface CommandModule {
  run(context: RunContext<never>): Promise<number>;
}

/** One positional argument: `<name>` (required) or `[name]` (optional). */
export interface ArgumentSpec {
  syntax: string;
  description: string;
}

export interface CommandSpec {
  name: string;
  description: string;
  /** The positional argument, or several in order. */
  argument?: ArgumentSpec | readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  /** Text after the option list (examples, exit codes). */
  help?: string;
  /** Options after a subcommand belong to it (`groove eval golden stamp --golden x` is stamp's --golden). */
  positionalOptions?: boolean;
  subcommands?: readonly CommandSpec[];
  /** The module that runs the command; absent for a command that only groups subcommands. */
  load?: () => Promise<CommandModule>;
}

export interface BuildContext {
  io: CliIo;
  version: string;
  setExit(code: number): void;
}

export function buildCommand(spec: CommandSpec, context: BuildContext): Command {
  const { io } = context;
  const command = new Command(spec.name).description(spec.description);
  if (spec.positionalOptions) command.enablePositionalOptions();
  const positional: readonly ArgumentSpec[] = spec.argument === undefined ? [] : [spec.argument].flat();
  for (const argument of positional) command.argument(argument.syntax, argument.description);
  for (const option of spec.options ?? []) command.addOption(toOption(option));
  if (spec.help) command.addHelpText('after', spec.help);
  for (const sub of spec.subcommands ?? []) command.addCommand(buildCommand(sub, context));
  command
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  const load = spec.load;
  if (load) {
    command.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const module = await load();
      const args = self.processedArgs as string[];
      context.setExit(await module.run({ flags: self.opts() as never, args, io, version: context.version }));
    });
  }
  return command;
}

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  const parse = spec.parse;
  if (parse) option.argParser((value: string, previous: unknown) => parse(value, previous));
  if (spec.choices) option.choices(spec.choices);
  if (spec.default !== undefined) option.default(spec.default);
  return option;
}
