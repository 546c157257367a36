// The one "tokenize like fts_words" helper, in both placements: the tokens are the ones fts_words itself stores,
// calls never mix, and the TEMP placement leaves the index's own schema untouched.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../../src/store/open-database.js';
import { WordTokenizer } from '../../src/store/word-tokenizer.js';

const TEXTS = ['Restoring the nightly backups', '', 'Café résumé RUNNING runners', '東京 バックアップ 復元'];

let dir: string;
let db: SqliteDatabase;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-word-tokenizer-'));
  db = openDatabase(path.join(dir, 'index.db'), { create: true });
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What fts_words stores for each text (as its content column), read back in offset order. */
function storedTokens(texts: readonly string[]): string[][] {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.test_words_v USING fts5vocab(main, fts_words, instance)');
  const insert = db.prepare("INSERT INTO fts_words(rowid, heading, context, content) VALUES (?, '', '', ?)");
  const read = db.prepare('SELECT term FROM temp.test_words_v WHERE doc = ? ORDER BY offset').pluck();
  const remove = db.prepare('DELETE FROM fts_words WHERE rowid = ?');
  return texts.map((text, i) => {
    insert.run(1000 + i, text);
    const tokens = read.all(1000 + i) as string[];
    remove.run(1000 + i);
    return tokens;
  });
}

describe('WordTokenizer', () => {
  it('splits texts as fts_words does, porter stems and folded diacritics included, in both placements', () => {
    const expected = storedTokens(TEXTS);
    expect(expected[0]).toEqual(['restor', 'the', 'nightli', 'backup']);
    const own = WordTokenizer.forWordTable(db);
    try {
      expect(own.tokenize(TEXTS)).toEqual(expected);
    } finally {
      own.close();
    }
    expect(WordTokenizer.inTempSchema(db).tokenize(TEXTS)).toEqual(expected);
  });

  it('never mixes one call into the next, also across tokenizers of one connection', () => {
    const first = WordTokenizer.inTempSchema(db);
    const second = WordTokenizer.inTempSchema(db);
    expect(first.tokenize(['alpha beta', 'gamma'])).toEqual([['alpha', 'beta'], ['gamma']]);
    expect(second.tokenize(['delta'])).toEqual([['delta']]);
    expect(first.tokenize([])).toEqual([]);
    expect(first.tokenize(['epsilon'])).toEqual([['epsilon']]);
  });

  it('writes only to the TEMP schema of the index connection', () => {
    const before = db.prepare('SELECT name FROM main.sqlite_master ORDER BY name').pluck().all();
    WordTokenizer.inTempSchema(db).tokenize(['a text']);
    expect(db.prepare('SELECT name FROM main.sqlite_master ORDER BY name').pluck().all()).toEqual(before);
  });
});
