// `max_tokens` on a real index: the answer is passages within the budget, each a sentence or line of its file at
// the lines it names, `tokens_used` reported, and a search without a budget unchanged.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { budgetHitLimit } from '../../src/app/search/budgeted-search.js';
import { searchResponseToJson } from '../../src/app/search/search-types.js';
import { searchKnowledgeBases } from '../../src/app/search-knowledge-bases.js';
import { estimateTokens } from '../../src/rank/token-estimate.js';
import type { Embedder } from '../../src/types.js';
import { type TempKb, useTempKbs } from '../support/temp-kb.js';
import { ensureTinyModel, keptOpen, openTinyEmbedder } from '../support/test-models.js';

const createKb = useTempKbs();

const engines = [
  '# Engines',
  '',
  'Every engine here is described with care so that the section is long enough to stand alone.',
  'The turbine engine spins at high speed and needs cooling air.',
  'Paint colours are not part of this discussion at all, nor are seats.',
  '',
  '## Maintenance',
  '',
  'Maintenance of the turbine follows a schedule. Blades are checked every hundred hours for cracks.',
  'Nothing else in this paragraph matters for the query, it only pads the section out.',
  '',
].join('\n');

const japanese = [
  '# 梅雨',
  '',
  '梅雨は、北海道と小笠原諸島を除く日本の大部分で見られる雨季の一種である。梅雨の時期は毎年ずれる。',
  '雨が多いので洗濯物が乾きにくい。',
  '',
].join('\n');

async function withFacade<T>(
  temp: TempKb,
  work: (facade: ReturnType<typeof openKnowledgeBase>) => Promise<T>,
) {
  const facade = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }), {
    createEmbedder: async () => null,
  });
  try {
    await facade.index();
    return await work(facade);
  } finally {
    await facade.close();
  }
}

