// An index run over some paths only (what live sync passes: the files the watcher named): it adds, updates,
// renames and removes exactly those, leaves every other document alone even when its file changed too, and
// keeps the refusal record of the other files.
import { afterEach, describe, expect, it } from 'vitest';
import { IndexDatabase } from '../../src/app/indexing/index-database.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { decodeSkippedFiles } from '../../src/store/skipped-files.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

const kbs: TempKb[] = [];
afterEach(() => {
  for (const kb of kbs.splice(0)) kb.cleanup();
});

function skippedPaths(temp: TempKb): string[] {
  const database = IndexDatabase.open(temp.dbPath, { create: false });
  try {
    return decodeSkippedFiles(database.meta().skipped_files)?.files.map((file) => file.path) ?? [];
  } finally {
    database.close();
  }
}

describe('an index run over some paths', () => {
  it('changes exactly the documents at those paths', async () => {
    const temp = createTempKb({
      'a.md': noteText('aaa'),
      'b.md': noteText('bbb'),
      'c.md': noteText('ccc'),
      'e.md': noteText('eee'),
      'old-bad.md': Buffer.from([0x23, 0x20, 0x00, 0x01]),
    });
    kbs.push(temp);
    const kb = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
    try {
      await kb.index();
      expect(skippedPaths(temp)).toEqual(['old-bad.md']);
      const paths = async (query: string) =>
        (await kb.search({ query, limit: 5, includeLowQuality: true })).results.map((r) => r.path);

      temp.write('a.md', noteText('aaa').replace('aaaalpha', 'changedword'));
      temp.remove('b.md');
      temp.move('c.md', 'sub/c2.md');
      temp.write('e.md', noteText('eee').replace('eeealpha', 'unseenword')); // changed, but not named
      temp.write('new-bad.md', Buffer.from([0x23, 0x20, 0x00, 0x02]));
      const summary = await kb.index({
        paths: ['a.md', 'b.md', 'c.md', 'sub/c2.md', 'new-bad.md', 'gone.md'],
      });
      expect(summary).toMatchObject({ indexed: 0, updated: 1, renamed: 1, deleted: 1, skipped: 1 });
      expect(await paths('changedword')).toEqual(['a.md']);
      expect(await paths('bbbalpha')).toEqual([]);
      expect(await paths('cccalpha')).toEqual(['sub/c2.md']);
      expect(await paths('unseenword')).toEqual([]); // e.md was not looked at
      expect(await paths('eeealpha')).toEqual(['e.md']);
      expect(skippedPaths(temp)).toEqual(['old-bad.md', 'new-bad.md']);

      const full = await kb.index();
      expect(full).toMatchObject({ updated: 1, skipped: 2 });
      expect(await paths('unseenword')).toEqual(['e.md']);
    } finally {
      await kb.close();
    }
  });
});
