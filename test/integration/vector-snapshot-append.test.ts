// A long-lived session while a first index embeds behind its text: after a commit that only stored vectors, its
// vector snapshot is the previous one plus those vectors (no reload of every vector), and it answers exactly as
// a session opened fresh on the same index; a text change applies the changed chunks, again without a reload.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openKnowledgeBase, type SearchResponse } from '../../src/app/index.js';
import { VectorIndex } from '../../src/store/vector-index.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { noteText, type TempKb, useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();
const QUERIES = ['n3alpha details', 'second section mentions', 'n7beta plenty of words', 'note n1'];

afterEach(() => vi.restoreAllMocks());

function makeKb(): TempKb {
  const files: Record<string, string> = {};
  for (let n = 0; n < 10; n++) files[`notes/n${n}.md`] = noteText(`n${n}`);
  return createKb(files);
}

const open = (temp: TempKb) =>
  openKnowledgeBase(temp.config({ toml: '[embedding]\nbatch_size = 1\n' }), {
    createEmbedder: async () => new CountingEmbedder(),
  });

function summarize(response: SearchResponse): string[] {
  return [
    JSON.stringify(response.legs.vector),
    ...response.results.map((r) => `${r.path}#${r.heading} ${r.score.toFixed(12)}`),
  ];
}

async function freshAnswers(temp: TempKb): Promise<string[][]> {
  const fresh = open(temp);
  try {
    return await Promise.all(
      QUERIES.map(async (query) => summarize(await fresh.search({ query, limit: 8 }))),
    );
  } finally {
    await fresh.close();
  }
}

describe('the vector snapshot of a long-lived session during an embedding stage', () => {
  it('adds what each commit stored, answers as a fresh session does, and applies a text change', async () => {
    const temp = makeKb();
    const indexer = open(temp);
    const session = open(temp);
    try {
      await indexer.index({ shouldPauseEmbedding: () => true });
      await session.search({ query: 'warm up', limit: 3 });
      const load = vi.spyOn(VectorIndex, 'load');
      let steps = 0;
      for (;;) {
        const step = await indexer.index({ shouldPauseEmbedding: () => true }); // one call per step
        steps++;
        const expected = await freshAnswers(temp);
        const loadsBefore = load.mock.calls.length;
        for (const [i, query] of QUERIES.entries()) {
          expect(summarize(await session.search({ query, limit: 8 }))).toEqual(expected[i]);
        }
        // The session's first snapshot held no vector yet: the first one stored is loaded whole, then added to.
        if (steps > 1) expect(load.mock.calls.length).toBe(loadsBefore);
        if (step.pendingEmbeddings === 0) break;
      }
      expect(steps).toBeGreaterThan(2);
      temp.write('notes/n3.md', noteText('n3').replace('n3alpha', 'n3gamma'));
      await indexer.index();
      const expected = await freshAnswers(temp);
      const loadsAfterFill = load.mock.calls.length;
      for (const [i, query] of QUERIES.entries()) {
        expect(summarize(await session.search({ query, limit: 8 }))).toEqual(expected[i]);
      }
      expect(load.mock.calls.length).toBe(loadsAfterFill);
    } finally {
      await session.close();
      await indexer.close();
    }
  });
});

describe('VectorIndex.withAdded', () => {
  it('orders rows as a load would and replaces a row whose id is already there', () => {
    const v = (x: number) => Float32Array.from([x, 1 - x]);
    const base = VectorIndex.fromEntries(
      [
        { id: 2, documentId: 1, quality: 1, vector: v(0.2) },
        { id: 5, documentId: 2, quality: 1, vector: v(0.5) },
      ],
      2,
    );
    const grown = base.withAdded([
      { id: 7, documentId: 3, quality: 1, vector: v(0.7) },
      { id: 1, documentId: 1, quality: 0.5, vector: v(0.1) },
      { id: 5, documentId: 2, quality: 1, vector: v(0.9) },
    ]);
    expect(grown.size).toBe(4);
    expect(Array.from(grown.vectorOf(5)!)).toEqual(Array.from(v(0.9)));
    const hits = grown.search(Float32Array.from([1, 0]), {
      k: 10,
      minQuality: 0,
      documentIds: null,
      excluded: new Set(),
    });
    expect(hits.map((h) => h.id)).toEqual([5, 7, 2, 1]);
    expect(base.size).toBe(2);
  });
});
