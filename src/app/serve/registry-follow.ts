// A server of several registered KBs follows the KB registry (kbs.toml): a KB it serves that is no longer
// registered (`groove kb remove`, or renamed with `groove kb rename`) is served no more — listed as "removed",
// its live sync stopped and its index closed — while the other KBs keep serving. The file is polled by its
// stat, so a rewrite by rename is seen like an edit; a registry that does not read (a hand edit half done)
// changes nothing until it reads again.
import fs from 'node:fs';
import { readKbRegistry } from '../../config/kb-registry.js';
import { describeError } from '../../errors.js';
import type { ServedKbs, ServingKb } from './served-kbs.js';

export const REGISTRY_POLL_MS = 500;

export interface RegistryFollower {
  close(): void;
}

export function followRegistry(options: {
  file: string;
  served: ServedKbs;
  /** Called once for each serving KB that was unregistered, after it is listed as removed; closes it. */
  stopServing: (entry: ServingKb) => Promise<void>;
  log: (line: string) => void;
  intervalMs?: number;
}): RegistryFollower {
  const { file, served, log } = options;
  let checking: Promise<void> = Promise.resolve();
  let lastProblem: string | null = null;
  const check = async () => {
    let registered: Set<string>;
    try {
      registered = new Set(readKbRegistry(file).entries.map((entry) => entry.name));
      lastProblem = null;
    } catch (error) {
      const problem = describeError(error);
      if (problem !== lastProblem) log(`the KB registry does not read, serving on unchanged: ${problem}`);
      lastProblem = problem;
      return;
    }
    for (const entry of served.entries) {
      if (entry.state === 'removed' || registered.has(entry.name)) continue;
      const serving = served.markRemoved(entry.name);
      log(`${entry.name}: no longer served: it was removed from the KB registry`);
      if (serving) {
        try {
          await options.stopServing(serving);
          log(`${entry.name}: index closed`);
        } catch (error) {
          log(`${entry.name}: closing its index failed: ${describeError(error)}`);
        }
      }
    }
  };
  const listener = () => {
    checking = checking.then(check);
  };
  fs.watchFile(file, { interval: options.intervalMs ?? REGISTRY_POLL_MS, persistent: false }, listener);
  return {
    close: () => fs.unwatchFile(file, listener),
  };
}
