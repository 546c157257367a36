// The stages after fusion across knowledge bases (boost, graph hop, MMR), short CJK terms, KBs embedded by
// different models or by none, and the searches that are refused. Real indexes in temp folders, searched through
// searchKnowledgeBases.
import { describe, expect, it } from 'vitest';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { type CombinedHit, searchResponseToJson } from '../../src/app/search/index.js';
import { searchKnowledgeBases } from '../../src/app/search-knowledge-bases.js';
import { isGrooveError } from '../../src/errors.js';
import type { Embedder, Reranker } from '../../src/types.js';
import { HashEmbedder } from '../support/hash-embedder.js';
import { useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();
const NOW = new Date('2026-05-01T12:00:00Z');

/** Six notes matching "widget", fewer times each, and one that never mentions it. */
function widgetNotes(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let n = 1; n <= 6; n++) {
    const mentions = Array.from({ length: 8 - n }, () => 'widget').join(' ');
    files[`notes/n${n}.md`] =
      `# Note ${n}\n\nThis note number ${n} is about ${mentions} and other filler words.\n`;
  }
  files['notes/other.md'] =
    '# Other\n\nA note about gearboxes and their maintenance schedule, nothing else.\n';
  return files;
}

/** A second KB whose paths collide with the first's, and one note linking to another. */
function linkedNotes(): Record<string, string> {
  return {
    'notes/other.md': '# Other\n\nGearboxes again, in another knowledge base, with no mention of the word.\n',
    'notes/hub.md': '# Hub\n\nThe widget hub of this knowledge base; see [[gears]] for the rest.\n',
    'notes/gears.md': '# Gears\n\nGear trains and their ratios, nothing about the hub.\n',
  };
}

/** A stand-in cross-encoder: how often the passage says the query's first word, longer passages a little lower. */
const wordCountReranker: Reranker = {
  id: 'test-word-count',
  async score(query, passages) {
    const word = query.split(' ')[0]!.toLowerCase();
    return passages.map((p) => p.toLowerCase().split(word).length - 1 - p.length / 1e6);
  },
  async close() {},
};

async function indexed(
  files: Record<string, string>,
  embedder: Embedder | null,
  reranker: Reranker | null = null,
): Promise<KnowledgeBase> {
  const temp = createKb(files);
  const overrides = embedder ? {} : { model: 'none' };
  const kb = openKnowledgeBase(temp.config({ overrides }), {
    now: () => NOW,
    createReranker: async () => reranker,
    ...(embedder ? { createEmbedder: async () => embedder } : {}),
  });
  await kb.index();
  return kb;
}

async function closeAll(kbs: readonly KnowledgeBase[]): Promise<void> {
  for (const kb of kbs) await kb.close();
}

const find = (hits: readonly CombinedHit[], kb: string, path: string) =>
  hits.find((h) => h.kb === kb && h.path === path);

