// The flags every command may carry, and their mapping to config overrides (the options are in option-groups.ts).
import { withDefaultIndexPath } from '../app/index.js';
import { type ConfigOverrides, type ResolvedConfig, resolveConfig } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import type { CliIo } from './cli-io.js';
import type { FlagsOf } from './command-spec.js';
import type { KB_OPTIONS, MODEL_OPTIONS } from './option-groups.js';

/** The flags loadConfig reads: the KB and model options every command shares, and `--reranker` where one has it. */
export type CommonFlags = FlagsOf<typeof KB_OPTIONS> &
  FlagsOf<typeof MODEL_OPTIONS> &
  Pick<ConfigOverrides, 'reranker'>;

/** The config a command runs with, its index path filled in (groove's own folder for the KB) where none is named. */
export function loadConfig(flags: CommonFlags, io: CliIo): ResolvedConfig {
  const config = resolveConfig({
    configPath: flags.config,
    cwd: io.cwd,
    env: io.env,
    kb: namedKb(flags),
    overrides: {
      kbPath: flags.kbPath,
      dbPath: flags.dbPath,
      model: flags.model,
      modelDir: flags.modelDir,
      pooling: flags.pooling,
      queryPrefix: flags.queryPrefix,
      passagePrefix: flags.passagePrefix,
      reranker: flags.reranker,
      offline: flags.offline,
    },
  });
  return withDefaultIndexPath(config);
}

/** The one KB named with --kb, or undefined; several, or --kb beside --kb-path, are usage errors. */
function namedKb(flags: CommonFlags): string | undefined {
  const names = flags.kb ?? [];
  if (names.length > 1) {
    throw new GrooveError('INVALID_ARGUMENT', `--kb was given ${names.length} times (${names.join(', ')})`, {
      hint: 'this command works on one KB at a time: pass a single --kb NAME',
    });
  }
  if (names.length === 1 && flags.kbPath !== undefined) {
    throw new GrooveError(
      'INVALID_ARGUMENT',
      `--kb ${names[0]} and --kb-path ${flags.kbPath} both name a KB`,
      {
        hint: 'pass one of them: --kb NAME for a registered KB, --kb-path DIR for a folder',
      },
    );
  }
  return names[0];
}

/**
 * One config per `--kb NAME`, each resolved exactly as `loadConfig` resolves a single --kb (its registry entry,
 * its own settings and index). A name given twice is a usage error.
 */
export function loadConfigs(flags: CommonFlags, io: CliIo): { name: string; config: ResolvedConfig }[] {
  const names = flags.kb ?? [];
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) {
    throw new GrooveError('INVALID_ARGUMENT', `--kb ${twice} was given twice`, {
      hint: 'name each KB once',
    });
  }
  return names.map((name) => ({ name, config: loadConfig({ ...flags, kb: [name] }, io) }));
}
