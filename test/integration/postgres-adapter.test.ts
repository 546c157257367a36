// The PostgreSQL adapter on its own (PGlite over a socket): a document bundle comes back exactly as written, KBs
// are kept apart by their id, and a writer that read an older generation is refused instead of overwriting.
import { describe, expect, it } from 'vitest';
import type { DocumentBundle } from '../../src/core/index-storage.js';
import { PostgresStorage } from '../../src/store/postgres/pg-storage.js';
import { usePgliteServer } from '../support/pglite-server.js';

const pgServer = usePgliteServer();

function bundle(id: number, path: string): DocumentBundle {
  const chunkId = id * 10;
  return {
    document: {
      id,
      path,
      title: `Title ${id}`,
      topic: null,
      category: 'notes',
      date: null,
      tags: '["a"]',
      metadata: '{}',
      frontmatter_error: null,
      content_hash: `hash-${id}`,
      size_bytes: 5_000_000_000, // above 2^31: bigint read back as a number
      mtime_ms: 1733140000123.5,
      last_indexed: '2026-12-02T00:00:00.000Z',
    },
    chunks: [
      {
        id: chunkId,
        document_id: id,
        chunk_index: 0,
        heading: 'Intro',
        level: 1,
        context: 'Title',
        content: 'Some text 東京',
        byte_start: 0,
        byte_end: 20,
        token_count: 4,
        quality_score: 0.75,
        embed_key: `key-${id}`,
      },
    ],
    wordCounts: [{ chunk_id: chunkId, counts: Buffer.from([1, 2, 0, 0, 1]) }],
    vectors: new Map([[chunkId, Float32Array.from([0.1, -0.2, 1 / 3, 1e-8])]]),
    queue: [],
    links: [
      {
        document_id: id,
        position: 0,
        kind: 'wikilink',
        written: '[[Other]]',
        target: 'Other',
        anchored: 0,
        heading: null,
        name_key: 'other',
      },
    ],
    names: [{ name: `title-${id}`, document_id: id }],
  };
}

async function open(kb: string) {
  const storage = await PostgresStorage.open({ url: pgServer().url, kb });
  await storage.requireVectors();
  return storage;
}

describe('PostgresStorage', () => {
  it('returns a written bundle exactly, floats and bytes included, under its KB only', async () => {
    const writer = await open('round-trip');
    const other = await open('round-trip-other');
    try {
      expect(await writer.readContents()).toBeNull();
      await writer.beginWriteBack(0);
      await writer.addTerms(new Map([['text', 1]]));
      const written = bundle(1, 'a.md');
      await writer.replaceDocument(written, []);
      await writer.writeMeta(new Map([['model', 'none']]));
      await writer.endWriteBack();
      const read = await writer.readContents();
      expect(read?.documents).toEqual([written]);
      expect(read?.terms).toEqual(new Map([['text', 1]]));
      expect(read?.meta).toEqual(new Map([['model', 'none']]));
      expect(await other.readContents()).toBeNull();
    } finally {
      await writer.close();
      await other.close();
    }
  });

  it('refuses a writer whose read is older than the last write (INDEX_BUSY), and replaces by path', async () => {
    const first = await open('contended');
    const second = await open('contended');
    try {
      await first.readContents();
      await first.beginWriteBack(0);
      await first.replaceDocument(bundle(1, 'a.md'), []);
      await first.endWriteBack();
      const seenByBoth = (await first.readContents())!.generation;
      expect((await second.readContents())!.generation).toBe(seenByBoth);
      await first.beginWriteBack(seenByBoth);
      await expect(second.beginWriteBack(seenByBoth)).rejects.toMatchObject({ code: 'INDEX_BUSY' });
      // A rewrite of the same path under a new id replaces the old rows in one transaction.
      await first.replaceDocument(bundle(2, 'a.md'), []);
      await first.endWriteBack();
      const documents = (await second.readContents())!.documents;
      expect(documents.map((d) => [d.document.id, d.document.path])).toEqual([[2, 'a.md']]);
      expect(documents[0]!.chunks.map((c) => c.id)).toEqual([20]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
