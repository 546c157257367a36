// The in-memory word ranking must equal FTS5's `ORDER BY bm25(fts_words, w…), rowid` exactly — for integer and
// fractional column weights, with quality and document filters, and after documents were replaced and deleted
// (FTS5's row and token totals then come from its own bookkeeping, ours from the stored counts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFts } from '../../src/store/chunk-search.js';
import { DocumentStore } from '../../src/store/document-store.js';
import { createFtsPostingsReader } from '../../src/store/fts-postings.js';
import { IntegrityReader } from '../../src/store/index-integrity.js';
import { openDatabase, type SqliteDatabase } from '../../src/store/open-database.js';
import { readWordChanges } from '../../src/store/word-changes.js';
import { decodeTermCounts, encodeTermCounts } from '../../src/store/word-counts.js';
import { WordIndex } from '../../src/store/word-index.js';
import type { Bm25Weights } from '../../src/types.js';
import { chunkRow, documentRow } from '../support/store-rows.js';

const WORDS = (
  'backup backups restoring restore rotate rotation keys key volume volumes disk disks verify verified schedule ' +
  'scheduled nightly weekly the a of and to replica replication failover 東京 大阪 売上 報告書 会議 バックアップ 復元'
).split(' ');

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function sentence(next: () => number, length: number): string {
  return Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
}

let dir: string;
let db: SqliteDatabase;
let store: DocumentStore;

