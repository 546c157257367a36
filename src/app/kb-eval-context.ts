// What an eval run of one KB, or of a KB set searched as one, reads: the KB's settings with its default golden
// file, its clock and files, the read snapshot, and the history of the KB or of the KB set.
import type { ResolvedConfig } from '../config/resolve-config.js';
import { filePorts } from './adapters.js';
import type { EvalRunContext } from './eval/index.js';
import { crossKbEvalHistoryPathOf, evalHistoryPathOf } from './indexing/index.js';
import type { ReadSnapshot } from './search/index.js';

/** Run work inside one read snapshot (of this KB, or of several KBs searched as one). */
export type WithReadSnapshot = <T>(work: (snapshot: ReadSnapshot) => Promise<T>) => Promise<T>;

export interface EvalOwner {
  kbPath: string;
  /** The KB's settings as they are now (they follow the index's model). */
  settings: ResolvedConfig;
  /** The same settings with the KB's default golden file filled in. */
  goldenSettings: ResolvedConfig;
  now: () => Date;
  withReadSnapshot: WithReadSnapshot;
}

/** The context of a run of this KB (`across` null) or of the KB set `across.names`, read through its snapshot. */
export function evalContextOf(
  owner: EvalOwner,
  across: { names: readonly string[]; withSnapshot: WithReadSnapshot } | null,
): EvalRunContext {
  const { settings, kbPath } = owner;
  return {
    config: owner.goldenSettings,
    kbPath,
    historyPath: () =>
      across ? crossKbEvalHistoryPathOf(settings, across.names) : evalHistoryPathOf(settings, kbPath),
    ...(across ? { kbs: [...across.names] } : {}),
    ports: {
      readFile: filePorts.readFile,
      withSnapshot: across?.withSnapshot ?? owner.withReadSnapshot,
      now: owner.now,
    },
    files: filePorts,
    historySize: settings.eval.historySize,
  };
}
