// The setup and cleanup around a command that works on one knowledge base: resolve its config from the flags,
// open the facade, run the command's work on it, and close it whatever happens. The app is imported only here,
// when the command opens a KB, so a search a running server answers never loads it.
import type { KnowledgeBase } from '../app/index.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { CliIo } from './cli-io.js';
import { type CommonFlags, loadConfig } from './common-options.js';

/** `read`: the command only reads (on a shared store it reads through the working copy); `write`: it may write. */
export type KbMode = 'read' | 'write';

export function withKnowledgeBase<T>(
  flags: CommonFlags,
  io: CliIo,
  mode: KbMode,
  work: (kb: KnowledgeBase, config: ResolvedConfig) => Promise<T>,
): Promise<T> {
  return withConfiguredKnowledgeBase(loadConfig(flags, io), mode, work);
}

/** The same around a config the command already resolved (search and status ask a running server first). */
export async function withConfiguredKnowledgeBase<T>(
  config: ResolvedConfig,
  mode: KbMode,
  work: (kb: KnowledgeBase, config: ResolvedConfig) => Promise<T>,
): Promise<T> {
  const { openKnowledgeBase } = await import('../app/index.js');
  const kb = openKnowledgeBase(config, mode === 'read' ? { readOnly: true } : {});
  try {
    return await work(kb, config);
  } finally {
    await kb.close();
  }
}
