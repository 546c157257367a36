// Read-only commands on a shared store read through the machine's cached working copy: the first reads the KB
// whole, later ones apply only what the store's commits changed since (the file is updated in place, not
// replaced), a --force rebuild or a damaged cache is read whole again, and what the cache holds is always what a
// fresh whole read holds. Against PGlite over a real socket.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { usePgliteServer } from '../support/pglite-server.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';
import { withOwnCache, workingCopyContents } from '../support/working-copy-contents.js';

const pgServer = usePgliteServer();

function open(temp: TempKb, readOnly: boolean) {
  const toml = `model = "none"\n[storage]\nbackend = "postgres"\nurl = "${pgServer().url}"\nkb = "cached"\n`;
  return openKnowledgeBase(temp.config({ toml }), { readOnly });
}

describe('the cached working copy of read-only commands', () => {
  it('is read whole once, then brought up to date from the commits since', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`notes/n${i}.md`, noteText(`n${i}`)]),
    );
    const temp = createTempKb(files);
    const writer = open(temp, false);
    try {
      await writer.index();
      const read = async (query: string) => {
        const kb = open(temp, true);
        try {
          const paths = (await kb.search({ query, limit: 3 })).results.map((r) => r.path);
          return { paths, dbPath: kb.dbPath, inode: fs.statSync(kb.dbPath).ino };
        } finally {
          await kb.close();
        }
      };
      const first = await read('n3alpha');
      expect(first.paths[0]).toBe('notes/n3.md');
      expect(first.dbPath).not.toBe(writer.dbPath);

      temp.write('notes/n5.md', noteText('n5').replace('n5alpha', 'cachedword'));
      temp.remove('notes/n7.md');
      temp.write('notes/extra.md', noteText('extra'));
      await writer.index();
      const second = await read('cachedword');
      expect(second.paths).toEqual(['notes/n5.md']);
      expect(second.inode).toBe(first.inode); // changes applied in place, not read whole
      expect((await read('n7alpha')).paths).not.toContain('notes/n7.md');

      const fresh = withOwnCache(() => open(temp, false)); // a private copy, read whole
      try {
        await fresh.describe();
        expect(workingCopyContents(second.dbPath)).toEqual(workingCopyContents(fresh.dbPath));
      } finally {
        await fresh.close();
      }

      temp.write('notes/n2.md', noteText('n2').replace('n2alpha', 'rebuiltword'));
      await writer.index({ force: true });
      const third = await read('rebuiltword');
      expect(third.paths).toEqual(['notes/n2.md']);
      expect(third.inode).not.toBe(first.inode); // a rebuild ends the change log: read whole

      fs.writeFileSync(third.dbPath, 'not a database');
      for (const suffix of ['-wal', '-shm']) fs.rmSync(third.dbPath + suffix, { force: true });
      expect((await read('rebuiltword')).paths).toEqual(['notes/n2.md']);
    } finally {
      await writer.close();
      temp.cleanup();
    }
  });

  it('answers INDEX_NOT_FOUND for a KB the store does not hold, and refuses to write', async () => {
    const temp = createTempKb({ 'a.md': noteText('a') });
    const toml = `model = "none"\n[storage]\nbackend = "postgres"\nurl = "${pgServer().url}"\nkb = "never"\n`;
    const kb = openKnowledgeBase(temp.config({ toml }), { readOnly: true });
    try {
      await expect(kb.search({ query: 'a' })).rejects.toMatchObject({ code: 'INDEX_NOT_FOUND' });
      await expect(kb.index()).rejects.toMatchObject({ code: 'INTERNAL' });
    } finally {
      await kb.close();
      temp.cleanup();
    }
  });
});
