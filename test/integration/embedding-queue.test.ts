// A first index writes every file's lexical rows before any vector: searches answer by keyword at once, with the
// vector leg `partial` and its coverage; embeddings fill in behind, shortest inputs first, one transaction per
// batch, and a run that stops midway (paused, or its embedder failing) leaves the rest queued for the next run.
import { describe, expect, it } from 'vitest';
import { type IndexEvent, openKnowledgeBase, type SearchResponse } from '../../src/app/index.js';
import { CALL_BATCHES } from '../../src/app/indexing/embed-queue-fill.js';
import type { Embedder } from '../../src/types.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { noteText, type TempKb, useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();

/** A counting embedder whose next call can be held until a promise settles (a search in between batches). */
class GatedEmbedder extends CountingEmbedder {
  private gate: Promise<unknown> = Promise.resolve();

  holdUntil(promise: Promise<unknown>): void {
    this.gate = promise.catch(() => undefined);
  }

  override async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    await this.gate;
    return super.embedDocuments(texts);
  }
}
const NOTES = 12;
/** Inference batches of 2 chunks: each embedder call, and each transaction of vectors, holds CALL_BATCHES. */
const BATCH_SIZE = 2;
const BATCH = BATCH_SIZE * CALL_BATCHES;
const TOML = `[embedding]\nbatch_size = ${BATCH_SIZE}\n`;

/** Notes whose sections differ in length, so the order of the queue shows. */
function makeKb(): TempKb {
  const files: Record<string, string> = {};
  for (let n = 0; n < NOTES; n++) {
    const padding = ' filler words'.repeat(n * 3);
    files[`notes/n${n}.md`] = `${noteText(`n${n}`)}\nMore about n${n}gamma${padding}.\n`;
  }
  return createKb(files);
}

function openWith(temp: TempKb, embedder: Embedder) {
  return openKnowledgeBase(temp.config({ toml: TOML }), { createEmbedder: async () => embedder });
}

function queuedAndStored(temp: TempKb) {
  const chunks = [...temp.documents().values()].flatMap((d) => d.chunks);
  return {
    chunks: chunks.length,
    stored: chunks.filter((c) => c.vector !== null),
    queued: chunks.filter((c) => c.vector === null),
  };
}