function writeDoc(d: number, seed: number): void {
  const next = random(seed);
  const chunks = Array.from({ length: 1 + Math.floor(next() * 4) }, (_, i) => {
    const heading = sentence(next, 1 + Math.floor(next() * 3));
    const content = sentence(next, 5 + Math.floor(next() * 60));
    return chunkRow(i, { heading, context: `Runbook > ${heading}`, content }, next());
  });
  store.writeDocument(documentRow(`doc${d}.md`, `h${d}-${seed}`), chunks);
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-word-index-'));
  db = openDatabase(path.join(dir, 'index.db'), { create: true });
  store = new DocumentStore(db);
  for (let d = 0; d < 150; d++) writeDoc(d, d + 1);
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function queries(seed: number, count: number): string[][] {
  const next = random(seed);
  const postings = createFtsPostingsReader(db, 'fts_words');
  return Array.from({ length: count }, () => {
    const words = Array.from(
      { length: 1 + Math.floor(next() * 5) },
      () => WORDS[Math.floor(next() * WORDS.length)]!,
    );
    return postings.tokenize(words).map((tokens) => tokens.join(' '));
  }).map((tokens) => tokens.filter((t) => t !== '' && !t.includes(' ')));
}

function compare(
  weightSets: { heading: number; context: number; content: number }[],
  seed: number,
  snapshot: (weights: Bm25Weights) => WordIndex | null = (weights) => WordIndex.load(db, weights),
): void {
  for (const weights of weightSets) {
    const index = snapshot(weights);
    expect(index).not.toBeNull();
    for (const tokens of queries(seed, 60)) {
      if (tokens.length === 0) continue;
      const expression = tokens.map((t) => `"${t}"`).join(' OR ');
      for (const [minQuality, documentIds] of [
        [0, null],
        [0.5, null],
        [0.2, [3, 4, 5, 40, 41, 99, 120]],
      ] as const) {
        const expected = searchFts(db, 'fts_words', {
          expression,
          weights,
          limit: 25,
          minQuality,
          documentIds: documentIds ? [...documentIds] : null,
        });
        const got = index!.rank(tokens, {
          limit: 25,
          minQuality,
          documentIds: documentIds ? new Set(documentIds) : null,
        });
        expect({ tokens, weights, minQuality, got }).toEqual({ tokens, weights, minQuality, got: expected });
      }
    }
  }
}

describe('WordIndex', () => {
  it('round-trips the counts blob', () => {
    const entries = {
      termIds: [1, 2, 200, 70_000],
      counts: [
        [0, 0, 1],
        [3, 0, 129],
        [1, 1, 1],
        [0, 2, 40_000],
      ] as [number, number, number][],
    };
    const seen: number[][] = [];
    decodeTermCounts(encodeTermCounts(entries), (...entry) => seen.push(entry));
    expect(seen).toEqual(entries.termIds.map((id, i) => [id, ...entries.counts[i]!]));
  });

  it('ranks exactly as FTS5 bm25 for integer and fractional weights, with filters', () => {
    compare(
      [
        { heading: 2, context: 1, content: 1 },
        { heading: 1.3, context: 0.7, content: 1 },
      ],
      7,
    );
  });

  it('still ranks exactly after documents were replaced and deleted', () => {
    for (let d = 0; d < 150; d += 3) writeDoc(d, d + 1000);
    store.deleteDocuments(Array.from({ length: 30 }, (_, i) => `doc${i * 5 + 1}.md`));
    compare([{ heading: 2, context: 1, content: 1 }], 11);
  });

  it('a snapshot refreshed with the changed rows ranks exactly as FTS5 after replacements, deletions and additions', () => {
    const weights = { heading: 1.3, context: 0.7, content: 1 };
    let index = WordIndex.load(db, weights)!;
    const refreshes: boolean[] = [];
    for (let round = 0; round < 4; round++) {
      for (let d = round; d < 150; d += 9) writeDoc(d, d + 5000 + round);
      store.deleteDocuments([`doc${round * 11 + 2}.md`, `doc${round * 11 + 3}.md`]);
      store.writeDocument(documentRow(`added${round}.md`, `a${round}`), [
        chunkRow(0, { content: `backup novel${round} novel${round} restore` }, 0.9),
      ]);
      const refreshed = db.transaction(() => {
        const changes = readWordChanges(db, index);
        return changes && index.withChanges(db, changes);
      })();
      refreshes.push(refreshed !== null);
      index = refreshed ?? WordIndex.load(db, weights)!;
      compare([weights], 20 + round, () => index);
      const expression = `"novel${round}" OR "backup"`;
      expect(
        index.rank([`novel${round}`, 'backup'], { limit: 30, minQuality: 0, documentIds: null }),
      ).toEqual(
        searchFts(db, 'fts_words', { expression, weights, limit: 30, minQuality: 0, documentIds: null }),
      );
    }
    expect(refreshes).toEqual([true, true, true, true]);
  });

  it('keeps term ids right after a rolled-back write added new terms', () => {
    const novel = (d: number, text: string) =>
      store.writeDocument(documentRow(`novel${d}.md`, `n${d}`), [chunkRow(0, { content: text }, 0.9)]);
    expect(() =>
      store.runInTransaction(() => {
        novel(1, 'zephyr quokka tangelo');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    novel(2, 'tangelo marmoset zephyr zephyr');
    novel(3, 'quokka backup');
    const index = WordIndex.load(db, { heading: 2, context: 1, content: 1 })!;
    for (const tokens of [['zephyr'], ['quokka', 'tangelo'], ['marmoset', 'backup']]) {
      const expression = tokens.map((t) => `"${t}"`).join(' OR ');
      const weights = { heading: 2, context: 1, content: 1 };
      expect(index.rank(tokens, { limit: 10, minQuality: 0, documentIds: null })).toEqual(
        searchFts(db, 'fts_words', { expression, weights, limit: 10, minQuality: 0, documentIds: null }),
      );
    }
  });

  it('counts a group of documents at its commit, only for the chunks that survive the group', () => {
    const stored = () => db.prepare('SELECT count(*) FROM chunk_word_counts').pluck().get() as number;
    const before = stored();
    store.runInTransaction(() => {
      store.writeDocument(documentRow('group-a.md', 'ga1'), [
        chunkRow(0, { content: 'tangelo quokka' }, 0.9),
      ]);
      // The same path again in the group: the first version's chunk is gone before its counts were stored.
      store.writeDocument(documentRow('group-a.md', 'ga2'), [
        chunkRow(0, { heading: 'Marmoset', content: 'marmoset tangelo tangelo' }, 0.9),
        chunkRow(1, { content: 'backup quokka' }, 0.9),
      ]);
      store.writeDocument(documentRow('group-b.md', 'gb'), [chunkRow(0, { content: 'quokka quokka' }, 0.9)]);
      store.deleteDocuments(['group-b.md']);
      expect(stored()).toBe(before); // counted together, just before the commit
    });
    expect(stored()).toBe(before + 2);
    const integrity = new IntegrityReader(db, 5);
    expect(integrity.orphanWordCounts().count).toBe(0);
    expect(integrity.wordCountsDisagreeing()).toEqual({ count: 0, samples: [] });
    expect(db.prepare('SELECT count(*) FROM chunks').pluck().get()).toBe(stored());
    const weights = { heading: 2, context: 1, content: 1 };
    const index = WordIndex.load(db, weights)!;
    for (const tokens of [['tangelo'], ['quokka', 'marmoset'], ['backup']]) {
      const expression = tokens.map((t) => `"${t}"`).join(' OR ');
      expect(index.rank(tokens, { limit: 10, minQuality: 0, documentIds: null })).toEqual(
        searchFts(db, 'fts_words', { expression, weights, limit: 10, minQuality: 0, documentIds: null }),
      );
    }
  });

  it('refuses to load when some chunk has no stored counts', () => {
    const id = db.prepare('SELECT max(chunk_id) FROM chunk_word_counts').pluck().get() as number;
    db.prepare('DELETE FROM chunk_word_counts WHERE chunk_id = ?').run(id);
    expect(WordIndex.load(db, { heading: 2, context: 1, content: 1 })).toBeNull();
  });
});
