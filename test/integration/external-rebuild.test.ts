// A long-lived facade (a running `groove serve`) must follow a forced rebuild made by another process
// (`groove index --force` renames a new file over the index): its next read opens the new file, and later
// incremental writes to the new file stay intact.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({
    'ops/backup.md': '# Backup\n\n## Keys\n\nRotate the backup keys every month.\n',
    'ops/restore.md': '# Restore\n\n## Drill\n\nRestore drills run every quarter.\n',
  });
});
afterEach(() => kb.cleanup());

const paths = (response: { results: { path: string }[] }) => response.results.map((r) => r.path).sort();

describe('a rebuild by another process', () => {
  it('is picked up by the next read of a long-lived facade, and later writes to the new file survive', async () => {
    const config = () => kb.config({ overrides: { model: 'none' } });
    const serving = openKnowledgeBase(config());
    const other = openKnowledgeBase(config());
    try {
      await other.index();
      expect(paths(await serving.search({ query: 'quarter', limit: 5 }))).toEqual(['ops/restore.md']);
      await serving.search({ query: 'backup keys', limit: 5 }); // second search: the word snapshot is built

      kb.write('ops/restore.md', '# Restore\n\n## Drill\n\nRestore drills now run every month.\n');
      kb.write('ops/failover.md', '# Failover\n\n## Drill\n\nFailover drills run every quarter.\n');
      await other.index({ force: true });
      expect(paths(await serving.search({ query: 'quarter', limit: 5 }))).toEqual(['ops/failover.md']);

      // An incremental write lands in the new file's WAL; the facade's old connection must not remove it.
      kb.write('ops/dns.md', '# DNS\n\n## Drill\n\nDNS drills run every quarter too.\n');
      await other.index();
      await other.close();
      expect(paths(await serving.search({ query: 'quarter', limit: 5 }))).toEqual([
        'ops/dns.md',
        'ops/failover.md',
      ]);
    } finally {
      await serving.close();
    }
    const reopened = openKnowledgeBase(config());
    try {
      expect(reopened.status().documents).toBe(4);
    } finally {
      await reopened.close();
    }
  });
});
