// `groove eval golden quote` for one knowledge base: its golden set's heading entries re-anchored by quotes
// chosen from one read snapshot of its index, read from and written to its default golden places.
import { filePorts } from './adapters.js';
import { type GoldenQuoteOptions, type GoldenQuoteResult, quoteGoldenAnchors } from './golden/index.js';
import { goldenSettingsOf } from './kb-golden.js';
import type { KnowledgeBase } from './knowledge-base.js';

export function quoteGolden(kb: KnowledgeBase, options: GoldenQuoteOptions = {}): Promise<GoldenQuoteResult> {
  return quoteGoldenAnchors(options, {
    read: goldenSettingsOf(kb.config, kb.kbPath, 'read'),
    write: goldenSettingsOf(kb.config, kb.kbPath, 'write'),
    kbPath: kb.kbPath,
    ports: {
      readFile: filePorts.readFile,
      write: filePorts.write,
      withSnapshot: (work) => kb.withReadSnapshot(work),
    },
  });
}
