// The trigram table declares `content` first in a new index and `heading, context, content` in one created
// before that; bm25 takes column weights by position, so ranking must follow each file's own declaration, and
// writes into an older file must keep landing in the right columns.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFts } from '../../src/store/chunk-search.js';
import { DocumentStore } from '../../src/store/document-store.js';
import { openDatabase, type SqliteDatabase } from '../../src/store/open-database.js';
import type { Bm25Weights } from '../../src/types.js';
import { chunkRow, documentRow } from '../support/store-rows.js';

const OLD_TRIGRAM_TABLE = `CREATE VIRTUAL TABLE fts_chunks USING fts5(
  heading, context, content, content='', contentless_delete=1,
  tokenize='trigram remove_diacritics 1 case_sensitive 0')`;

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-trigram-columns-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Three notes saying "quokka" once each: in the heading, in the breadcrumb, in the body. */
function writeNotes(store: DocumentStore, prefix: string): void {
  const filler = 'restore notes for the weekly disk rotation';
  const notes = [
    { name: 'heading', heading: 'Quokka care', context: 'Zoo > Care', content: filler },
    { name: 'context', heading: 'Feeding', context: 'Quokka > Feeding', content: filler },
    { name: 'content', heading: 'Visitors', context: 'Zoo > Visitors', content: `${filler} quokka` },
  ];
  for (const note of notes) {
    store.writeDocument(documentRow(`${prefix}${note.name}.md`, `${prefix}${note.name}`), [
      chunkRow(0, { heading: note.heading, context: note.context, content: note.content }, 0.9),
    ]);
  }
}

function declaredColumns(db: SqliteDatabase): string[] {
  return db.prepare("SELECT name FROM pragma_table_info('fts_chunks')").pluck().all() as string[];
}

/** Paths of the trigram matches for `expression`, best first. */
function ranked(db: SqliteDatabase, expression: string, weights: Bm25Weights): string[] {
  const ids = searchFts(db, 'fts_chunks', {
    expression,
    weights,
    limit: 10,
    minQuality: 0,
    documentIds: null,
  });
  const pathOf = db.prepare(
    'SELECT d.path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ?',
  );
  return ids.map((id) => pathOf.pluck().get(id) as string);
}

const WEIGHT_SETS: [Bm25Weights, string][] = [
  [{ heading: 10, context: 1, content: 1 }, 'heading'],
  [{ heading: 1, context: 10, content: 1 }, 'context'],
  [{ heading: 1, context: 1, content: 10 }, 'content'],
];

describe('trigram table column order', () => {
  it('declares content first in a new index, and each column weight reaches its own column', () => {
    const db = openDatabase(path.join(dir, 'new.db'), { create: true });
    try {
      expect(declaredColumns(db)).toEqual(['content', 'context', 'heading']);
      writeNotes(new DocumentStore(db), '');
      for (const [weights, best] of WEIGHT_SETS) {
        const order = ranked(db, '"quokka"', weights);
        expect(order).toHaveLength(3);
        expect(order[0]).toBe(`${best}.md`);
      }
    } finally {
      db.close();
    }
  });

  it('ranks an index created with the older order the same way, and keeps writing into its columns', () => {
    const newDb = openDatabase(path.join(dir, 'same.db'), { create: true });
    const oldPath = path.join(dir, 'old.db');
    const oldDb = openDatabase(oldPath, { create: true });
    try {
      oldDb.exec(`DROP TABLE fts_chunks; ${OLD_TRIGRAM_TABLE}`);
      expect(declaredColumns(oldDb)).toEqual(['heading', 'context', 'content']);
      for (const db of [newDb, oldDb]) writeNotes(new DocumentStore(db), '');
      for (const [weights, best] of WEIGHT_SETS) {
        for (const expression of ['"quokka"', '"quokka" OR "rotation"', '"notes for"']) {
          expect(ranked(oldDb, expression, weights)).toEqual(ranked(newDb, expression, weights));
        }
        expect(ranked(oldDb, '"quokka"', weights)[0]).toBe(`${best}.md`);
      }
    } finally {
      newDb.close();
      oldDb.close();
    }
    // Reopened for writing, the older file is left as it is and still searched by its own declaration.
    const reopened = openDatabase(oldPath);
    try {
      expect(declaredColumns(reopened)).toEqual(['heading', 'context', 'content']);
      writeNotes(new DocumentStore(reopened), 'later-');
      const order = ranked(reopened, '"quokka"', { heading: 10, context: 1, content: 1 });
      expect(order.slice(0, 2).sort()).toEqual(['heading.md', 'later-heading.md']);
    } finally {
      reopened.close();
    }
  });
});
