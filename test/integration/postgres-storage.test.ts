// The PostgreSQL backend end to end through the facade, against PGlite over a real socket: what is stored per KB,
// incremental runs, search results identical to the SQLite backend's, unreachable servers and refused commands.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { isGrooveError } from '../../src/errors.js';
import type { Embedder } from '../../src/types.js';
import { startCuttingProxy } from '../support/cutting-proxy.js';
import { HashEmbedder } from '../support/hash-embedder.js';
import { usePgliteServer } from '../support/pglite-server.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';
import { ensureTinyModel } from '../support/test-models.js';

const pgServer = usePgliteServer();

const NOTES: Record<string, string> = {
  'guides/reset-password.md':
    '# Reset a password\n\nOpen settings, choose security, then reset the password.\n',
  'guides/deploy.md':
    '# Deploy\n\n## Staging\n\nRun the deploy script against staging first.\n\n## Production\n\nDeploy to production after the staging checks pass.\n',
  'notes/tokyo.md': '# 東京の売上\n\n東京の売上は前年比10%増加しました。\n',
  'notes/links.md': '# Links\n\nSee [[reset-password]] and [deploy](../guides/deploy.md).\n',
};

function tomlFor(kb: string, model = 'none'): string {
  return `model = "${model}"\n[storage]\nbackend = "postgres"\nurl = "${pgServer().url}"\nkb = "${kb}"\n`;
}

function openPostgres(temp: TempKb, kb: string, embedder?: Embedder) {
  const deps = embedder ? { createEmbedder: async () => embedder } : {};
  return openKnowledgeBase(temp.config({ toml: tomlFor(kb, embedder ? 'hash' : 'none') }), deps);
}

function openSqlite(temp: TempKb, embedder?: Embedder) {
  const deps = embedder ? { createEmbedder: async () => embedder } : {};
  return openKnowledgeBase(temp.config({ overrides: { model: embedder ? 'hash' : 'none' } }), deps);
}

/** The ranked paths, headings and scores of each query. */
async function rankings(kb: ReturnType<typeof openKnowledgeBase>, queries: string[]) {
  const out: unknown[] = [];
  for (const query of queries) {
    const response = await kb.search({ query, limit: 10 });
    out.push(response.results.map((r) => [r.path, r.heading, r.score]));
  }
  return out;
}

/** Paths and chunk counts the store holds for one KB. */
async function storedFiles(kb: string) {
  return pgServer().query<{ path: string; chunks: number }>(
    `SELECT d.path, count(c.id)::int AS chunks FROM groove_documents d
     JOIN groove_kbs k ON k.id = d.kb_id LEFT JOIN groove_chunks c ON c.kb_id = d.kb_id AND c.document_id = d.id
     WHERE k.name = $1 GROUP BY d.path ORDER BY d.path`,
    [kb],
  );
}

const QUERIES = ['reset password', 'deploy staging', '売上', 'production checks', 'settings security'];

