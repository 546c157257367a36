// The per-chunk word counts as stored: the blob's bytes are a file format (older indexes are decoded with the
// same reader), and the writer counts exactly the tokens fts_words stores for the same columns.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../../src/store/open-database.js';
import { decodeTermCounts, encodeTermCounts, WordCountWriter } from '../../src/store/word-counts.js';

let dir: string;
let db: SqliteDatabase;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-word-counts-'));
  db = openDatabase(path.join(dir, 'index.db'), { create: true });
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('encodeTermCounts', () => {
  it('writes the stored varint layout byte for byte', () => {
    const blob = encodeTermCounts({
      termIds: [1, 300],
      counts: [
        [1, 0, 2],
        [0, 128, 0],
      ],
    });
    // count 2; delta 1 → 1, 0, 2; delta 299 = 0xAB 0x02 → 0, 128 = 0x80 0x01, 0.
    expect([...blob]).toEqual([2, 1, 1, 0, 2, 0xab, 0x02, 0, 0x80, 0x01, 0]);
  });

  it('round-trips values up to the largest safe integer', () => {
    const entries = {
      termIds: [7, 2 ** 40, Number.MAX_SAFE_INTEGER],
      counts: [
        [0, 0, 0],
        [2 ** 31, 1, 127],
        [128, 2 ** 35, 16_384],
      ] as [number, number, number][],
    };
    const seen: number[][] = [];
    decodeTermCounts(encodeTermCounts(entries), (...entry) => seen.push(entry));
    expect(seen).toEqual(entries.termIds.map((id, i) => [id, ...entries.counts[i]!]));
  });
});

describe('WordCountWriter', () => {
  /** The stored counts of one chunk as term → [heading, context, content]. */
  function storedCounts(chunkId: number): Map<string, number[]> {
    const blob = db.prepare('SELECT counts FROM chunk_word_counts WHERE chunk_id = ?').pluck().get(chunkId);
    const terms = new Map(
      (db.prepare('SELECT id, term FROM word_terms').raw().all() as [number, string][]).map(([id, t]) => [
        id,
        t,
      ]),
    );
    const out = new Map<string, number[]>();
    decodeTermCounts(blob as Uint8Array, (termId, h, c, b) => out.set(terms.get(termId)!, [h, c, b]));
    return out;
  }

  it('counts tokens per column as fts_words makes them; runs of spaces add nothing', () => {
    const insertChunk = db.prepare(
      "INSERT INTO documents(path, title, content_hash, size_bytes, mtime_ms, last_indexed) VALUES ('a.md', 'a', 'h', 1, 1, 'now')",
    );
    const documentId = Number(insertChunk.run().lastInsertRowid);
    const chunk = db.prepare(
      `INSERT INTO chunks(document_id, chunk_index, context, content, byte_start, byte_end, token_count)
       VALUES (?, ?, '', '', 0, 0, 0)`,
    );
    const ids = [0, 1].map((index) => Number(chunk.run(documentId, index).lastInsertRowid));
    const writer = new WordCountWriter(db);
    try {
      db.transaction(() => {
        writer.write([
          {
            id: ids[0]!,
            words: { heading: 'Running', context: 'Backups > Running', content: 'runs  run   RUNNING' },
          },
          { id: ids[1]!, words: { heading: '', context: '  ', content: ' Café  café ' } },
        ]);
      })();
    } finally {
      writer.close();
    }
    expect(storedCounts(ids[0]!)).toEqual(
      new Map([
        ['run', [1, 1, 3]],
        ['backup', [0, 1, 0]],
      ]),
    );
    expect(storedCounts(ids[1]!)).toEqual(new Map([['cafe', [0, 0, 2]]]));
  });
});
