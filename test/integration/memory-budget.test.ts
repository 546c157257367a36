// `[search] memory_budget_mb` on a real index: the snapshots that do not fit are not built, the legs read the
// index file instead (the vector leg scores every stored vector, the word leg ranks through FTS5), the change is
// reported once, and the answers are those of a session without a budget.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { WordIndex } from '../../src/store/word-index.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';

const MIB = 1024 * 1024;
const QUERIES = ['w17 w230 w3051', 'w8 w9', 'w1999 w42 w777 w3', 'w2500', 'w11 w12 w13 w14'];

/** A deterministic spread of words: `count` notes × 4 sections of 100 words from a 4,000-word vocabulary. */
function notes(count = 300): Record<string, string> {
  let seed = 12345;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed;
  };
  const files: Record<string, string> = {};
  for (let n = 0; n < count; n++) {
    const sections = Array.from({ length: 4 }, (_, s) => {
      const words = Array.from({ length: 100 }, () => `w${next() % 4000}`).join(' ');
      return `## Part ${s}\n\n${words}\n`;
    });
    files[`notes/n${n}.md`] = `# Note ${n}\n\n${sections.join('\n')}`;
  }
  return files;
}

function summarize(response: { results: { path: string; heading: string | null; score: number }[] }) {
  return response.results.map((r) => `${r.path}#${r.heading} ${r.score.toFixed(12)}`);
}

let kb: TempKb;
const open: KnowledgeBase[] = [];
beforeEach(() => {
  kb = createTempKb(notes());
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const facade of open.splice(0)) await facade.close();
  kb.cleanup();
});

function facadeWith(options: {
  budgetMb?: number;
  vectors: boolean;
  notices?: string[];
  dimension?: number;
}): KnowledgeBase {
  const budget = options.budgetMb === undefined ? '' : `[search]\nmemory_budget_mb = ${options.budgetMb}\n`;
  const config = kb.config({
    toml: `${budget}[embedding]\nbatch_size = 1\n`,
    overrides: options.vectors ? {} : { model: 'none' },
  });
  const dimension = options.dimension ?? 384;
  const facade = openKnowledgeBase(config, {
    ...(options.vectors ? { createEmbedder: async () => new CountingEmbedder({ dimension }) } : {}),
    onNotice: (line) => options.notices?.push(line),
  });
  open.push(facade);
  return facade;
}

async function answers(facade: KnowledgeBase): Promise<string[][]> {
  const all: string[][] = [];
  for (const query of QUERIES) all.push(summarize(await facade.search({ query, limit: 10 })));
  return all;
}

