// The confidence's term counts read two ways on one real index — from the session's word snapshot and from
// FTS5 itself — give the same confidence for every top hit, replaced and deleted rows included.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureAnswerConfidence } from '../../src/app/search/answer-confidence-terms.js';
import type { WordRanking } from '../../src/app/search/search-cache.js';
import { quoteFtsPhrase } from '../../src/rank/fts-query.js';
import { createSearchReader } from '../../src/store/chunk-search.js';
import { prepareSnapshotRanking } from '../../src/store/corpus-ranking.js';
import { DocumentStore } from '../../src/store/document-store.js';
import { openDatabase, type SqliteDatabase } from '../../src/store/open-database.js';
import { WordIndex } from '../../src/store/word-index.js';
import { WordTokenizer } from '../../src/store/word-tokenizer.js';
import { chunkRow, documentRow } from '../support/store-rows.js';

const WORDS =
  'backup restore rotate keys volume disk verify schedule nightly weekly replica failover 東京 売上'.split(
    ' ',
  );

let dir: string;
let db: SqliteDatabase;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-confidence-counts-'));
  db = openDatabase(path.join(dir, 'index.db'), { create: true });
  const store = new DocumentStore(db);
  const write = (d: number, seed: number) => {
    const words = WORDS.filter((_, i) => (d * 7 + seed * 3 + i * i) % 5 < 2);
    store.writeDocument(documentRow(`doc${d}.md`, `h${d}-${seed}`), [
      chunkRow(0, { heading: `Part ${d}`, context: '', content: `${words.join(' ')} notes` }, 0.5),
    ]);
  };
  for (let d = 0; d < 40; d++) write(d, 1);
  for (let d = 0; d < 40; d += 3) write(d, 2);
  store.deleteDocuments(['doc5.md', 'doc11.md', 'doc17.md']);
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the confidence term counts', () => {
  it('are the same from the word snapshot and from FTS5', () => {
    const weights = { heading: 1, context: 1, content: 1 };
    const index = WordIndex.load(db, weights)!;
    const tokenizer = WordTokenizer.forWordTable(db);
    const words: WordRanking = {
      rankTerms: () => null,
      prepareCorpusRanking: (query) => prepareSnapshotRanking(index, tokenizer, query),
      heldCorpusRanking: (query) => prepareSnapshotRanking(index, tokenizer, query),
    };
    const reader = createSearchReader(db);
    const ids = db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
    const seen = new Set<number>();
    for (const terms of [['backup', 'disk'], ['failover', 'nosuchword', '東京'], ['weekly']]) {
      // The snapshot answers these terms itself (single tokens), so the two paths really differ.
      const expression = terms.map(quoteFtsPhrase).join(' OR ');
      expect(
        words.heldCorpusRanking({ table: 'fts_words', expression, phrases: terms }, weights),
      ).not.toBeNull();
      for (const id of ids) {
        const fromSnapshot = measureAnswerConfidence(reader, terms, id, { words, weights });
        const fromTable = measureAnswerConfidence(reader, terms, id, { words: null, weights });
        expect(fromSnapshot).toBe(fromTable);
        seen.add(Math.round(fromTable * 1000));
      }
    }
    // The hits differ in what they hold: the comparison covered more than one value.
    expect(seen.size).toBeGreaterThan(3);
  });
});
