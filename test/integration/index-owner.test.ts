// Which KB an index belongs to, on real index files: its own record, another KB's record, an index from before
// the record (adopted only when its stored documents are this KB's files), and a KB that was moved.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { judgeIndexOwner, kbIdentityOf } from '../../src/app/indexing/index-owner.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({ 'a.md': noteText('alpha'), 'b.md': noteText('bravo'), 'c/d.md': noteText('delta') });
});
afterEach(() => kb.cleanup());

async function indexNow(): Promise<void> {
  const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
  try {
    await facade.index();
  } finally {
    await facade.close();
  }
}

function forgetOwner(): void {
  const db = new Database(kb.dbPath);
  db.prepare("DELETE FROM index_meta WHERE key IN ('kb_root', 'kb_name')").run();
  db.close();
}

const other = (name: string) => {
  const folder = path.join(kb.root, name);
  fs.mkdirSync(folder);
  return kbIdentityOf(folder, null);
};

describe('the owner of an index', () => {
  it('is recorded by a run and compared with the real path of the KB', async () => {
    await indexNow();
    expect(judgeIndexOwner(kb.dbPath, kbIdentityOf(kb.kbPath, null))).toEqual({ kind: 'own' });
    const link = path.join(kb.root, 'link-to-kb');
    fs.symlinkSync(kb.kbPath, link);
    expect(judgeIndexOwner(kb.dbPath, kbIdentityOf(link, null))).toEqual({ kind: 'own' });
    expect(judgeIndexOwner(kb.dbPath, other('elsewhere'))).toMatchObject({
      kind: 'other',
      otherRoot: kb.kbPath,
    });
  });

  it('without a record: adopted when most sampled documents are files of the KB, else another KB', async () => {
    await indexNow();
    forgetOwner();
    expect(judgeIndexOwner(kb.dbPath, kbIdentityOf(kb.kbPath, null))).toEqual({ kind: 'adopt' });
    const sibling = other('sibling');
    expect(judgeIndexOwner(kb.dbPath, sibling)).toMatchObject({ kind: 'other', found: 0, sampled: 3 });
    // A sibling that happens to hold one of the three names is still not the owner (1 of 3 is not a majority).
    fs.writeFileSync(path.join(sibling.realPath, 'a.md'), noteText('alpha'));
    expect(judgeIndexOwner(kb.dbPath, sibling)).toMatchObject({ kind: 'other', found: 1, sampled: 3 });
  });

  it('samples 32 documents spread over a larger index', async () => {
    for (let i = 0; i < 100; i++) kb.write(`many/n${i}.md`, noteText(`many${i}`));
    await indexNow();
    forgetOwner();
    const sibling = other('sibling');
    for (let i = 0; i < 100; i += 2)
      fs.cpSync(kb.abs(`many/n${i}.md`), path.join(sibling.realPath, `many/n${i}.md`));
    const verdict = judgeIndexOwner(kb.dbPath, sibling);
    expect(verdict).toMatchObject({ kind: 'other', sampled: 32 });
    // About half the sample is found there, never more than half: not adopted.
    expect((verdict as { found: number }).found).toBeGreaterThan(8);
  });

  it('recorded for a folder that no longer exists: adopted by the KB that holds its files (a moved KB)', async () => {
    await indexNow();
    const moved = path.join(kb.root, 'moved-kb');
    fs.renameSync(kb.kbPath, moved);
    expect(judgeIndexOwner(kb.dbPath, kbIdentityOf(moved, null))).toEqual({ kind: 'adopt' });
    expect(judgeIndexOwner(kb.dbPath, other('empty'))).toMatchObject({ kind: 'other' });
  });

  it('an empty index from before the record is adopted; a file that is not an index is left to the open', () => {
    const db = new Database(kb.dbPath);
    db.exec(
      'CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE documents (id INTEGER PRIMARY KEY, path TEXT)',
    );
    db.close();
    expect(judgeIndexOwner(kb.dbPath, kbIdentityOf(kb.kbPath, null))).toEqual({ kind: 'adopt' });
    fs.writeFileSync(kb.dbPath, 'not a database at all, just text');
    expect(judgeIndexOwner(kb.dbPath, kbIdentityOf(kb.kbPath, null))).toEqual({ kind: 'none' });
  });
});