describe('search with max_tokens', () => {
  it('answers with passages within the budget at the lines of their file, and reports tokens_used', async () => {
    const temp = createKb({
      'engines.md': engines,
      'other.md': '# Other\n\nA turbine is named once here.\n',
    });
    await withFacade(temp, async (facade) => {
      const whole = await facade.search({ query: 'turbine' });
      expect(whole.budget).toBeUndefined();
      expect(whole.results.every((hit) => hit.tokens === undefined)).toBe(true);

      const response = await facade.search({ query: 'turbine', maxTokens: 40 });
      const json = searchResponseToJson(response);
      expect(json.max_tokens).toBe(40);
      expect(json.token_counter).toBe('estimate');
      const results = json.results as { path: string; content: string; tokens: number; line_start: number }[];
      expect(results.length).toBeGreaterThan(0);
      const used = results.reduce((sum, r) => sum + r.tokens, 0);
      expect(json.tokens_used).toBe(used);
      expect(used).toBeLessThanOrEqual(40);
      for (const result of response.results) {
        expect(result.tokens).toBe(estimateTokens(result.content));
        expect(result.content.toLowerCase()).toContain('turbine');
        // The passage is its file's text at the lines it names.
        const lines = fs.readFileSync(temp.abs(result.path), 'utf8').split('\n');
        const named = lines.slice(result.lineStart! - 1, result.lineEnd!).join('\n');
        expect(named).toContain(result.content);
        expect(result.lineEnd! - result.lineStart!).toBeLessThanOrEqual(1);
      }
      // Whole chunks are longer than the passages cut from them.
      const wholeTokens = whole.results.reduce((sum, hit) => sum + estimateTokens(hit.content), 0);
      expect(used).toBeLessThan(wholeTokens);
    });
  });

  it('without a limit, a large budget ranks more hits to cut passages from; a given limit is kept', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++)
      files[`note-${i}.md`] = `# Note ${i}\n\nThe turbine number ${i} is named here.\n`;
    const temp = createKb(files);
    await withFacade(temp, async (facade) => {
      const paths = (response: { results: { path: string }[] }) =>
        new Set(response.results.map((h) => h.path));
      // The configured limit (10) stays for a small budget; 1,000 tokens rank 20 hits, so more notes answer.
      expect(budgetHitLimit(200, undefined, 10)).toBe(10);
      expect(budgetHitLimit(1000, undefined, 10)).toBe(20);
      expect(budgetHitLimit(100_000, undefined, 10)).toBe(50);
      expect(budgetHitLimit(1000, 3, 10)).toBe(3);
      expect(paths(await facade.search({ query: 'turbine', maxTokens: 200 })).size).toBeLessThanOrEqual(10);
      const wide = await facade.search({ query: 'turbine', maxTokens: 1000 });
      expect(paths(wide).size).toBe(20);
      expect(wide.budget!.tokensUsed).toBeLessThanOrEqual(1000);
      expect(paths(await facade.search({ query: 'turbine', maxTokens: 1000, limit: 3 })).size).toBe(3);
    });
  });

  it("names a passage's own lines when its chunk's text leaves a heading line out", async () => {
    const note = [
      '<small>Released December 20, 2022</small>',
      '',
      '## Improved',
      '',
      '- Canvas: turbine embeds are now shown at 16:9.',
      '- Canvas: added a toggle to the export modal.',
      '',
    ].join('\n');
    const temp = createKb({ 'release.md': note });
    await withFacade(temp, async (facade) => {
      const whole = await facade.search({ query: 'turbine' });
      // The chunk spans the heading line, but its text leaves it out: not the file's text verbatim.
      expect(whole.results[0]!.content).not.toContain('## Improved');
      const budgeted = await facade.search({ query: 'turbine', maxTokens: 40 });
      const passage = budgeted.results[0]!;
      expect(passage.content).toBe('- Canvas: turbine embeds are now shown at 16:9.');
      expect([passage.lineStart, passage.lineEnd]).toEqual([5, 5]);
    });
  });

  it('cuts Japanese at 。 and keeps a larger budget within itself too', async () => {
    const temp = createKb({ 'tsuyu.md': japanese });
    await withFacade(temp, async (facade) => {
      const small = await facade.search({ query: '北海道', maxTokens: 60 });
      expect(small.results.map((hit) => hit.content)).toEqual([
        '梅雨は、北海道と小笠原諸島を除く日本の大部分で見られる雨季の一種である。',
      ]);
      expect(small.results[0]!.lineStart).toBe(3);
      expect(small.budget!.tokensUsed).toBeLessThanOrEqual(60);
    });
  });

  it('across two KBs, passages still name their own lines and KB', async () => {
    const first = createKb({ 'engines.md': engines });
    const second = createKb({ 'tsuyu.md': japanese, 'turbine.md': '# T\n\nIntro.\n\nOne turbine line.\n' });
    const open = (temp: TempKb) =>
      openKnowledgeBase(temp.config({ overrides: { model: 'none' } }), { createEmbedder: async () => null });
    const kbs = [open(first), open(second)];
    try {
      for (const kb of kbs) await kb.index();
      const targets = kbs.map((kb, i) => ({ kb, name: `kb${i}` }));
      const response = await searchKnowledgeBases(targets, { query: 'turbine', maxTokens: 60 });
      expect(response.budget!.tokensUsed).toBeLessThanOrEqual(60);
      expect(new Set(response.results.map((hit) => hit.kb))).toEqual(new Set(['kb0', 'kb1']));
      for (const hit of response.results) {
        const temp = hit.kb === 'kb0' ? first : second;
        const lines = fs.readFileSync(temp.abs(hit.path), 'utf8').split('\n');
        expect(lines.slice(hit.lineStart! - 1, hit.lineEnd!).join('\n')).toContain(hit.content);
      }
    } finally {
      for (const kb of kbs) await kb.close();
    }
  });

  it('refuses a budget outside its bounds, naming max_tokens', async () => {
    const temp = createKb({ 'engines.md': engines });
    await withFacade(temp, async (facade) => {
      await expect(facade.search({ query: 'turbine', maxTokens: 3 })).rejects.toThrow(/max_tokens/);
    });
  });
});

describe('search with max_tokens and an embedding model', () => {
  let model: Embedder;
  beforeAll(async () => {
    model = await openTinyEmbedder();
  });
  afterAll(() => model.close());

  it("counts with the model's tokenizer and names it in token_counter", async () => {
    const temp = createKb({ 'engines.md': engines, 'tsuyu.md': japanese });
    const overrides = { modelDir: ensureTinyModel('embed') };
    const facade = openKnowledgeBase(temp.config({ overrides }), {
      createEmbedder: async () => keptOpen(model),
    });
    try {
      await facade.index();
      const response = await facade.search({ query: 'turbine 北海道', maxTokens: 200, legs: 'lexical' });
      expect(response.budget!.counter).toBe(model.id);
      expect(response.results.length).toBeGreaterThan(0);
      const counted = await model.countTokens!(response.results.map((hit) => hit.content));
      // Each passage here is one sentence: its count is the tokenizer's count of exactly that text.
      expect(response.results.map((hit) => hit.tokens)).toEqual(counted);
      expect(response.budget!.tokensUsed).toBe(counted.reduce((a, b) => a + b, 0));
      expect(response.budget!.tokensUsed).toBeLessThanOrEqual(200);
      // The tokenizer is not the estimate: special tokens are left out, and the text's own tokens counted.
      const [empty, word] = await model.countTokens!(['', 'turbine']);
      expect(empty).toBe(0);
      expect(word).toBeGreaterThan(0);
    } finally {
      await facade.close();
    }
  });
});
