// Commands that work on several registered KBs at once (`groove search --kb a --kb b`, `groove status --kb a
// --kb b`): each KB's config, resolved exactly as `--kb NAME` alone resolves it, so every KB keeps its own folder,
// index and settings (loadConfigs, which refuses a name given twice). One --kb (or --kb-path, or neither) is left
// to loadConfig.
import type { ResolvedConfig } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import type { CliIo } from './cli-io.js';
import { type CommonFlags, loadConfigs } from './common-options.js';

/** A registered KB of a several-KB command: its name (what its hits and blocks are labelled with) and config. */
export interface SearchTarget {
  name: string;
  config: ResolvedConfig;
}

/**
 * The KBs named by two or more `--kb NAME` flags, in the order given; null when fewer are named (the command
 * then runs on one KB through loadConfig). Refused: a name given twice, and --kb-path or --db-path beside them
 * (one folder or one index file cannot stand for several KBs).
 */
export function loadSearchTargets(flags: CommonFlags, io: CliIo): SearchTarget[] | null {
  const names = flags.kb ?? [];
  if (names.length < 2) return null;
  for (const [flag, value] of [
    ['--kb-path', flags.kbPath],
    ['--db-path', flags.dbPath],
  ] as const) {
    if (value !== undefined) {
      throw new GrooveError('INVALID_ARGUMENT', `${flag} ${value} cannot be used with several --kb`, {
        hint: `drop ${flag}: each registered KB has its own folder and index`,
      });
    }
  }
  return loadConfigs(flags, io);
}
