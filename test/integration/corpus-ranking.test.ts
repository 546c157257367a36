// bm25 over several indexes as one (store/corpus-ranking.ts), checked on one real index: ranked with its own
// statistics, the postings path equals FTS5's `ORDER BY bm25(table, w…), rowid` for both tables (exclusions,
// filters, fractional weights, replaced and deleted rows included); and the word snapshot path reports the same
// share and ranks the same rows with the same scores under statistics wider than its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sumCorpusStats } from '../../src/rank/bm25-rank.js';
import { quoteFtsPhrase } from '../../src/rank/fts-query.js';
import { searchFts } from '../../src/store/chunk-search.js';
import { prepareCorpusRanking, prepareSnapshotRanking } from '../../src/store/corpus-ranking.js';
import { DocumentStore } from '../../src/store/document-store.js';
import { openDatabase, type SqliteDatabase } from '../../src/store/open-database.js';
import { WordIndex } from '../../src/store/word-index.js';
import { WordTokenizer } from '../../src/store/word-tokenizer.js';
import { chunkRow, documentRow } from '../support/store-rows.js';

const WORDS = (
  'backup backups restoring restore rotate rotation keys key volume volumes disk disks verify verified schedule ' +
  'nightly weekly the of replica replication failover 東京 大阪 売上 報告書 バックアップ 復元'
).split(' ');

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

const sentence = (next: () => number, length: number) =>
  Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');

let dir: string;
let db: SqliteDatabase;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-corpus-ranking-'));
  db = openDatabase(path.join(dir, 'index.db'), { create: true });
  const store = new DocumentStore(db);
  const write = (d: number, seed: number) => {
    const next = random(seed);
    const chunks = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => {
      const heading = sentence(next, 1 + Math.floor(next() * 3));
      return chunkRow(
        i,
        { heading, context: `Runbook > ${heading}`, content: sentence(next, 5 + Math.floor(next() * 50)) },
        next(),
      );
    });
    store.writeDocument(documentRow(`doc${d}.md`, `h${d}-${seed}`), chunks);
  };
  for (let d = 0; d < 120; d++) write(d, d + 1);
  // Replaced and deleted rows: FTS5's totals keep counting them, and so must every share.
  for (let d = 0; d < 120; d += 4) write(d, d + 500);
  store.deleteDocuments(Array.from({ length: 15 }, (_, i) => `doc${i * 7 + 1}.md`));
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const orOf = (phrases: readonly string[]) => phrases.map(quoteFtsPhrase).join(' OR ');
const WEIGHTS = [
  { heading: 1, context: 1, content: 1 },
  { heading: 2.5, context: 0.5, content: 1 },
];
const FILTERS: [number, number[] | null][] = [
  [0, null],
  [0.5, null],
  [0, Array.from({ length: 40 }, (_, i) => i * 2 + 1)],
];

describe('bm25 over several indexes as one, on one index', () => {
  it('ranks both tables as FTS5 does under its own statistics', () => {
    const cases = [
      { table: 'fts_words' as const, phrases: ['backup', 'disk', 'verify'], not: null },
      { table: 'fts_words' as const, phrases: ['nightly backup', 'replica', '東京'], not: null },
      { table: 'fts_words' as const, phrases: ['restore', 'keys'], not: '"volume"' },
      { table: 'fts_chunks' as const, phrases: ['backu', 'replicat', '報告'], not: null },
      { table: 'fts_chunks' as const, phrases: ['otat', 'olume'], not: '"disk"' },
    ];
    for (const c of cases) {
      const expression = c.not ? `(${orOf(c.phrases)}) NOT (${c.not})` : orOf(c.phrases);
      const prepared = prepareCorpusRanking(db, { table: c.table, expression, phrases: c.phrases });
      for (const weights of WEIGHTS) {
        for (const [minQuality, documentIds] of FILTERS) {
          const options = { weights, limit: 25, minQuality, documentIds };
          const expected = searchFts(db, c.table, { expression, ...options });
          const got = prepared.rank(prepared.stats, options).map((row) => row.id);
          expect({ expression, weights, minQuality, got }).toEqual({
            expression,
            weights,
            minQuality,
            got: expected,
          });
          expect(expected.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('the word snapshot states the same share and ranks as the postings under wider statistics', () => {
    const weights = { heading: 2, context: 1, content: 1 };
    const index = WordIndex.load(db, weights)!;
    const tokenizer = WordTokenizer.forWordTable(db);
    try {
      for (const phrases of [
        ['backup', 'disk', 'verify'],
        ['replication', 'weekly', 'バックアップ'],
        ['keys', 'nosuchword'],
      ]) {
        const query = { table: 'fts_words' as const, expression: orOf(phrases), phrases };
        const postings = prepareCorpusRanking(db, query);
        const snapshot = prepareSnapshotRanking(index, tokenizer, query)!;
        expect(snapshot.stats).toEqual(postings.stats);
        // Another index's share: more rows and tokens, and rows holding each phrase.
        const other = { rowCount: 900, tokenTotal: 31_000, phraseRows: phrases.map((_, i) => 40 + i * 13) };
        const corpus = sumCorpusStats([postings.stats, other]);
        for (const [minQuality, documentIds] of FILTERS) {
          const options = { weights, limit: 30, minQuality, documentIds };
          expect(snapshot.rank(corpus, options)).toEqual(postings.rank(corpus, options));
        }
        expect(postings.rank(corpus, { weights, limit: 30, minQuality: 0, documentIds: null })).not.toEqual(
          postings.rank(postings.stats, { weights, limit: 30, minQuality: 0, documentIds: null }),
        );
      }
      // A phrase of several tokens, or exclusions, are the postings' to answer.
      const phrase = {
        table: 'fts_words' as const,
        expression: orOf(['nightly backup']),
        phrases: ['nightly backup'],
      };
      expect(prepareSnapshotRanking(index, tokenizer, phrase)).toBeNull();
      const excluding = {
        table: 'fts_words' as const,
        expression: '("keys") NOT ("disk")',
        phrases: ['keys'],
      };
      expect(prepareSnapshotRanking(index, tokenizer, excluding)).toBeNull();
    } finally {
      tokenizer.close();
    }
  });
});
