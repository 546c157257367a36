// Open the KBs of a several-KB command (kb-configs.ts) read-only, run `work` on them, and close every one opened,
// also when opening a later one fails.
import type { KnowledgeBase } from '../app/index.js';
import type { SearchTarget } from './kb-configs.js';

export async function withOpenTargets<T>(
  targets: readonly SearchTarget[],
  work: (opened: { kb: KnowledgeBase; name: string }[]) => Promise<T>,
): Promise<T> {
  const { openKnowledgeBase } = await import('../app/index.js');
  const opened: { kb: KnowledgeBase; name: string }[] = [];
  try {
    for (const { name, config } of targets) {
      opened.push({ kb: openKnowledgeBase(config, { readOnly: true }), name });
    }
    return await work(opened);
  } finally {
    for (const { kb } of opened) await kb.close();
  }
}