describe('postgres backend: index, status, search', () => {
  it('stores one KB under its name and ranks exactly as the SQLite backend', async () => {
    const temp = createTempKb(NOTES);
    const pg = openPostgres(temp, 'lexical');
    const lite = openSqlite(temp);
    try {
      const summary = await pg.index();
      expect(summary.indexed).toBe(4);
      await lite.index();
      const status = await pg.describe();
      expect(status.storage.backend).toBe('postgres');
      expect(status.storage.location).toContain(`127.0.0.1:${pgServer().port}`);
      expect(status.storage.location).not.toContain('not-a-secret');
      expect(status.documents).toBe(4);
      expect(status.links).toBe(2);
      expect((await storedFiles('lexical')).map((f) => f.path)).toEqual(Object.keys(NOTES).sort());
      expect(await rankings(pg, QUERIES)).toEqual(await rankings(lite, QUERIES));
    } finally {
      await pg.close();
      await lite.close();
      temp.cleanup();
    }
  });

  it('an incremental run writes only what changed and still ranks as SQLite does', async () => {
    const temp = createTempKb(NOTES);
    const first = openPostgres(temp, 'incremental');
    await first.index();
    await first.close();
    temp.write('guides/deploy.md', '# Deploy\n\nDeploy with the blue-green script; staging is gone.\n');
    temp.remove('notes/tokyo.md');
    temp.write('notes/new.md', '# New\n\nA new note about password policies.\n');
    const second = openPostgres(temp, 'incremental');
    const lite = openSqlite(temp);
    try {
      const summary = await second.index();
      expect(summary).toMatchObject({ indexed: 1, updated: 1, deleted: 1, unchanged: 2 });
      const again = await second.index();
      expect(again).toMatchObject({ indexed: 0, updated: 0, deleted: 0, unchanged: 4 });
      await lite.index();
      expect((await storedFiles('incremental')).map((f) => f.path)).toEqual([
        'guides/deploy.md',
        'guides/reset-password.md',
        'notes/links.md',
        'notes/new.md',
      ]);
      const queries = [...QUERIES, 'blue-green', 'password policies'];
      expect(await rankings(second, queries)).toEqual(await rankings(lite, queries));
    } finally {
      await second.close();
      await lite.close();
      temp.cleanup();
    }
  });

  it('stores vectors bit for bit and ranks hybrid searches, tune and browse exactly as SQLite does', async () => {
    const temp = createTempKb(NOTES);
    const pg = openPostgres(temp, 'hybrid', new HashEmbedder({ dimension: 64 }));
    const lite = openSqlite(temp, new HashEmbedder({ dimension: 64 }));
    try {
      await pg.index();
      await lite.index();
      const status = await pg.describe();
      expect(status).toMatchObject({ vectors: status.chunks, dimension: 64, pendingEmbeddings: 0 });
      // What PostgreSQL holds is exactly what the SQLite index holds for the same chunk text.
      const stored = await pgServer().query<{ embed_key: string; embedding: number[] }>(
        `SELECT c.embed_key, v.embedding::real[] AS embedding FROM groove_chunk_vectors v
         JOIN groove_chunks c ON c.kb_id = v.kb_id AND c.id = v.chunk_id
         JOIN groove_kbs k ON k.id = v.kb_id WHERE k.name = 'hybrid'`,
      );
      const local = new Map(
        [...temp.documents().values()].flatMap((d) => d.chunks.map((c) => [c.embedKey, c.vector] as const)),
      );
      expect(stored.length).toBe(status.chunks);
      for (const row of stored) {
        const bytes = Buffer.from(Float32Array.from(row.embedding).buffer);
        expect(bytes.equals(local.get(row.embed_key)!)).toBe(true);
      }
      expect(await rankings(pg, QUERIES)).toEqual(await rankings(lite, QUERIES));
      expect(await pg.listTopics()).toEqual(await lite.listTopics());
      expect(await pg.getDocument('guides/deploy.md')).toEqual(await lite.getDocument('guides/deploy.md'));
      const graph = { start: 'guides/deploy.md', depth: 1 };
      // Everything but the time it took.
      const graphOf = async (kb: ReturnType<typeof openKnowledgeBase>) => {
        const result = await kb.connectionGraph(graph);
        return result.ok ? { ...result.graph, stats: { ...result.graph.stats, durationMs: 0 } } : result;
      };
      expect(await graphOf(pg)).toEqual(await graphOf(lite));
      const golden = path.join(temp.root, 'golden.yml');
      fs.writeFileSync(
        golden,
        'queries:\n  - query: "reset the password"\n    expected:\n      - path: guides/reset-password.md\n' +
          '  - query: "staging deploy"\n    expected:\n      - path: guides/deploy.md\n',
      );
      const [pgTune, liteTune] = [await pg.tune({ golden }), await lite.tune({ golden })];
      expect(pgTune.kind).toBe('report');
      if (pgTune.kind !== 'report' || liteTune.kind !== 'report') return;
      expect(pgTune.report.grid).toEqual(liteTune.report.grid);
    } finally {
      await pg.close();
      await lite.close();
      temp.cleanup();
    }
  });

  it('with the generated ONNX model: hybrid rankings match SQLite, scores within 1e-6', async () => {
    const temp = createTempKb(NOTES);
    const modelDir = ensureTinyModel('embed');
    const toml = tomlFor('onnx').replace('model = "none"\n', '');
    const pg = openKnowledgeBase(temp.config({ toml, overrides: { modelDir } }));
    const lite = openKnowledgeBase(temp.config({ overrides: { modelDir } }));
    try {
      await pg.index();
      await lite.index();
      const status = await pg.describe();
      expect(status.vectors).toBe(status.chunks);
      expect(status.dimension).toBeGreaterThan(0);
      const [a, b] = [await rankings(pg, QUERIES), await rankings(lite, QUERIES)];
      // Same order and paths; scores equal up to float noise: each backend ran the model itself.
      const order = (r: unknown[]) =>
        (r as [string, string | null, number][][]).map((q) => q.map(([p, h]) => [p, h]));
      expect(order(a)).toEqual(order(b));
      const scores = (r: unknown[]) =>
        (r as [string, string | null, number][][]).flatMap((q) => q.map(([, , s]) => s));
      scores(a).forEach((score, i) => {
        expect(Math.abs(score - scores(b)[i]!)).toBeLessThan(1e-6);
      });
    } finally {
      await pg.close();
      await lite.close();
      temp.cleanup();
    }
  });

  it('--force builds into a new KB id and swaps it in under the same name', async () => {
    const temp = createTempKb(NOTES);
    const kb = openPostgres(temp, 'forced');
    const lite = openSqlite(temp);
    const kbRows = () =>
      pgServer().query<{ id: number; name: string }>(
        `SELECT id, name FROM groove_kbs WHERE starts_with(name, 'forced') ORDER BY id`,
      );
    try {
      await kb.index();
      const [before] = await kbRows();
      // A judgment recorded against the old index (as another groove would store it) survives the rebuild.
      await pgServer().query(
        `INSERT INTO groove_feedback_serves(kb_id, id, recorded_at, task_id, query) VALUES ($1, 1, 'x', 't1', 'deploy')`,
        [before!.id],
      );
      await pgServer().query(
        `INSERT INTO groove_feedback_items(kb_id, serve_id, position, path, heading, verdict, always_served)
         VALUES ($1, 1, 0, 'guides/deploy.md', NULL, 'helped', 0)`,
        [before!.id],
      );
      temp.write('notes/new.md', '# New\n\nA new note about password policies and rotation.\n');
      expect(await kb.index({ force: true })).toMatchObject({ indexed: 5, unchanged: 0 });
      const after = await kbRows();
      expect(after.map((row) => row.name)).toEqual(['forced']);
      expect(after[0]!.id).not.toBe(before!.id);
      const judgments = await pgServer().query<{ path: string; verdict: string }>(
        'SELECT path, verdict FROM groove_feedback_items WHERE kb_id = $1',
        [after[0]!.id],
      );
      expect(judgments).toEqual([{ path: 'guides/deploy.md', verdict: 'helped' }]);
      expect((await kb.describe()).documents).toBe(5);
      await lite.index();
      const queries = [...QUERIES, 'password policies'];
      expect(await rankings(kb, queries)).toEqual(await rankings(lite, queries));
    } finally {
      await kb.close();
      await lite.close();
      temp.cleanup();
    }
  });

  it('keeps two KBs in one database apart', async () => {
    const one = createTempKb({ 'a.md': '# Alpha\n\nalpha only\n' });
    const two = createTempKb({ 'b.md': '# Beta\n\nbeta only\n', 'c.md': '# Gamma\n\ngamma only\n' });
    const kbOne = openPostgres(one, 'kb-one');
    const kbTwo = openPostgres(two, 'kb-two');
    try {
      await kbOne.index();
      await kbTwo.index();
      expect((await kbOne.describe()).documents).toBe(1);
      expect((await kbTwo.describe()).documents).toBe(2);
      expect((await kbOne.search({ query: 'beta' })).results).toEqual([]);
    } finally {
      await kbOne.close();
      await kbTwo.close();
      one.cleanup();
      two.cleanup();
    }
  });

  it('says plainly what is not supported yet, and that a KB was never indexed', async () => {
    const temp = createTempKb(NOTES);
    const kb = openPostgres(temp, 'never-indexed');
    try {
      await expect(kb.search({ query: 'password' })).rejects.toMatchObject({ code: 'INDEX_NOT_FOUND' });
      await expect(kb.recordFeedback({ taskId: 't', query: 'q', items: [] })).rejects.toMatchObject({
        code: 'STORAGE_UNSUPPORTED',
      });
      expect(() => kb.doctor()).toThrow(expect.objectContaining({ code: 'STORAGE_UNSUPPORTED' }));
      // A server may start before the first index: the replica holding the writer role makes it.
      await expect(kb.warmUp()).resolves.toBeNull();
    } finally {
      await kb.close();
      temp.cleanup();
    }
  });
});

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('postgres backend: an unreachable server', () => {
  it('fails with STORAGE_UNREACHABLE naming host:port and the fix, never the password', async () => {
    const port = await closedPort();
    const temp = createTempKb(NOTES);
    const url = `postgres://groove:hunter2-secret@127.0.0.1:${port}/groove`;
    const kb = openKnowledgeBase(
      temp.config({ toml: `model = "none"\n[storage]\nbackend = "postgres"\nurl = "${url}"\n` }),
    );
    try {
      const failure = await kb.index().then(
        () => null,
        (error: unknown) => error,
      );
      expect(isGrooveError(failure)).toBe(true);
      if (!isGrooveError(failure)) return;
      expect(failure.code).toBe('STORAGE_UNREACHABLE');
      expect(failure.toLine()).toContain(`127.0.0.1:${port}`);
      expect(failure.toLine()).toContain('GROOVE_DATABASE_URL');
      expect(failure.toLine()).not.toContain('hunter2');
      expect(failure.toLine()).not.toContain('ECONNREFUSED');
    } finally {
      await kb.close();
      temp.cleanup();
    }
  });
});

