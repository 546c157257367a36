// The per-call `legs` switch on a real index embedded by a generated ONNX model: both legs, the lexical leg
// alone (the query is never embedded), the vector leg alone (no keyword search), and the vector leg asked for
// on a lexical-only index (no results, the reason in `legs.vector`, not an error).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { searchResponseToJson } from '../../src/app/search/search-types.js';
import type { Embedder } from '../../src/types.js';
import { type TempKb, threeNoteFiles, useTempKbs } from '../support/temp-kb.js';
import { ensureTinyModel, keptOpen, openTinyEmbedder } from '../support/test-models.js';

let model: Embedder;
beforeAll(async () => {
  model = await openTinyEmbedder();
});
afterAll(() => model.close());

/** The real model, counting the queries it embeds, left open when a facade closes. */
function countingQueries(): Embedder & { queries: string[] } {
  const queries: string[] = [];
  return { ...keptOpen(model, (text) => queries.push(text)), queries };
}

const createKb = useTempKbs();

async function searchWith(temp: TempKb, embedder: Embedder | null, request: Record<string, unknown>) {
  const overrides = embedder
    ? { modelDir: ensureTinyModel('embed'), rerankByDefault: false }
    : { model: 'none', rerankByDefault: false };
  const facade = openKnowledgeBase(temp.config({ overrides }), {
    createEmbedder: async () => embedder,
  });
  try {
    await facade.index();
    return await facade.search({ query: 'alphaalpha', explain: true, ...request });
  } finally {
    await facade.close();
  }
}

const legNames = (ranks: Record<string, number>) => Object.keys(ranks).sort();

describe('search legs: which retrieval legs run', () => {
  it('both (the default) embeds the query and fuses both legs', async () => {
    const embedder = countingQueries();
    const response = await searchWith(createKb(threeNoteFiles()), embedder, {});
    expect(embedder.queries).toEqual(['alphaalpha']);
    expect(response.legs.lexical.status).toBe('ok');
    expect(response.legs.vector.status).toBe('ok');
    expect(response.legs.lexical).not.toHaveProperty('reason');
    expect(response.legs.vector).not.toHaveProperty('reason');
    expect(legNames(response.results[0]!.explain!.ranks)).toEqual(['lexical', 'vector']);

    const explicit = countingQueries();
    const same = await searchWith(createKb(threeNoteFiles()), explicit, { legs: 'both' });
    expect(same.results.map((hit) => [hit.path, hit.score])).toEqual(
      response.results.map((hit) => [hit.path, hit.score]),
    );
  });

  it('lexical runs the keyword leg alone: the query is never embedded', async () => {
    const embedder = countingQueries();
    const response = await searchWith(createKb(threeNoteFiles()), embedder, { legs: 'lexical' });
    expect(embedder.queries).toEqual([]);
    expect(response.legs.lexical.status).toBe('ok');
    expect(response.legs.vector).toEqual({
      status: 'disabled',
      candidates: 0,
      reason: 'not run: the request asked for legs: lexical',
    });
    expect(response.results[0]!.path).toBe('notes/alpha.md');
    for (const hit of response.results) expect(legNames(hit.explain!.ranks)).toEqual(['lexical']);
    // The score is the lexical leg's RRF contribution: 1 / (k + rank).
    expect(response.results[0]!.score).toBeCloseTo(1 / (60 + 1), 10);
    expect(typeof response.lowConfidence).toBe('boolean');
    expect(searchResponseToJson(response).legs).toMatchObject({
      vector: { status: 'disabled', reason: 'not run: the request asked for legs: lexical' },
    });
  });

  it('vector runs the vector leg alone: no keyword search, only vector ranks', async () => {
    const embedder = countingQueries();
    const response = await searchWith(createKb(threeNoteFiles()), embedder, { legs: 'vector' });
    expect(embedder.queries).toEqual(['alphaalpha']);
    expect(response.legs.vector.status).toBe('ok');
    expect(response.legs.lexical).toEqual({
      status: 'disabled',
      candidates: 0,
      reason: 'not run: the request asked for legs: vector',
    });
    expect(response.results.length).toBeGreaterThan(0);
    for (const hit of response.results) {
      expect(legNames(hit.explain!.ranks)).toEqual(['vector']);
      expect(hit.explain!.lexicalSource).toBeNull();
    }
  });

  it('one leg still folds: each section is listed once', async () => {
    const embedder = countingQueries();
    const response = await searchWith(createKb(threeNoteFiles()), embedder, {
      legs: 'vector',
      fold: 'document',
    });
    const paths = response.results.map((hit) => hit.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('vector on a lexical-only index answers no results and says why, without an error', async () => {
    const response = await searchWith(createKb(threeNoteFiles()), null, { legs: 'vector' });
    expect(response.results).toEqual([]);
    // Nothing answered, so nothing vouches for an answer.
    expect(response.confidence).toBe(0);
    expect(response.lowConfidence).toBe(true);
    expect(response.lexicalOnly).toBe(true);
    expect(response.legs.lexical).toEqual({
      status: 'disabled',
      candidates: 0,
      reason: 'not run: the request asked for legs: vector',
    });
    expect(response.legs.vector.status).toBe('disabled');
    expect(response.legs.vector.reason).toMatch(/^no embedding model: this index is lexical-only/);
  });

  it('lexical on a lexical-only index is the plain lexical search; its vector leg names the request', async () => {
    const temp = createKb(threeNoteFiles());
    const plain = await searchWith(temp, null, {});
    const lexical = await searchWith(temp, null, { legs: 'lexical' });
    expect(lexical.results).toEqual(plain.results);
    expect(plain.legs.vector).toEqual({ status: 'disabled', candidates: 0 });
    expect(lexical.legs.vector.reason).toBe('not run: the request asked for legs: lexical');
  });

  it('refuses a value that is not a leg choice', async () => {
    await expect(searchWith(createKb(threeNoteFiles()), null, { legs: 'keyword' })).rejects.toThrow(
      /legs must be one of both, lexical, vector/,
    );
  });
});
