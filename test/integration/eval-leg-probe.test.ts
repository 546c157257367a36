// The leg probe before eval, against real indexes broken in the ways benchmarks have been fooled: a dropped
// vector table, an embedding endpoint that is down, a corrupted and an emptied FTS index, a failing
// cross-encoder, and a leg that dies half-way through. Each refuses (COMPONENT_DOWN) unless --allow-degraded,
// and no broken leg ever shows up as an `ok` empty list in a plain search.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type KnowledgeBaseDeps, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import type { Embedder, Reranker } from '../../src/types.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { type TempKb, threeNoteFiles, useTempKbs } from '../support/temp-kb.js';

const GOLDEN = `queries:
  - id: alpha
    query: "talks about alphaalpha"
    expected:
      - path: notes/alpha.md
  - id: beta
    query: "mentions betabeta"
    expected:
      - path: notes/beta.md
  - id: gamma
    query: "gammaalpha section"
    expected:
      - path: notes/gamma.md
`;

const createKb = useTempKbs();
const makeKb = (): TempKb => createKb(threeNoteFiles({ '.groove-eval.yml': GOLDEN }));

const counting = async (): Promise<Embedder> => new CountingEmbedder();

async function indexWith(temp: TempKb, deps: KnowledgeBaseDeps, overrides = {}): Promise<void> {
  const facade = openKnowledgeBase(temp.config({ overrides }), deps);
  try {
    await facade.index();
  } finally {
    await facade.close();
  }
}

async function withFacade<T>(
  temp: TempKb,
  deps: KnowledgeBaseDeps,
  work: (facade: ReturnType<typeof openKnowledgeBase>) => Promise<T>,
  overrides = {},
): Promise<T> {
  const facade = openKnowledgeBase(temp.config({ overrides }), deps);
  try {
    return await work(facade);
  } finally {
    await facade.close();
  }
}

function withUnsafeDb(temp: TempKb, sql: string): void {
  const db = new Database(temp.dbPath);
  db.unsafeMode(true);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

describe('leg probe: healthy legs do not fire', () => {
  it('probes with words from the index and reports every configured leg ok', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    const report = await withFacade(temp, { createEmbedder: counting }, (f) =>
      f.evaluate({ history: false }),
    );
    expect(report.probe.down).toEqual([]);
    expect(report.probe.legs).toEqual({
      lexical: { status: 'ok', candidates: expect.any(Number) },
      vector: { status: 'ok', candidates: expect.any(Number) },
      reranker: { status: 'disabled', candidates: 0 },
    });
    expect(report.probe.legs.lexical.candidates).toBeGreaterThan(0);
    expect(report.probe.query).toMatch(/^(\S+ ){2,}\S+$/);
    expect(report.run.fingerprint.degraded).toBeUndefined();
    expect(report.run.degradation).toBeUndefined();
  });

  it('does not call an unconfigured vector leg down on a lexical-only index', async () => {
    const temp = makeKb();
    await indexWith(temp, {}, { model: 'none' });
    const report = await withFacade(temp, {}, (f) => f.evaluate({ history: false }), { model: 'none' });
    expect(report.probe.legs.vector).toEqual({ status: 'disabled', candidates: 0 });
    expect(report.probe.down).toEqual([]);
  });
});

