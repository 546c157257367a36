import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFtsQuery, compileWordQuery } from '../../src/rank/fts-query.js';
import { segmentForIndex } from '../../src/rank/segment-words.js';

// Real FTS5 tables in memory: every compiled expression must be valid MATCH syntax and find what it promises.
let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  db.exec(`
    CREATE VIRTUAL TABLE tri USING fts5(heading, context, content, tokenize='trigram remove_diacritics 1 case_sensitive 0');
    CREATE VIRTUAL TABLE words USING fts5(heading, context, content, tokenize='porter unicode61 remove_diacritics 2');
  `);
  const docs = [
    ['再ランキング', 'guide > 評価', '再ランキングの評価について説明します。'],
    ['Install', 'guide > setup', 'Install sqlite-vec with npm; the "vector search" extension.'],
    ['東京', 'cities', '東京都の売上報告書とパスワード再設定の手順'],
    ['Café', 'food', 'A naïve café serves coffee.'],
  ];
  const insertTri = db.prepare('INSERT INTO tri(rowid, heading, context, content) VALUES (?, ?, ?, ?)');
  const insertWords = db.prepare('INSERT INTO words(rowid, heading, context, content) VALUES (?, ?, ?, ?)');
  docs.forEach(([heading, context, content], index) => {
    insertTri.run(index + 1, heading, context, content);
    insertWords.run(
      index + 1,
      segmentForIndex(heading!),
      segmentForIndex(context!),
      segmentForIndex(content!),
    );
  });
});

afterAll(() => db.close());

function matchTri(expression: string): number[] {
  return db
    .prepare('SELECT rowid FROM tri WHERE tri MATCH ? ORDER BY rowid')
    .all(expression)
    .map((row) => (row as { rowid: number }).rowid);
}

function matchWords(expression: string): number[] {
  return db
    .prepare('SELECT rowid FROM words WHERE words MATCH ? ORDER BY rowid')
    .all(expression)
    .map((row) => (row as { rowid: number }).rowid);
}

describe('compiled FTS expressions against real FTS5 tables', () => {
  it('finds Japanese, identifiers and diacritic-folded words through both tables', () => {
    const tri = compileFtsQuery('ランキング');
    expect(tri.kind === 'query' && matchTri(tri.expression!)).toEqual([1]);
    const words = compileWordQuery('東京 売上');
    expect(words.kind === 'query' && matchWords(words.expression!)).toEqual([3]);
    const cafe = compileWordQuery('cafe');
    expect(cafe.kind === 'query' && matchWords(cafe.expression!)).toEqual([4]);
    const ident = compileFtsQuery('sqlite-vec');
    expect(ident.kind === 'query' && matchTri(ident.expression!)).toEqual([2]);
  });

  it('excludes negatives in both tables', () => {
    const tri = compileFtsQuery('評価 再設定 -報告書');
    expect(tri.kind === 'query' && matchTri(tri.expression!)).toEqual([]);
    const words = compileWordQuery('評価 再設定 -報告書');
    expect(words.kind === 'query' && matchWords(words.expression!)).toEqual([1]);
    const phrase = compileWordQuery('install -"vector search"');
    expect(phrase.kind === 'query' && matchWords(phrase.expression!)).toEqual([]);
  });

  it('never produces an expression FTS5 rejects, whatever the input', () => {
    const alphabet = fc.constantFrom(
      ...'ab cd-"\'():*^+NOTAND OR 東京の再ランキング。、!?_\\/.,{}[]'.split(''),
      'NEAR',
      'AND',
      'OR',
      'NOT',
      ' -',
      '""',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (pieces) => {
        const query = pieces.join('');
        const tri = compileFtsQuery(query);
        const words = compileWordQuery(query);
        if (tri.kind === 'query') {
          if (tri.expression !== null) matchTri(tri.expression);
          if (tri.negativeExpression !== null) matchTri(tri.negativeExpression);
        }
        if (words.kind === 'query' && words.expression !== null) matchWords(words.expression);
      }),
      { numRuns: 500 },
    );
  });
});