describe('search across KBs: stages after fusion', () => {
  it('boost and graph hop stay within the KB that judged or linked, with paths in that KB', async () => {
    const a = await indexed(widgetNotes(), null);
    const b = await indexed(linkedNotes(), null);
    try {
      for (let i = 0; i < 3; i++) {
        await a.recordFeedback({
          taskId: `pair-${i}`,
          query: 'widget maintenance',
          items: [
            { path: 'notes/n2.md', verdict: 'helped' },
            { path: 'notes/other.md', verdict: 'helped' },
          ],
        });
      }
      const targets = [
        { kb: a, name: 'a' },
        { kb: b, name: 'b' },
      ];
      const request = { query: 'widget', limit: 10, graph: true, boost: true, explain: true };
      const response = await searchKnowledgeBases(targets, request);
      const { results } = response;
      // a's judgments pull in a's other.md (not b's, at the same path) from a's n2.md.
      const pulled = find(results, 'a', 'notes/other.md');
      expect(pulled?.expandedFrom).toEqual({ kind: 'co_helpful', path: 'notes/n2.md', heading: 'Note 2' });
      expect(pulled?.explain?.graph?.from.path).toBe('notes/n2.md');
      expect(find(results, 'b', 'notes/other.md')).toBeUndefined();
      // b's link pulls in b's gears.md from its hub.
      expect(find(results, 'b', 'notes/gears.md')?.expandedFrom).toEqual({
        kind: 'link',
        path: 'notes/hub.md',
        heading: 'Hub',
      });
      // The boost reads each KB's own judgments: a's n2.md has evidence, b's hub none.
      expect(find(results, 'a', 'notes/n2.md')?.explain?.boostEvidence?.helped).toBe(3);
      expect(find(results, 'b', 'notes/hub.md')?.explain?.boostEvidence).toBeNull();
      // The wire form names each hit's KB.
      const wire = searchResponseToJson(response) as { results: { kb: string; path: string }[] };
      expect(wire.results.map((h) => [h.kb, h.path])).toEqual(results.map((h) => [h.kb, h.path]));
    } finally {
      await closeAll([a, b]);
    }
  });

  it('MMR picks across KBs of one model', async () => {
    const embedder = new HashEmbedder({ dimension: 64 });
    const a = await indexed(widgetNotes(), embedder);
    const b = await indexed(linkedNotes(), embedder);
    try {
      const targets = [
        { kb: a, name: 'a' },
        { kb: b, name: 'b' },
      ];
      const { results, legs } = await searchKnowledgeBases(targets, { query: 'widget', limit: 5, mmr: true });
      expect(legs.vectorByModel).toBeUndefined();
      expect(results.length).toBe(5);
      expect(new Set(results.map((h) => h.kb))).toEqual(new Set(['a', 'b']));
    } finally {
      await closeAll([a, b]);
    }
  });

  it('rerank and low_confidence run once on the combined candidates, as in one KB holding every note', async () => {
    const embedder = new HashEmbedder({ dimension: 64 });
    const files = { ...widgetNotes(), ...linkedNotes(), 'notes/other.md': widgetNotes()['notes/other.md']! };
    const pick = (part: number) => Object.fromEntries(Object.entries(files).filter((_, i) => i % 2 === part));
    const whole = await indexed(files, embedder, wordCountReranker);
    const halves = [
      await indexed(pick(0), embedder, wordCountReranker),
      await indexed(pick(1), embedder, wordCountReranker),
    ];
    try {
      for (const request of [
        { query: 'widget hub', limit: 5, rerank: true },
        { query: 'gearboxes maintenance', limit: 5, rerank: true, minConfidence: 0.3 },
      ]) {
        const expected = await searchKnowledgeBases([whole], request);
        const actual = await searchKnowledgeBases(halves, request);
        expect(actual.legs.reranker.status).toBe('ok');
        const view = (hits: readonly CombinedHit[]) => hits.map((h) => [h.path, h.score]);
        expect(view(actual.results)).toEqual(view(expected.results));
        expect(actual.lowConfidence).toBe(expected.lowConfidence);
      }
    } finally {
      await closeAll([whole, ...halves]);
    }
  });

  it('short CJK terms rank across KBs as in one KB holding every note', async () => {
    const notes: Record<string, string> = {
      'a1.md': '# 東京\n\n東京の天気は晴れです。東京タワーが見えます。\n',
      'a2.md': '# 大阪\n\n大阪の食べ物について。東京とは違います。\n',
      'b1.md': '# 京都\n\n京都の寺と東京の比較。\n',
      'b2.md': '# 名古屋\n\n名古屋の話で、ほかの町は出てきません。\n',
    };
    const pick = (prefix: string) =>
      Object.fromEntries(Object.entries(notes).filter(([path]) => path.startsWith(prefix)));
    const whole = await indexed(notes, null);
    const a = await indexed(pick('a'), null);
    const b = await indexed(pick('b'), null);
    try {
      for (const query of ['東京', '京', '東京 寺', '大阪 -東京']) {
        const expected = await searchKnowledgeBases([whole], { query, limit: 10 });
        const actual = await searchKnowledgeBases([a, b], { query, limit: 10 });
        const view = (hits: readonly CombinedHit[]) => hits.map((h) => [h.path, h.score]);
        expect(view(actual.results), query).toEqual(view(expected.results));
      }
    } finally {
      await closeAll([whole, a, b]);
    }
  });
});

describe('search across KBs: models', () => {
  it('fuses each model vector leg by rank and reports it in legs; a lexical-only KB joins by its words', async () => {
    const a = await indexed(widgetNotes(), new HashEmbedder({ dimension: 64 }));
    const b = await indexed(linkedNotes(), new HashEmbedder({ dimension: 32 }));
    const c = await indexed({ 'plain.md': '# Plain\n\nA widget in a lexical-only knowledge base.\n' }, null);
    try {
      const targets = [
        { kb: a, name: 'a' },
        { kb: b, name: 'b' },
        { kb: c, name: 'c' },
      ];
      const response = await searchKnowledgeBases(targets, { query: 'widget hub', limit: 20, explain: true });
      expect(Object.keys(response.legs.vectorByModel ?? {})).toEqual([
        'test-hash:hash-64',
        'test-hash:hash-32',
      ]);
      for (const health of Object.values(response.legs.vectorByModel!)) expect(health.status).toBe('ok');
      expect(response.legs.vector).toEqual(response.legs.vectorByModel!['test-hash:hash-64']);
      expect(response.lexicalOnly).toBe(false);
      expect(new Set(response.results.map((h) => h.kb))).toEqual(new Set(['a', 'b', 'c']));
      const hub = find(response.results, 'b', 'notes/hub.md')!;
      expect(Object.keys(hub.explain!.ranks)).toContain('vector:test-hash:hash-32');
      const plain = find(response.results, 'c', 'plain.md')!;
      expect(Object.keys(plain.explain!.ranks)).toEqual(['lexical']);
    } finally {
      await closeAll([a, b, c]);
    }
  });
});

describe('search across KBs: refused', () => {
  it('refuses no KB, and one KB named twice (its rows would count twice)', async () => {
    const a = await indexed(widgetNotes(), null);
    try {
      const refusal = async (run: () => Promise<unknown>) => {
        try {
          await run();
        } catch (error) {
          return isGrooveError(error) ? error.code : String(error);
        }
        return 'answered';
      };
      expect(await refusal(() => searchKnowledgeBases([], { query: 'widget' }))).toBe('INVALID_ARGUMENT');
      expect(await refusal(() => searchKnowledgeBases([a, a], { query: 'widget' }))).toBe('INVALID_ARGUMENT');
      expect(await refusal(() => searchKnowledgeBases([a], { query: '-widget' }))).toBe('QUERY_INVALID');
    } finally {
      await a.close();
    }
  });
});