describe('leg probe: a broken leg refuses the run', () => {
  it('vector table dropped: the probe refuses, a plain search says failed, --allow-degraded records it', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    withUnsafeDb(temp, 'DROP TABLE chunk_vectors');
    await withFacade(temp, { createEmbedder: counting }, async (facade) => {
      const search = await facade.search({ query: 'alphaalpha' });
      expect(search.legs.vector).toEqual({
        status: 'failed',
        candidates: 0,
        error: 'the index has no vectors',
      });
      expect(search.legs.lexical.status).toBe('ok');
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
        code: 'COMPONENT_DOWN',
        message: expect.stringMatching(/^component down: vector — failed: the index has no vectors\./),
      });
      const degraded = await facade.evaluate({ history: false, allowDegraded: true });
      expect(degraded.run.fingerprint.degraded).toEqual(['vector']);
      expect(degraded.run.degradation).toEqual([
        { leg: 'vector', reason: 'failed: the index has no vectors' },
      ]);
      expect(degraded.probe.down.map((d) => d.leg)).toEqual(['vector']);
    });
  });

  it('an index still embedding: eval refuses to measure a partial vector leg, --allow-degraded records it', async () => {
    const temp = makeKb();
    const oneChunkPerBatch = temp.config({ toml: '[embedding]\nbatch_size = 1\n' });
    const facade = openKnowledgeBase(oneChunkPerBatch, { createEmbedder: counting });
    try {
      const paused = await facade.index({ shouldPauseEmbedding: () => true });
      expect(paused.pendingEmbeddings).toBeGreaterThan(0);
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
        code: 'COMPONENT_DOWN',
        message: expect.stringMatching(
          /^component down: vector — partial: embeddings are still being computed/,
        ),
      });
      const degraded = await facade.evaluate({ history: false, allowDegraded: true });
      expect(degraded.run.fingerprint.degraded).toEqual(['vector']);
    } finally {
      await facade.close();
    }
  });

  it('a degraded run is never compared with a healthy one, in either direction', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    const healthy = await withFacade(temp, { createEmbedder: counting }, async (f) => {
      const { report } = await f.runEval({});
      return report;
    });
    expect(healthy.comparison).toBe('none');
    withUnsafeDb(temp, 'DELETE FROM chunk_vectors');
    const degraded = await withFacade(temp, { createEmbedder: counting }, async (f) => {
      const { report } = await f.runEval({ allowDegraded: true, failOnRegression: true });
      return report;
    });
    expect(degraded.comparison).toBe('degradation-changed');
    expect(degraded.diff).toBeNull();
    expect(degraded.paired).toBeNull();
    expect(degraded.gate).toEqual({
      state: 'no-op',
      reason: 'one of the two runs was measured with a component down (--allow-degraded)',
    });
    // A forced rebuild re-embeds every chunk; the healthy run after it still does not diff with the degraded one.
    const repaired = openKnowledgeBase(temp.config(), { createEmbedder: counting });
    try {
      await repaired.index({ force: true });
      const report = await repaired.evaluate();
      expect(report.comparison).toBe('degradation-changed');
    } finally {
      await repaired.close();
    }
  });

  it('embedding endpoint down: the HTTP embedder that indexed the KB is unreachable at eval time', async () => {
    const temp = makeKb();
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const input = (JSON.parse(body) as { input: string[] }).input;
        const data = input.map((text, index) => ({
          index,
          embedding: [text.length, 1, text.charCodeAt(0), 2],
        }));
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const toml = `[embedding]
provider = "openai-compatible"
endpoint = "http://127.0.0.1:${port}/v1/embeddings"
model = "fake-embedder"
dimension = 4
max_retries = 0
timeout_seconds = 2
`;
    const config = () => temp.config({ toml });
    const indexer = openKnowledgeBase(config());
    await indexer.index();
    await indexer.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const facade = openKnowledgeBase(config());
    try {
      const search = await facade.search({ query: 'alphaalpha' });
      expect(search.legs.vector.status).toBe('failed');
      expect(search.results.length).toBeGreaterThan(0); // production degrades: lexical still answers
      const error = await facade.evaluate({ history: false }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'COMPONENT_DOWN' });
      expect((error as Error).message).toMatch(/^component down: vector — failed: /);
    } finally {
      await facade.close();
    }
  });

  it('an embedder whose embedQuery throws is down', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    const broken = async (): Promise<Embedder> =>
      Object.assign(new CountingEmbedder(), {
        embedQuery: async () => {
          throw new Error('inference session is gone');
        },
      });
    await withFacade(temp, { createEmbedder: broken }, async (facade) => {
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
        code: 'COMPONENT_DOWN',
        message: expect.stringContaining('component down: vector — failed: inference session is gone'),
      });
    });
  });

  it('trigram table corrupted, words intact: the lexical leg is partial with its error, and the probe calls it down', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    withUnsafeDb(temp, "UPDATE fts_chunks_data SET block = x'00112233445566778899' WHERE id > 10");
    await withFacade(temp, { createEmbedder: counting }, async (facade) => {
      const search = await facade.search({ query: 'alphaalpha' });
      expect(search.legs.lexical.status).toBe('partial');
      expect(search.legs.lexical.candidates).toBeGreaterThan(0);
      expect(search.legs.lexical.error).toMatch(/^trigram: .*corrupt/);
      expect(search.results.length).toBeGreaterThan(0);
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
        code: 'COMPONENT_DOWN',
        message: expect.stringMatching(/^component down: lexical — partial: trigram: /),
      });
    });
  });

  it('reports each leg as {status, candidates}: candidates are what the leg handed to fusion', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    await withFacade(temp, { createEmbedder: counting }, async (facade) => {
      const search = await facade.search({ query: 'alphaalpha', limit: 3 });
      expect(search.legs.lexical).toEqual({ status: 'ok', candidates: expect.any(Number) });
      expect(search.legs.vector).toEqual({ status: 'ok', candidates: expect.any(Number) });
      expect(search.legs.reranker).toEqual({ status: 'disabled', candidates: 0 });
      const fused = new Set(search.results.map((r) => r.chunkId));
      expect(search.legs.lexical.candidates + search.legs.vector.candidates).toBeGreaterThanOrEqual(
        fused.size,
      );
      const nothing = await facade.search({ query: 'zzqqxxnomatchword' });
      expect(nothing.legs.lexical).toEqual({ status: 'empty', candidates: 0 });
    });
  });

  it('FTS table corrupted: the lexical leg fails loudly, in search and in the probe', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    withUnsafeDb(temp, "UPDATE fts_words_data SET block = x'00112233445566778899' WHERE id > 10");
    await withFacade(temp, { createEmbedder: counting }, async (facade) => {
      const search = await facade.search({ query: 'alphaalpha' });
      // The words broke; the trigram stage still answered, so the leg is partial, never a quiet ok.
      expect(search.legs.lexical.status).toBe('partial');
      expect(search.legs.lexical.error).toMatch(/^words: .*corrupt/);
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
        code: 'COMPONENT_DOWN',
        message: expect.stringMatching(/^component down: lexical — partial: words: /),
      });
    });
  });

  it('FTS emptied without an error: the probe still catches the fake green', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    withUnsafeDb(
      temp,
      "INSERT INTO fts_words(fts_words) VALUES('delete-all'); INSERT INTO fts_chunks(fts_chunks) VALUES('delete-all');",
    );
    await withFacade(temp, { createEmbedder: counting }, async (facade) => {
      // The leg reports `empty`, not `ok`: an empty list is never dressed up as a healthy answer.
      expect((await facade.search({ query: 'alphaalpha' })).legs.lexical).toEqual({
        status: 'empty',
        candidates: 0,
      });
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
        code: 'COMPONENT_DOWN',
        message: expect.stringContaining(
          'component down: lexical — full-text search answered nothing for words copied from an indexed chunk',
        ),
      });
    });
  });

  it('a failing cross-encoder is down; without --reranker it is not probed', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    const failing = async (): Promise<Reranker> => ({
      id: 'fake-reranker',
      score: async () => {
        throw new Error('reranker endpoint refused the connection');
      },
      close: async () => {},
    });
    const deps = { createEmbedder: counting, createReranker: failing };
    await withFacade(
      temp,
      deps,
      async (facade) => {
        await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
          code: 'COMPONENT_DOWN',
          message: expect.stringContaining('component down: reranker — failed: reranker endpoint refused'),
        });
      },
      { reranker: 'fake-reranker' },
    );
    const report = await withFacade(temp, deps, (f) => f.evaluate({ history: false }));
    expect(report.probe.down).toEqual([]);
  });

  it('a leg that dies after a healthy probe still refuses: no mix of healthy and degraded queries', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    let queries = 0;
    const flaky = async (): Promise<Embedder> =>
      Object.assign(new CountingEmbedder(), {
        async embedQuery(text: string) {
          queries++;
          if (queries > 2) throw new Error('endpoint went away');
          return new CountingEmbedder().embedQuery(text);
        },
      });
    await withFacade(temp, { createEmbedder: flaky }, async (facade) => {
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
        code: 'COMPONENT_DOWN',
        message: expect.stringContaining('component down: vector — failed on 2 of 3 queries during the run'),
      });
      queries = 0;
      const degraded = await facade.evaluate({ history: false, allowDegraded: true });
      expect(degraded.probe.down).toEqual([]);
      expect(degraded.run.fingerprint.degraded).toEqual(['vector']);
      expect(degraded.legFailures).toMatchObject([{ leg: 'vector', queries: 2 }]);
    });
  });

  it('the probe on its own (what tune runs first) reports the same', async () => {
    const temp = makeKb();
    await indexWith(temp, { createEmbedder: counting });
    await withFacade(temp, { createEmbedder: counting }, async (facade) => {
      expect((await facade.probeLegs()).down).toEqual([]);
    });
    withUnsafeDb(temp, 'DELETE FROM chunk_vectors');
    await withFacade(temp, { createEmbedder: counting }, async (facade) => {
      expect((await facade.probeLegs()).down).toEqual([
        { leg: 'vector', reason: 'failed: the index has no vectors' },
      ]);
    });
  });
});
