// The boost and the graph hop on a real index with judgments recorded through the facade: judged documents move
// up, co-helpful documents are pulled in with expanded_from, --explain's parts add up to every score, a KB
// without judgments answers exactly as with both features off, and new feedback reaches a long-lived session.
import { describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import type { SearchHit } from '../../src/app/search/search-types.js';
import { searchResponseToJson } from '../../src/app/search/search-types.js';
import { useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();
const NOW = new Date('2026-05-01T12:00:00Z');

/** Six notes that all match "widget", fewer times each, and one note that never mentions it. */
function widgetNotes(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let n = 1; n <= 6; n++) {
    const mentions = Array.from({ length: 8 - n }, () => 'widget').join(' ');
    files[`notes/n${n}.md`] =
      `# Note ${n}\n\nThis note number ${n} is about ${mentions} and other filler words to make a chunk.\n`;
  }
  files['notes/other.md'] =
    '# Other\n\nA note about gearboxes and their maintenance schedule, nothing else.\n';
  return files;
}

function openFacade(toml?: string) {
  const temp = createKb(widgetNotes());
  const facade = openKnowledgeBase(temp.config({ toml, overrides: { model: 'none' } }), { now: () => NOW });
  return { temp, facade };
}

const paths = (hits: readonly SearchHit[]) => hits.map((h) => h.path);

/** score = rerankScore, else graph.score, else rrfScore + boost. */
function explainedScore(hit: SearchHit): number {
  const e = hit.explain!;
  if (e.rerankScore !== undefined) return e.rerankScore;
  if (e.graph) return e.graph.weight * e.graph.parentScore * e.graph.edgeWeight;
  return e.rrfScore + (e.boost ?? 0);
}

describe('search learning from judgments', () => {
  it('gives identical results with the boost and the graph on as off when nothing was judged', async () => {
    const { facade } = openFacade('[search.boost]\nmin_judgments = 1\n');
    try {
      await facade.index();
      for (const query of ['widget', 'note number', 'gearboxes', 'filler words chunk']) {
        const off = await facade.search({ query, limit: 10, boost: false, graph: false });
        const on = await facade.search({ query, limit: 10, boost: true, graph: true });
        expect(searchResponseToJson(on)).toEqual(searchResponseToJson(off));
      }
    } finally {
      await facade.close();
    }
  });

  it('moves documents judged helped up, documents judged noise down, within the bound, and explains it', async () => {
    // Strength 10: at the top of the ranking a boost may pass at most ten hits.
    const { facade } = openFacade('[search.boost]\nstrength = 10\n');
    try {
      await facade.index();
      const before = await facade.search({ query: 'widget', limit: 10 });
      expect(paths(before.results)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `notes/n${n}.md`));
      for (let i = 0; i < 3; i++) {
        await facade.recordFeedback({
          taskId: `task-${i}`,
          query: `how do widgets work ${i}`,
          items: [
            { path: 'notes/n6.md', verdict: 'helped' },
            { path: 'notes/n1.md', verdict: 'noise' },
            // Injected into every brief: never counts.
            { path: 'notes/n5.md', verdict: 'helped', alwaysServed: true },
          ],
        });
      }
      // The default is off: the same answer as before the judgments.
      expect(paths((await facade.search({ query: 'widget', limit: 10 })).results)).toEqual(
        paths(before.results),
      );
      const boosted = await facade.search({ query: 'widget', limit: 10, boost: true, explain: true });
      const order = paths(boosted.results);
      expect(order[0]).toBe('notes/n6.md');
      expect(order.indexOf('notes/n1.md')).toBeGreaterThan(0);
      const n5 = boosted.results.find((h) => h.path === 'notes/n5.md')!;
      expect(n5.explain).toMatchObject({ boost: 0, boostEvidence: null });
      expect(n5.score).toBe(before.results.find((h) => h.path === 'notes/n5.md')!.score);
      const gap = 1 / 61 - 1 / 62;
      const bound = 10 * gap;
      for (const hit of boosted.results) {
        expect(hit.score).toBe(explainedScore(hit));
        expect(Math.abs(hit.explain!.boost!)).toBeLessThan(bound);
      }
      const n6 = boosted.results[0]!;
      // Three fresh helped votes: strength 10 × (3 − 0) / (3 + 0 + 2) × the top rank gap.
      expect(n6.explain!.boost).toBeCloseTo(10 * 0.6 * gap, 15);
      expect(n6.explain!.boostEvidence).toEqual({ helped: 3, negative: 0, judgments: 3 });
      const wire = searchResponseToJson(boosted) as { results: { explain: Record<string, unknown> }[] };
      expect(wire.results[0]!.explain).toMatchObject({
        boost: n6.explain!.boost,
        boost_evidence: { helped: 3, negative: 0, judgments: 3 },
      });
    } finally {
      await facade.close();
    }
  });

  it('pulls in documents judged helped in the same task as a top hit, with expanded_from', async () => {
    const { facade } = openFacade();
    try {
      await facade.index();
      const plain = await facade.search({ query: 'widget', limit: 10, graph: true });
      expect(paths(plain.results)).not.toContain('notes/other.md');
      for (let i = 0; i < 3; i++) {
        await facade.recordFeedback({
          taskId: `pair-${i}`,
          query: 'widget maintenance',
          items: [
            { path: 'notes/n2.md', verdict: 'helped' },
            { path: 'notes/other.md', verdict: 'helped' },
          ],
        });
      }
      const pulled = await facade.search({ query: 'widget', limit: 10, graph: true, explain: true });
      const other = pulled.results.find((h) => h.path === 'notes/other.md')!;
      expect(other).toBeDefined();
      expect(other.expandedFrom).toEqual({ kind: 'co_helpful', path: 'notes/n2.md', heading: 'Note 2' });
      const parent = pulled.results.find((h) => h.path === 'notes/n2.md')!;
      // Three shared tasks: edge weight 3 / 3.1; score = 1 × parent × 3 / 3.1 — about two ranks below it.
      expect(other.explain!.graph).toMatchObject({
        kind: 'co_helpful',
        hop: 1,
        edgeWeight: 3 / 3.1,
        weight: 1,
      });
      expect(other.score).toBeCloseTo(parent.score * (3 / 3.1), 15);
      expect(paths(pulled.results)).toEqual([
        'notes/n1.md',
        'notes/n2.md',
        'notes/n3.md',
        'notes/n4.md',
        'notes/other.md',
        'notes/n5.md',
        'notes/n6.md',
      ]);
      for (const hit of pulled.results) expect(hit.score).toBe(explainedScore(hit));
      const wire = searchResponseToJson(pulled) as { results: Record<string, unknown>[] };
      expect(wire.results.find((r) => r.path === 'notes/other.md')).toMatchObject({
        expanded_from: { kind: 'co_helpful', path: 'notes/n2.md', heading: 'Note 2' },
        explain: { graph: { kind: 'co_helpful', edge_weight: 3 / 3.1, parent_score: parent.score } },
      });
      // A document the request's filters or exclusions rule out is never pulled in.
      const filtered = await facade.search({
        query: 'widget',
        limit: 10,
        graph: true,
        pathGlobs: ['!notes/other.md'],
      });
      expect(paths(filtered.results)).not.toContain('notes/other.md');
      expect(paths(filtered.results)).toHaveLength(6);
      const excluded = await facade.search({ query: 'widget -gearboxes', limit: 10, graph: true });
      expect(paths(excluded.results)).not.toContain('notes/other.md');
      expect(paths(excluded.results)).toHaveLength(6);
      // Off per call, and with co_helpful switched off in the config, nothing is pulled in.
      expect(paths((await facade.search({ query: 'widget', limit: 10 })).results)).not.toContain(
        'notes/other.md',
      );
    } finally {
      await facade.close();
    }
    const { facade: linksOnly } = openFacade('[search.graph]\nenabled = true\nco_helpful = false\n');
    try {
      await linksOnly.index();
      await linksOnly.recordFeedback({
        taskId: 'pair',
        query: 'widget maintenance',
        items: [
          { path: 'notes/n2.md', verdict: 'helped' },
          { path: 'notes/other.md', verdict: 'helped' },
        ],
      });
      expect(paths((await linksOnly.search({ query: 'widget', limit: 10 })).results)).not.toContain(
        'notes/other.md',
      );
    } finally {
      await linksOnly.close();
    }
  });

  it('lets judgments older than the horizon stop counting, and halves them every half-life', async () => {
    const { temp } = openFacade();
    const at = { now: new Date('2026-01-01T00:00:00Z') };
    const config = temp.config({
      toml: '[search.boost]\nenabled = true\nmin_judgments = 1\nhalf_life_days = 10\nhorizon_days = 30\n',
      overrides: { model: 'none' },
    });
    const facade = openKnowledgeBase(config, { now: () => at.now });
    try {
      await facade.index();
      await facade.recordFeedback({
        taskId: 't',
        query: 'widgets',
        items: [{ path: 'notes/n6.md', verdict: 'helped' }],
      });
      const boostOfN6 = async () => {
        const response = await facade.search({ query: 'widget', limit: 10, explain: true });
        return response.results.find((h) => h.path === 'notes/n6.md')!.explain!.boost!;
      };
      const gap = 1 / 61 - 1 / 62;
      expect(await boostOfN6()).toBeCloseTo(gap / 3, 15);
      at.now = new Date('2026-01-11T00:00:00Z');
      // One half-life later: H = 0.5 → 0.5 / 2.5.
      expect(await boostOfN6()).toBeCloseTo(0.2 * gap, 15);
      at.now = new Date('2026-01-31T01:00:00Z');
      expect(await boostOfN6()).toBe(0);
    } finally {
      await facade.close();
    }
  });

  it('pulls in the notes a top hit links to and the notes linking to it, as link edges', async () => {
    const temp = createKb({
      'notes/hub.md':
        '# Hub\n\nThe quasar calibration notes start here; see [[Steps]] and [the log](../log/run.md).\n',
      'guides/Steps.md': '# Steps\n\nTurn the knob clockwise, then wait for the green light to settle.\n',
      'log/run.md': '# Run log\n\nTuesday: the lamp flickered twice before it settled down.\n',
      'notes/fan.md':
        '# Fan\n\nAn unrelated page that links back to [the hub](hub.md) about something else.\n',
      'notes/lonely.md': '# Lonely\n\nA page nobody links to, about gardening in spring.\n',
    });
    const threePerHit = '[search.graph]\nmax_added_per_hit = 3\n';
    const facade = openKnowledgeBase(temp.config({ toml: threePerHit, overrides: { model: 'none' } }), {
      now: () => NOW,
    });
    try {
      await facade.index();
      const plain = await facade.search({ query: 'quasar calibration', limit: 10, graph: false });
      expect(paths(plain.results)).toEqual(['notes/hub.md']);
      const hopped = await facade.search({
        query: 'quasar calibration',
        limit: 10,
        graph: true,
        explain: true,
      });
      expect(paths(hopped.results)[0]).toBe('notes/hub.md');
      expect(new Set(paths(hopped.results).slice(1))).toEqual(
        new Set(['guides/Steps.md', 'log/run.md', 'notes/fan.md']),
      );
      for (const hit of hopped.results.slice(1)) {
        expect(hit.expandedFrom).toMatchObject({ kind: 'link', path: 'notes/hub.md' });
        expect(hit.score).toBeCloseTo(explainedScore(hit), 12);
      }
      const noLinks = openKnowledgeBase(
        temp.config({ toml: `${threePerHit}links = false\n`, overrides: { model: 'none' } }),
        { now: () => NOW },
      );
      try {
        const unlinked = await noLinks.search({ query: 'quasar calibration', limit: 10, graph: true });
        expect(paths(unlinked.results)).toEqual(['notes/hub.md']);
      } finally {
        await noLinks.close();
      }
    } finally {
      await facade.close();
    }
  });

  it('shows the co-helpful pairs in the connection graph beside the written links, with their weight', async () => {
    const { facade } = openFacade();
    try {
      await facade.index();
      for (let i = 0; i < 3; i++) {
        await facade.recordFeedback({
          taskId: `pair-${i}`,
          query: 'widget maintenance',
          items: [
            { path: 'notes/n2.md', verdict: 'helped' },
            { path: 'notes/other.md', verdict: 'helped' },
          ],
        });
      }
      const result = await facade.connectionGraph({ start: 'notes/n2.md' });
      if (!result.ok) throw new Error(result.message);
      expect(result.graph.edges).toEqual([
        { source: 'notes/n2.md', target: 'notes/other.md', kind: 'co_helpful', weight: 3 / 3.1 },
      ]);
      const fromOther = await facade.connectionGraph({ start: 'notes/other.md' });
      if (!fromOther.ok) throw new Error(fromOther.message);
      expect(fromOther.graph.edges).toEqual([
        { source: 'notes/other.md', target: 'notes/n2.md', kind: 'co_helpful', weight: 3 / 3.1 },
      ]);
      const excluded = await facade.connectionGraph({
        start: 'notes/n2.md',
        excludePaths: ['notes/other.md'],
      });
      if (!excluded.ok) throw new Error(excluded.message);
      expect(excluded.graph.edges).toEqual([]);
    } finally {
      await facade.close();
    }
  });
});
