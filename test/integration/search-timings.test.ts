// `timings_ms` on a real search asked for it (`timings: true`): each stage that ran has a non-negative time, a
// stage switched off per call (or left out by `legs`) has none, a search not asking has no timings at all, and a vector leg asked for on a lexical-only index is reported in `legs`, not
// timed and not an error. Times are never compared with numbers: only their presence and sign.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { searchResponseToJson } from '../../src/app/search/search-types.js';
import type { Embedder, Reranker } from '../../src/types.js';
import { type TempKb, threeNoteFiles, useTempKbs } from '../support/temp-kb.js';
import { ensureTinyModel, keptOpen, openTinyEmbedder } from '../support/test-models.js';

let model: Embedder;
beforeAll(async () => {
  model = await openTinyEmbedder();
});
afterAll(() => model.close());

const createKb = useTempKbs();

async function searchAll(temp: TempKb, embedder: Embedder | null, requests: Record<string, unknown>[]) {
  const overrides = embedder
    ? { modelDir: ensureTinyModel('embed'), rerankByDefault: false }
    : { model: 'none', rerankByDefault: false };
  const facade = openKnowledgeBase(temp.config({ overrides }), { createEmbedder: async () => embedder });
  try {
    await facade.index();
    const out = [];
    for (const request of requests) {
      out.push(await facade.search({ query: 'alphaalpha', timings: true, ...request }));
    }
    return out;
  } finally {
    await facade.close();
  }
}

function timedStages(response: { timingsMs?: Record<string, number> }): string[] {
  const timings = response.timingsMs!;
  for (const ms of Object.values(timings)) {
    expect(typeof ms).toBe('number');
    expect(ms).toBeGreaterThanOrEqual(0);
  }
  return Object.keys(timings);
}

describe('search timings_ms', () => {
  it('times the stages each call runs and only those', async () => {
    const [plain, everything, lexicalAlone, vectorAlone, untimed] = await searchAll(
      createKb(threeNoteFiles()),
      keptOpen(model),
      [
        {},
        { mmr: true, fold: 'section', parentRetriever: true, boost: true, graph: true },
        { legs: 'lexical', fold: 'none' },
        { legs: 'vector' },
        { timings: false },
      ],
    );
    // Folding is on by default ([search] fold); a call can switch it off.
    expect(timedStages(plain!)).toEqual(['lexical', 'vector', 'fusion', 'fold', 'total']);
    expect(timedStages(everything!)).toEqual([
      'lexical',
      'vector',
      'fusion',
      'boost',
      'graph',
      'fold',
      'mmr',
      'parent',
      'total',
    ]);
    expect(timedStages(lexicalAlone!)).toEqual(['lexical', 'fusion', 'total']);
    expect(timedStages(vectorAlone!)).toEqual(['vector', 'fusion', 'fold', 'total']);
    expect(untimed!.timingsMs).toBeUndefined();
    expect(searchResponseToJson(untimed!)).not.toHaveProperty('timings_ms');
    expect(untimed!.results.map((h) => h.chunkId)).toEqual(plain!.results.map((h) => h.chunkId));
    const json = searchResponseToJson(plain!);
    expect(Object.keys(json)).toContain('timings_ms');
    expect(Object.keys(json.timings_ms as object)).toEqual(['lexical', 'vector', 'fusion', 'fold', 'total']);
  });

  it('on a lexical-only index a vector leg asked for is reported in legs, untimed, not an error', async () => {
    const [vectorAlone, plain] = await searchAll(createKb(threeNoteFiles()), null, [{ legs: 'vector' }, {}]);
    expect(vectorAlone!.results).toEqual([]);
    expect(vectorAlone!.legs.vector.status).toBe('disabled');
    expect(vectorAlone!.legs.vector.reason).toMatch(/^no embedding model/);
    expect(timedStages(vectorAlone!)).toEqual(['fusion', 'fold', 'total']);
    expect(timedStages(plain!)).toEqual(['lexical', 'fusion', 'fold', 'total']);
  });

  it('times the reranker when a call asks for it, and not when it switches it off', async () => {
    const reranker: Reranker = {
      id: 'test-length',
      score: async (_query, passages) => passages.map((p) => p.length),
      close: async () => {},
    };
    const temp = createKb(threeNoteFiles());
    const facade = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }), {
      createReranker: async () => reranker,
    });
    try {
      await facade.index();
      const reranked = await facade.search({ query: 'alphaalpha', rerank: true, timings: true });
      expect(reranked.legs.reranker.status).toBe('ok');
      expect(timedStages(reranked)).toContain('rerank');
      const plain = await facade.search({ query: 'alphaalpha', rerank: false, timings: true });
      expect(timedStages(plain)).not.toContain('rerank');
    } finally {
      await facade.close();
    }
  });
});