describe('postgres backend: a connection dropped while writing', () => {
  it('retries the file on a new connection and finishes', async () => {
    const proxy = await startCuttingProxy({ host: pgServer().host, port: pgServer().port });
    const temp = createTempKb(NOTES);
    const url = `postgres://postgres@127.0.0.1:${proxy.port}/postgres`;
    const toml = `model = "none"\n[storage]\nbackend = "postgres"\nurl = "${url}"\nkb = "retried"\n`;
    const kb = openKnowledgeBase(temp.config({ toml }));
    try {
      proxy.cutAt = 'guides/deploy.md';
      expect(await kb.index()).toMatchObject({ indexed: 4 });
      expect(proxy.cuts).toBe(1);
      const files = await storedFiles('retried');
      expect(files.map((f) => f.path)).toEqual(Object.keys(NOTES).sort());
      expect(files.find((f) => f.path === 'guides/deploy.md')?.chunks).toBe(2); // Staging and Production
    } finally {
      await kb.close();
      await proxy.close();
      temp.cleanup();
    }
  });

  it('fails with STORAGE_UNREACHABLE when the server stays away, leaving every file whole or absent', async () => {
    const proxy = await startCuttingProxy({ host: pgServer().host, port: pgServer().port });
    const temp = createTempKb(NOTES);
    const url = `postgres://postgres:s3cret-pw@127.0.0.1:${proxy.port}/postgres`;
    const toml = `model = "none"\n[storage]\nbackend = "postgres"\nurl = "${url}"\nkb = "cut"\n`;
    const first = openKnowledgeBase(temp.config({ toml }));
    try {
      proxy.cutAt = 'guides/reset-password.md';
      proxy.stayDownAfterCut = true;
      const failure = await first.index().catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'STORAGE_UNREACHABLE' });
      expect((failure as { toLine(): string }).toLine()).toContain(`127.0.0.1:${proxy.port}`);
      expect((failure as { toLine(): string }).toLine()).not.toContain('s3cret-pw');
      const partial = await storedFiles('cut');
      expect(partial.map((f) => f.path)).not.toContain('guides/reset-password.md');
      // Every file the store holds is whole: the deploy note has both its sections or is not there at all.
      for (const file of partial) expect(file.chunks).toBeGreaterThan(0);
    } finally {
      await first.close();
    }
    proxy.refusing = false;
    const second = openKnowledgeBase(temp.config({ toml }));
    try {
      await second.index();
      const files = await storedFiles('cut');
      expect(files.map((f) => f.path)).toEqual(Object.keys(NOTES).sort());
      expect(files.find((f) => f.path === 'guides/deploy.md')?.chunks).toBe(2); // Staging and Production
    } finally {
      await second.close();
      await proxy.close();
      temp.cleanup();
    }
  });
});
