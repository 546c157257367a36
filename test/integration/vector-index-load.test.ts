// VectorIndex.load over a real SQLite index: rows joined to their chunks, blobs copied whatever their byte
// alignment, short blobs zero-padded, and the loaded snapshot searching like one built in memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/open-database.js';
import { VectorIndex } from '../../src/store/vector-index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const DIM = 40;

function vectorFor(i: number): Float32Array {
  const v = new Float32Array(DIM);
  let norm = 0;
  for (let d = 0; d < DIM; d++) {
    v[d] = Math.sin(i * 12.9898 + d * 78.233);
    norm += v[d]! * v[d]!;
  }
  for (let d = 0; d < DIM; d++) v[d]! /= Math.sqrt(norm);
  return v;
}

describe('VectorIndex.load', () => {
  const db = openDatabase(path.join(dir, 'index.db'), { create: true });
  const COUNT = 2600; // above the exact cut-off, so searches take the int8 first pass
  db.transaction(() => {
    const doc =
      db.prepare(`INSERT INTO documents (path, title, content_hash, size_bytes, mtime_ms, last_indexed)
      VALUES (?, ?, 'h', 1, 0, '2026-01-01')`);
    const chunk =
      db.prepare(`INSERT INTO chunks (document_id, chunk_index, context, content, byte_start, byte_end,
      token_count, quality_score) VALUES (?, ?, '', 'text', 0, 4, 1, ?)`);
    const vec = db.prepare('INSERT INTO chunk_vectors (chunk_id, embedding) VALUES (?, ?)');
    for (let d = 0; d < COUNT / 10; d++) {
      const documentId = Number(doc.run(`doc-${d}.md`, `Doc ${d}`).lastInsertRowid);
      for (let c = 0; c < 10; c++) {
        const i = d * 10 + c;
        const chunkId = Number(chunk.run(documentId, c, i % 9 === 0 ? 0.1 : 1).lastInsertRowid);
        const bytes = Buffer.from(vectorFor(i).buffer);
        // Chunk 7 of each document stores a short blob (a dimension change gone wrong): zero-padded on load.
        if (c !== 3) vec.run(chunkId, c === 7 ? bytes.subarray(0, 16) : bytes);
      }
    }
  })();
  const index = VectorIndex.load(db, DIM);
  afterAll(() => db.close());

  it('holds one row per stored vector, each readable by chunk id', () => {
    expect(index.size).toBe(COUNT - COUNT / 10);
    expect(index.quantised).toBe(true);
    expect(Array.from(index.vectorOf(1)!)).toEqual(Array.from(vectorFor(0)));
    expect(index.vectorOf(4)).toBeNull(); // chunk_index 3 has no vector
    const short = index.vectorOf(8)!;
    expect(Array.from(short.subarray(0, 4))).toEqual(Array.from(vectorFor(7).subarray(0, 4)));
    expect(Array.from(short.subarray(4)).every((x) => x === 0)).toBe(true);
  });

  it('searches the same as exact scoring, with the quality floor and a document filter', () => {
    for (const probe of [1, 555, 2001]) {
      const query = vectorFor(probe);
      for (const documentIds of [null, new Set(Array.from({ length: 240 }, (_, d) => d + 1))]) {
        const options = { k: 15, minQuality: 0.3, documentIds, excluded: new Set([2]) };
        const fast = index.search(query, options);
        expect(fast).toEqual(index.search(query, { ...options, exact: true }));
        expect(fast.length).toBe(15);
        expect(fast.some((h) => h.id === 2 || (h.id - 1) % 9 === 0)).toBe(false);
      }
    }
  });

  it('rescoring from the file gives the hits and similarities of the same vectors held in memory', () => {
    const stored = db
      .prepare(`SELECT c.id, c.document_id, c.quality_score, v.embedding FROM chunk_vectors v
        JOIN chunks c ON c.id = v.chunk_id`)
      .raw()
      .all() as [number, number, number, Buffer][];
    const inMemory = VectorIndex.fromEntries(
      stored.map(([id, documentId, quality]) => ({ id, documentId, quality, vector: index.vectorOf(id)! })),
      DIM,
    );
    for (const probe of [3, 700, 1999]) {
      for (const exact of [false, true]) {
        const options = { k: 20, minQuality: 0.3, documentIds: null, excluded: new Set<number>(), exact };
        expect(index.search(vectorFor(probe), options)).toEqual(inMemory.search(vectorFor(probe), options));
      }
    }
  });

  it('skips a chunk whose vector left the file after the snapshot was taken', () => {
    const probe = vectorFor(1200);
    const options = { k: 5, minQuality: 0, documentIds: null, excluded: new Set<number>() };
    const before = index.search(probe, options);
    const gone = before[0]!.id;
    const row = db
      .prepare('SELECT embedding FROM chunk_vectors WHERE chunk_id = ?')
      .pluck()
      .get(gone) as Buffer;
    db.prepare('DELETE FROM chunk_vectors WHERE chunk_id = ?').run(gone);
    try {
      const after = index.search(probe, options);
      expect(after.map((h) => h.id)).not.toContain(gone);
      expect(after.slice(0, 4)).toEqual(before.slice(1));
      expect(index.vectorOf(gone)).toBeNull();
    } finally {
      db.prepare('INSERT INTO chunk_vectors (chunk_id, embedding) VALUES (?, ?)').run(gone, row);
    }
  });

  it('a snapshot taken inside an open read transaction loads too', () => {
    db.exec('BEGIN DEFERRED');
    try {
      expect(VectorIndex.load(db, DIM).size).toBe(index.size);
    } finally {
      db.exec('ROLLBACK');
    }
  });
});
