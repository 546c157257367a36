// The lexical statement ranks in FTS alone and checks quality and document filters on the top rows only, widening
// the window and at last joining `chunks`: whatever the filter's selectivity, the answer must equal the oracle —
// every match ranked, then filtered, then cut to `limit`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFts } from '../../src/store/chunk-search.js';
import { DocumentStore } from '../../src/store/document-store.js';
import { openDatabase, type SqliteDatabase } from '../../src/store/open-database.js';
import { chunkRow, documentRow } from '../support/store-rows.js';

const DOCUMENTS = 40;
const CHUNKS_PER_DOCUMENT = 10;
const weights = { heading: 2, context: 1, content: 1 };
let dir: string;
let db: SqliteDatabase;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-fts-filter-'));
  db = openDatabase(path.join(dir, 'index.db'), { create: true });
  const store = new DocumentStore(db);
  for (let d = 0; d < DOCUMENTS; d++) {
    const chunks = Array.from({ length: CHUNKS_PER_DOCUMENT }, (_, i) => {
      // Every chunk says "backup"; how often varies, so bm25 orders them; one in three is low quality.
      const text = `${'backup '.repeat(1 + ((d * 7 + i * 3) % 5))}restore notes for disk ${d} part ${i}`;
      return chunkRow(i, { content: text }, (d + i) % 3 === 0 ? 0.1 : 0.9);
    });
    store.writeDocument(documentRow(`doc${d}.md`, `h${d}`), chunks);
  }
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Rank every match without filters, then filter in JS: what any filtered answer must equal. */
function oracle(expression: string, minQuality: number, documentIds: number[] | null, limit: number) {
  const all = searchFts(db, 'fts_words', {
    expression,
    weights,
    limit: 1_000_000,
    minQuality: 0,
    documentIds: null,
  });
  const facts = new Map(
    (
      db.prepare('SELECT id, document_id AS documentId, quality_score AS q FROM chunks').all() as {
        id: number;
        documentId: number;
        q: number;
      }[]
    ).map((row) => [row.id, row]),
  );
  return all
    .filter((id) => {
      const row = facts.get(id)!;
      return row.q >= minQuality && (documentIds === null || documentIds.includes(row.documentId));
    })
    .slice(0, limit);
}

describe('searchFts with filters', () => {
  const cases: [string, number, number[] | null, number][] = [
    ['no filter', 0, null, 7],
    ['quality only (a third rejected)', 0.3, null, 25],
    ['half the documents', 0.3, Array.from({ length: 20 }, (_, i) => i * 2 + 1), 30],
    ['one document: the window widens, then the joined query answers', 0.3, [37], 5],
    ['one document, more than it has', 0, [12], 50],
    ['no document at all', 0, [], 5],
  ];
  it.each(cases)('%s equals ranking everything, then filtering', (_, minQuality, documentIds, limit) => {
    const got = searchFts(db, 'fts_words', {
      expression: '"backup" OR "restore"',
      weights,
      limit,
      minQuality,
      documentIds,
    });
    expect(got).toEqual(oracle('"backup" OR "restore"', minQuality, documentIds, limit));
    if (documentIds?.length === 0) expect(got).toEqual([]);
    else expect(got.length).toBeGreaterThan(0);
  });
});
