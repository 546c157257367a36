// What a reader replica does with a batch of commits, against PGlite (pgvector) over a real socket: it reads only
// what changed against its working copy and applies it there. Oracle: after added, rewritten, renamed and removed
// files and vectors stored behind the text, the incrementally updated working copy holds exactly what a fresh
// whole read holds, and its already-open search session ranks hybrid queries exactly as a fresh one. (The writer
// role and the listener need a real server: test/integration/postgres/serve-replicas.test.ts.)
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { segmentForIndex } from '../../src/rank/segment-words.js';
import { readChangesSince, readCommittedVersion } from '../../src/store/postgres/commit-notices.js';
import { PostgresStorage } from '../../src/store/postgres/pg-storage.js';
import { applyDelta, knownContents } from '../../src/store/working-copy.js';
import { HashEmbedder } from '../support/hash-embedder.js';
import { usePgliteServer } from '../support/pglite-server.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';
import { withOwnCache, workingCopyContents } from '../support/working-copy-contents.js';

const pgServer = usePgliteServer();
const KB = 'replica-apply';

function openPostgres(temp: TempKb) {
  // One chunk per inference batch, so a paused run leaves most of the queue for later.
  const toml = `model = "hash"\n[embedding]\nbatch_size = 1\n[storage]\nbackend = "postgres"\nurl = "${pgServer().url}"\nkb = "${KB}"\n`;
  return openKnowledgeBase(temp.config({ toml }), { createEmbedder: async () => new HashEmbedder() });
}

async function rankings(kb: ReturnType<typeof openKnowledgeBase>, queries: string[]) {
  const out: unknown[] = [];
  for (const query of queries) {
    const response = await kb.search({ query, limit: 8 });
    out.push(response.results.map((r) => [r.path, r.heading, r.score.toFixed(6)]));
  }
  return out;
}

const QUERIES = [
  'note3alpha',
  'second section details',
  'rewrittenword',
  'note17beta plenty',
  'renamed note',
];

describe('a reader replica applies commits to its working copy', () => {
  it('ends up exactly where a fresh read of the store is, and ranks alike', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`notes/note${i}.md`, noteText(`note${i}`)]),
    );
    const temp = createTempKb(files);
    const writer = openPostgres(temp);
    const reader = openPostgres(temp);
    const storage = await PostgresStorage.open({ url: pgServer().url, kb: KB });
    const client = new pg.Client({ connectionString: pgServer().url });
    await client.connect();
    try {
      // The first index stops embedding after one batch: the rest of the vectors come later, behind the text.
      await writer.index({ shouldPauseEmbedding: () => true });
      const queued = await pgServer().query<{ n: number }>(
        'SELECT count(*)::int AS n FROM groove_embedding_queue',
      );
      expect(queued[0]!.n).toBeGreaterThan(0);
      await reader.search({ query: 'note1alpha' }); // the reader's working copy and search session are open
      let applied = await readCommittedVersion(client, KB);

      const catchUp = async () => {
        const batch = await readChangesSince(client, KB, applied);
        expect(batch.kind).toBe('changes');
        if (batch.kind !== 'changes') return;
        const touched = batch.changes.filter((c) => c.op === 'upsert').map((c) => c.chunkId);
        const db = new Database(reader.dbPath);
        try {
          const delta = await storage.readDelta(knownContents(db, touched));
          applyDelta(db, delta!, segmentForIndex);
        } finally {
          db.close();
        }
        applied = batch.toVersion;
      };
      const fresh = async () => {
        const kb = withOwnCache(() => openPostgres(temp)); // a whole read of the store
        await kb.describe();
        return kb;
      };

      // Added, rewritten, renamed and removed files, and the vectors of unchanged files stored behind.
      temp.write('notes/new.md', noteText('new'));
      temp.write('notes/note2.md', noteText('note2').replace('note2alpha', 'rewrittenword'));
      temp.move('notes/note5.md', 'renamed/note5.md');
      temp.remove('notes/note9.md');
      await writer.index();
      await catchUp();
      const oracle = await fresh();
      try {
        const expected = workingCopyContents(oracle.dbPath);
        // Every chunk's vector reached the store, also those embedded behind the text of unchanged files.
        expect(
          expected.documents.every((d) => d.chunks.length > 0 && d.vectors.size === d.chunks.length),
        ).toBe(true);
        expect(expected.documents.every((d) => d.queue.length === 0)).toBe(true);
        expect(workingCopyContents(reader.dbPath)).toEqual(expected);
        expect(await rankings(reader, QUERIES)).toEqual(await rankings(oracle, QUERIES));
        expect((await reader.search({ query: 'rewrittenword', limit: 1 })).results[0]?.path).toBe(
          'notes/note2.md',
        );
      } finally {
        await oracle.close();
      }

      // Nothing new: applying again changes nothing.
      await catchUp();
      const again = await fresh();
      try {
        expect(workingCopyContents(reader.dbPath)).toEqual(workingCopyContents(again.dbPath));
      } finally {
        await again.close();
      }
    } finally {
      await client.end();
      await storage.close();
      await writer.close();
      await reader.close();
      temp.cleanup();
    }
  });
});