describe('[search] memory_budget_mb', () => {
  it('without a budget holds both snapshots and reports nothing', async () => {
    await facadeWith({ vectors: true }).index();
    const notices: string[] = [];
    const facade = facadeWith({ vectors: true, notices });
    await facade.warmUp();
    const memory = await facade.searchMemory();
    expect(memory.budgetBytes).toBeNull();
    expect(memory.vectors.state).toBe('codes');
    expect(memory.words.state).toBe('memory');
    // The sizes the budget cases below rely on: codes over 1 MiB, postings over 1 MiB, together under 10 MiB.
    expect(memory.vectors.bytes).toBeGreaterThan(1 * MIB);
    expect(memory.words.bytes).toBeGreaterThan(1 * MIB);
    expect(memory.vectors.bytes + memory.words.bytes).toBeLessThan(10 * MIB);
    // What the counting pass says a word load will hold is what it holds.
    expect(Math.abs(memory.words.neededBytes! - memory.words.bytes)).toBeLessThan(64);
    expect(notices).toEqual([]);
  });

  it('ranks words through FTS5 when the postings do not fit, with the same answers, and says so once', async () => {
    await facadeWith({ vectors: false }).index();
    const unbounded = facadeWith({ vectors: false });
    await unbounded.warmUp();
    const rank = vi.spyOn(WordIndex.prototype, 'rank');
    const expected = await answers(unbounded);
    expect(rank).toHaveBeenCalled();
    const needed = (await unbounded.searchMemory()).words.neededBytes;

    rank.mockClear();
    const load = vi.spyOn(WordIndex, 'loadWithin');
    const notices: string[] = [];
    const bounded = facadeWith({ vectors: false, budgetMb: 1, notices });
    await bounded.warmUp();
    expect(await answers(bounded)).toEqual(expected);
    expect(await answers(bounded)).toEqual(expected);
    expect(rank).not.toHaveBeenCalled();
    const memory = await bounded.searchMemory();
    expect(memory).toMatchObject({
      budgetBytes: MIB,
      words: { state: 'fts5', bytes: 0, neededBytes: needed },
    });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^memory budget 1\.0 MB: the word postings need .* SQLite FTS5/);
    expect(load).toHaveBeenCalledTimes(1);

    // After an edit the answers still follow the index, and the refused load is not tried again while the index
    // holds no fewer chunks.
    const words = (s: number) =>
      Array.from({ length: 100 }, (_, i) => `w${(s * 100 + i * 7) % 4000}`).join(' ');
    const parts = [0, 1, 2, 3].map((s) => `## Part ${s}\n\nw2500 w2500 w2500 ${words(s)}\n`);
    kb.write('notes/n0.md', `# Note 0\n\n${parts.join('\n')}`);
    await facadeWith({ vectors: false }).index();
    const fresh = facadeWith({ vectors: false });
    await fresh.warmUp();
    const after = await answers(fresh);
    expect(after).not.toEqual(expected);
    expect(await answers(bounded)).toEqual(after);
    expect(await answers(bounded)).toEqual(after);
    expect(load).toHaveBeenCalledTimes(2); // the fresh facade's load; none more from the bounded one
    expect(notices).toHaveLength(1);
  });

  it('keeps the vector codes first and leaves the word postings out when only the codes fit', async () => {
    await facadeWith({ vectors: true }).index();
    const unbounded = facadeWith({ vectors: true });
    await unbounded.warmUp();
    const expected = await answers(unbounded);
    const full = await unbounded.searchMemory();
    const budgetMb = Math.ceil(full.vectors.bytes / MIB);
    expect(full.vectors.bytes + full.words.bytes).toBeGreaterThan(budgetMb * MIB);

    const notices: string[] = [];
    const bounded = facadeWith({ vectors: true, budgetMb, notices });
    await bounded.warmUp();
    expect(await answers(bounded)).toEqual(expected);
    const memory = await bounded.searchMemory();
    expect(memory.vectors).toEqual({ state: 'codes', bytes: full.vectors.bytes });
    expect(memory.words.state).toBe('fts5');
    expect(notices).toEqual([
      expect.stringMatching(/: vector codes held: /),
      expect.stringMatching(/: the word postings need .* SQLite FTS5/),
    ]);
  });

  it('scores every vector from the index file when the codes do not fit, with the same answers', async () => {
    await facadeWith({ vectors: true }).index();
    const unbounded = facadeWith({ vectors: true });
    await unbounded.warmUp();
    const expected = await answers(unbounded);

    const notices: string[] = [];
    const bounded = facadeWith({ vectors: true, budgetMb: 1, notices });
    await bounded.warmUp();
    const response = await bounded.search({ query: QUERIES[0], limit: 10 });
    expect(response.legs.vector.status).toBe('ok');
    expect(await answers(bounded)).toEqual(expected);
    const memory = await bounded.searchMemory();
    expect(memory.vectors.state).toBe('scan');
    expect(memory.vectors.bytes).toBeLessThan(MIB);
    expect(memory.words.state).toBe('fts5');
    expect(notices[0]).toMatch(/the vector codes of 1200 chunks do not fit; .* index file/);
  });

  it('loads the vector codes again once the index shrank enough for them to fit', async () => {
    for (const [file, text] of Object.entries(notes(700))) kb.write(file, text);
    await facadeWith({ vectors: true }).index();
    const notices: string[] = [];
    const bounded = facadeWith({ vectors: true, budgetMb: 3, notices });
    await bounded.warmUp();
    expect((await bounded.searchMemory()).vectors.state).toBe('scan');

    for (let n = 300; n < 700; n++) kb.remove(`notes/n${n}.md`);
    await facadeWith({ vectors: true }).index();
    const fresh = facadeWith({ vectors: true });
    await fresh.warmUp();
    const expected = await answers(fresh);
    expect(await answers(bounded)).toEqual(expected);
    const memory = await bounded.searchMemory();
    expect(memory.vectors.state).toBe('codes');
    expect(memory.vectors.bytes).toBeLessThanOrEqual(3 * MIB);
    // Without codes the postings fitted beside the per-row facts; with the codes back they no longer do.
    expect(memory.words.state).toBe('fts5');
    expect(notices).toEqual([
      expect.stringMatching(/the vector codes of 2800 chunks do not fit/),
      expect.stringMatching(/: word postings held: /),
      expect.stringMatching(/: vector codes held: /),
      expect.stringMatching(/: the word postings need .* SQLite FTS5/),
    ]);
  });

  it('lets the postings go when vectors stored since leave them no room', async () => {
    const dimension = 128;
    // 270 notes: one vector's codes and the postings fit 2 MiB; all the codes and the postings do not.
    for (let n = 270; n < 300; n++) kb.remove(`notes/n${n}.md`);
    const full = facadeWith({ vectors: true, dimension });
    await full.index({ shouldPauseEmbedding: () => true }); // the text and one vector
    const notices: string[] = [];
    const bounded = facadeWith({ vectors: true, dimension, budgetMb: 2, notices });
    await bounded.warmUp();
    const before = await bounded.searchMemory();
    expect(before.words.state).toBe('memory');
    expect(before.vectors.bytes + before.words.bytes).toBeLessThanOrEqual(2 * MIB);

    await full.index(); // only vectors are committed now: the text, and so the word snapshot, stay as they were
    const unbounded = facadeWith({ vectors: true, dimension });
    await unbounded.warmUp();
    const expected = await answers(unbounded);
    expect(await answers(bounded)).toEqual(expected);
    const after = await bounded.searchMemory();
    expect(after.vectors.state).toBe('codes');
    expect(after.vectors.bytes).toBeGreaterThan(before.vectors.bytes);
    expect(after.vectors.bytes + before.words.bytes).toBeGreaterThan(2 * MIB);
    expect(after.words).toEqual({ state: 'fts5', bytes: 0, neededBytes: before.words.bytes });
    expect(notices.at(-1)).toMatch(/: the word postings need .* SQLite FTS5/);
  });
});