describe('a first index: lexical rows first, embeddings behind', () => {
  it('answers by keyword while it embeds, with the vector leg partial and its coverage', async () => {
    const temp = makeKb();
    const embedder = new GatedEmbedder();
    const writer = openWith(temp, embedder);
    const reader = openWith(temp, new CountingEmbedder());
    const searches: Promise<SearchResponse>[] = [];
    const events: IndexEvent[] = [];
    try {
      const summary = await writer.index({
        onEvent: (event) => {
          events.push(event);
          // Searched from another connection after the first batch; the second waits until it has answered.
          if (event.kind === 'embedded' && event.done === BATCH) {
            const search = reader.search({ query: 'n7gamma', limit: 3 });
            searches.push(search);
            embedder.holdUntil(search);
          }
        },
      });
      expect(summary.pendingEmbeddings).toBe(0);
      expect(summary.embeddedChunks).toBe(summary.chunks);
      const [during] = await Promise.all(searches);
      expect(during!.results.map((hit) => hit.path)).toContain('notes/n7.md');
      expect(during!.legs.lexical.status).toBe('ok');
      expect(during!.legs.vector).toMatchObject({
        status: 'partial',
        coverage: { embedded: BATCH, chunks: summary.chunks },
      });
      expect(during!.legs.vector.error).toMatch(`${BATCH} of ${summary.chunks} chunks embedded`);

      // Every file was written before the first vector: the file events all come before embed-start.
      const start = events.findIndex((e) => e.kind === 'embed-start');
      expect(events.slice(start + 1).some((e) => e.kind === 'file')).toBe(false);
      expect(events.filter((e) => e.kind === 'file')).toHaveLength(NOTES);
      // Shortest inputs first: each batch is no longer than the next.
      const lengths = embedder.embeddedTexts.map((text) => text.length);
      expect(lengths).toEqual([...lengths].sort((a, b) => a - b));

      const after = await reader.search({ query: 'n7gamma', limit: 3 });
      expect(after.legs.vector.status).toBe('ok');
      expect(after.legs.vector.coverage).toBeUndefined();
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('a paused run leaves the rest queued; the next run embeds only that, without re-parsing a file', async () => {
    const temp = makeKb();
    const embedder = new CountingEmbedder();
    const kb = openWith(temp, embedder);
    try {
      let batches = 0;
      const paused = await kb.index({
        shouldPauseEmbedding: () => ++batches > 1, // asked after each batch: two batches, then stop
      });
      expect(paused.embeddedChunks).toBe(2 * BATCH);
      expect(paused.pendingEmbeddings).toBe(paused.chunks - 2 * BATCH);
      const state = queuedAndStored(temp);
      expect(state.stored).toHaveLength(2 * BATCH);
      // What was stored is the shortest part of the queue (the embedding input is the content here).
      const longestStored = Math.max(...state.stored.map((c) => c.content.length));
      expect(Math.min(...state.queued.map((c) => c.content.length))).toBeGreaterThanOrEqual(longestStored);
      expect(kb.status()).toMatchObject({ vectors: 2 * BATCH, pendingEmbeddings: paused.pendingEmbeddings });

      embedder.reset();
      const resumed = await kb.index();
      expect(resumed).toMatchObject({ unchanged: NOTES, indexed: 0, updated: 0, pendingEmbeddings: 0 });
      expect(resumed.embeddedChunks).toBe(paused.pendingEmbeddings);
      expect(embedder.embeddedTexts).toHaveLength(paused.pendingEmbeddings);
      expect(queuedAndStored(temp).queued).toHaveLength(0);
      expect(kb.status().pendingEmbeddings).toBe(0);
    } finally {
      await kb.close();
    }
  });

  it('an embedder failing midway keeps every stored batch and the text of every file', async () => {
    const temp = makeKb();
    const failing = openWith(temp, new CountingEmbedder({ failAfterCalls: 1 }));
    try {
      await expect(failing.index()).rejects.toThrow(/failing on purpose/);
    } finally {
      await failing.close();
    }
    const state = queuedAndStored(temp);
    expect(temp.documents().size).toBe(NOTES);
    expect(state.stored).toHaveLength(BATCH);

    const embedder = new CountingEmbedder();
    const kb = openWith(temp, embedder);
    try {
      const summary = await kb.index();
      expect(summary.embeddedChunks).toBe(state.chunks - BATCH);
      expect(embedder.embeddedTexts).toHaveLength(state.chunks - BATCH);
      expect(queuedAndStored(temp).queued).toHaveLength(0);
    } finally {
      await kb.close();
    }
  });

  it('an edited file whose chunks were still queued is queued again with its new text only', async () => {
    const temp = makeKb();
    const embedder = new CountingEmbedder();
    const kb = openWith(temp, embedder);
    try {
      await kb.index({ shouldPauseEmbedding: () => true });
      temp.write('notes/n11.md', `${noteText('n11')}\nRewritten n11delta.\n`);
      embedder.reset();
      const summary = await kb.index();
      expect(summary.updated).toBe(1);
      expect(summary.pendingEmbeddings).toBe(0);
      expect(embedder.embeddedTexts.some((t) => t.includes('n11gamma'))).toBe(false);
      expect(embedder.embeddedTexts.some((t) => t.includes('n11delta'))).toBe(true);
      const state = queuedAndStored(temp);
      expect(state.queued).toHaveLength(0);
      expect(state.stored).toHaveLength(state.chunks);
    } finally {
      await kb.close();
    }
  });
});

describe('a first index while its model is still loading', () => {
  it('writes every file and answers by keyword before the model is there, then embeds', async () => {
    const temp = makeKb();
    let release: () => void = () => {};
    const loaded = new Promise<void>((resolve) => {
      release = resolve;
    });
    const embedder = new CountingEmbedder();
    const writer = openKnowledgeBase(temp.config({ toml: TOML }), {
      createEmbedder: async () => {
        await loaded;
        return embedder;
      },
    });
    const reader = openWith(temp, new CountingEmbedder());
    const events: IndexEvent[] = [];
    try {
      const running = writer.index({ onEvent: (event) => events.push(event) });
      while (events.filter((e) => e.kind === 'file').length < NOTES)
        await new Promise((resolve) => setTimeout(resolve, 5));
      expect(embedder.calls).toBe(0);
      const during = await reader.search({ query: 'n3gamma', limit: 3 });
      expect(during.results.map((hit) => hit.path)).toContain('notes/n3.md');
      expect(during.legs.vector).toMatchObject({ status: 'partial', coverage: { embedded: 0 } });
      release();
      const summary = await running;
      expect(summary).toMatchObject({ indexed: NOTES, pendingEmbeddings: 0, model: embedder.id });
      expect(summary.embeddedChunks).toBe(summary.chunks);
      expect(writer.status()).toMatchObject({ model: embedder.id, dimension: embedder.dimension });
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('a model that fails to load keeps the text, says so, and a later run embeds it all', async () => {
    const temp = makeKb();
    const events: IndexEvent[] = [];
    const failing = openKnowledgeBase(temp.config({ toml: TOML }), {
      createEmbedder: async () => {
        throw new Error('no such model here');
      },
    });
    try {
      await expect(failing.index({ onEvent: (event) => events.push(event) })).rejects.toThrow(
        /no such model/,
      );
    } finally {
      await failing.close();
    }
    expect(events.some((e) => e.kind === 'warning' && /searchable by keyword/.test(e.message))).toBe(true);
    expect(temp.documents().size).toBe(NOTES);

    const embedder = new CountingEmbedder();
    const kb = openWith(temp, embedder);
    try {
      const summary = await kb.index();
      expect(summary).toMatchObject({ unchanged: NOTES, pendingEmbeddings: 0 });
      expect(summary.embeddedChunks).toBe(summary.chunks);
      expect(kb.status().model).toBe(embedder.id);
    } finally {
      await kb.close();
    }
  });

  it('switching to lexical-only after a failed first load drops what was queued for the model', async () => {
    const temp = makeKb();
    const failing = openKnowledgeBase(temp.config({ toml: TOML }), {
      createEmbedder: async () => {
        throw new Error('no such model here');
      },
    });
    await expect(failing.index()).rejects.toThrow();
    await failing.close();
    const lexical = openKnowledgeBase(temp.config({ toml: TOML, overrides: { model: 'none' } }));
    try {
      await lexical.index();
      expect(lexical.status()).toMatchObject({ model: 'none', pendingEmbeddings: 0, vectors: 0 });
      expect(queuedAndStored(temp).queued.every((chunk) => chunk.embedKey === null)).toBe(true);
    } finally {
      await lexical.close();
    }
  });
});
