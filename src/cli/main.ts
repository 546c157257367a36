// The CLI entry: builds the command tree from the command specs (commands.ts), runs one command, and turns
// errors into exit codes and one-line messages. Only the module of the command that runs is imported.
import { Command, CommanderError } from 'commander';
import { describeError, isGrooveError, isUsageError, underlyingCause } from '../errors.js';
import { type CliIo, EXIT } from './cli-io.js';
import { buildCommand, type CommandSpec } from './command-spec.js';
import { COMMANDS } from './commands.js';

export const VERSION = '0.1.0';

/** Run `groove <argv…>` in-process; returns the exit code. Never calls process.exit. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const setExit = (code: number) => {
    exitCode = code;
  };
  const program = new Command('groove')
    .description('Local-first knowledge-base search: hybrid retrieval over MCP and a CLI, measured honestly.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    // Options after a subcommand belong to it (`groove eval golden stamp --golden x` is stamp's --golden).
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  const context = { io, version: VERSION, setExit };
  for (const spec of commandsToBuild(argv)) program.addCommand(buildCommand(spec, context));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportError(error, io);
  }
}

/**
 * A run builds only the command it names first (building every command's options costs milliseconds a one-shot
 * search should not pay); anything else — no command, --help, --version, `help`, a mistyped name that commander
 * answers with the nearest one — gets the whole tree.
 */
function commandsToBuild(argv: string[]): readonly CommandSpec[] {
  const named = COMMANDS.find((spec) => spec.name === argv[0]);
  return named ? [named] : COMMANDS;
}

/** GROOVE_DEBUG: a bug's stack, or the low-level code behind one of groove's errors (SQLITE_FULL, ENOSPC…). */
function writeDebugDetail(error: unknown, io: CliIo): void {
  if (!isGrooveError(error)) {
    if (error instanceof Error) io.stderr.write(`${error.stack}\n`);
    return;
  }
  const cause = underlyingCause(error);
  if (cause !== null) io.stderr.write(`groove: debug: caused by ${cause}\n`);
}

function reportError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    // --help and --version end with a CommanderError too, successfully.
    if (error.exitCode === 0) return EXIT.ok;
    return EXIT.usage;
  }
  io.stderr.write(`groove: error: ${describeError(error)}\n`);
  if (io.env.GROOVE_DEBUG) writeDebugDetail(error, io);
  // The command line itself asked for something impossible: exit 2, like a bad flag.
  if (isUsageError(error)) return EXIT.usage;
  // Refusals to measure: a leg is down, or the golden set is too old for the corpus.
  if (isGrooveError(error) && (error.code === 'COMPONENT_DOWN' || error.code === 'GOLDEN_STALE')) {
    return EXIT.componentDown;
  }
  return EXIT.failure;
}
