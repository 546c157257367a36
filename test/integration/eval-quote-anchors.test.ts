// Quote-anchored golden entries through eval against a real lexical-only index: an entry counts only where the
// text a hit returned contains the quote (whitespace and case ignored), it ranks exactly as the heading entry
// naming the same chunk, and the text it was judged on is never written to the run's JSON.
import { describe, expect, it } from 'vitest';
import { evalRunToJson } from '../../src/app/eval/eval-run-json.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { noteText, threeNoteFiles, useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();

/** One query per anchor, all asking for the first section of alpha.md (the second matches `section` only), scoring alpha.md's chunks. */
const GOLDEN = `queries:
  - id: first-by-heading
    query: "alphaalpha section"
    expected:
      - { path: notes/alpha.md, heading: Note alpha }
  - id: first-by-quote
    query: "alphaalpha section"
    expected:
      - { path: notes/alpha.md, quote: "TALKS  about\\n alphaalpha and has enough" }
  - id: second-by-heading
    query: "alphaalpha section"
    expected:
      - { path: notes/alpha.md, heading: Details of alpha }
  - id: second-by-quote
    query: "alphaalpha section"
    expected:
      - { path: notes/alpha.md, quote: "mentions alphabeta, again with plenty" }
  - id: both
    query: "alphaalpha section"
    expected:
      - { path: notes/alpha.md, heading: Details of alpha, quote: "mentions alphabeta" }
  - id: quote-in-other-section
    query: "alphaalpha section"
    expected:
      - { path: notes/alpha.md, heading: Note alpha, quote: "mentions alphabeta" }
`;

async function evaluate(kValues: number[]) {
  const temp = createKb(threeNoteFiles({ '.groove-eval.yml': GOLDEN }));
  const kb = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
  try {
    await kb.index();
    return await kb.evaluate({ history: false, kValues, limit: 10 });
  } finally {
    await kb.close();
  }
}

describe('eval with quote anchors', () => {
  it('counts a hit only when its returned text contains the quote, ranked as the heading entry of that chunk', async () => {
    const report = await evaluate([1, 10]);
    const byId = new Map(report.run.perQuery.map((q) => [q.id, q]));
    const rr = (id: string) => byId.get(id)!.metrics.reciprocalRank;
    const recallAt1 = (id: string) => byId.get(id)!.metrics.recallAtK[1];
    // The first section is the best hit; the second section is found lower.
    expect(rr('first-by-heading')).toBe(1);
    expect(rr('first-by-quote')).toBe(1);
    const secondRank = byId
      .get('second-by-heading')!
      .topK.find((h) => h.heading === 'Details of alpha')!.rank;
    expect(secondRank).toBeGreaterThan(1);
    expect(rr('second-by-heading')).toBe(1 / secondRank);
    expect(rr('second-by-quote')).toBe(1 / secondRank);
    expect(recallAt1('second-by-quote')).toBe(0);
    expect(rr('both')).toBe(1 / secondRank);
    // Heading and quote both named: a hit needs both, and no chunk has this heading and that text.
    expect(rr('quote-in-other-section')).toBe(0);
    expect(byId.get('second-by-quote')!.metrics.ndcgAtK[10]).toBe(
      byId.get('second-by-heading')!.metrics.ndcgAtK[10],
    );
  });

  it('keeps the returned text in memory for quote queries only and never writes it out', async () => {
    const report = await evaluate([10]);
    const byId = new Map(report.run.perQuery.map((q) => [q.id, q]));
    expect(byId.get('first-by-heading')!.topK.every((h) => h.text === undefined)).toBe(true);
    expect(byId.get('first-by-quote')!.topK[0]!.text).toContain('talks about alphaalpha');
    const json = JSON.stringify(evalRunToJson(report.run));
    expect(json).not.toContain('enough words to stand alone');
    const stored = evalRunToJson(report.run, { forHistory: true }) as {
      per_query: { id: string; expected: unknown[]; top_k: Record<string, unknown>[] }[];
    };
    const quoted = stored.per_query.find((q) => q.id === 'second-by-quote')!;
    expect(quoted.expected).toEqual([
      { path: 'notes/alpha.md', heading: null, quote: 'mentions alphabeta, again with plenty' },
    ]);
    expect(Object.keys(quoted.top_k[0]!).sort()).toEqual(['heading', 'path', 'rank', 'score']);
  });
});

describe('a quote no longer in its document', () => {
  const STALE = `queries:
  - id: kept
    query: "alphaalpha section"
    expected:
      - { path: notes/alpha.md, quote: "talks about alphaalpha" }
  - id: edited
    query: "alphaalpha section"
    expected:
      - { path: notes/alpha.md, quote: "talks about alphaalpha" }
      - { path: notes/beta.md, quote: "talks about alphaalpha" }
`;

  it('refuses the run (GOLDEN_STALE) naming the entry, and measures it as a miss with --allow-stale-golden', async () => {
    const temp = createKb(threeNoteFiles({ '.groove-eval.yml': STALE }));
    const kb = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
    try {
      await kb.index();
      const refused = await kb.evaluate({ history: false }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'GOLDEN_STALE' });
      expect((refused as Error).message).toContain(
        '1 quote(s) no longer occur in their document, so those entries could never be found',
      );
      expect((refused as Error).message).toContain(
        'queries[1].expected[1] (notes/beta.md): "talks about alphaalpha"',
      );
      const report = await kb.evaluate({ history: false, allowStaleGolden: true, kValues: [10] });
      expect(report.staleQuotes).toEqual([
        {
          queryId: 'edited',
          queryIndex: 1,
          entryIndex: 1,
          path: 'notes/beta.md',
          quote: 'talks about alphaalpha',
        },
      ]);
      expect(
        report.notes.some((n) => n.startsWith('1 golden quote(s) no longer occur in their document')),
      ).toBe(true);
      const byId = new Map(report.run.perQuery.map((q) => [q.id, q]));
      expect(byId.get('kept')!.metrics.recallAtK[10]).toBe(1);
      expect(byId.get('edited')!.metrics.recallAtK[10]).toBe(0.5);
      // Editing the passage back in makes the set measurable again.
      temp.write('notes/beta.md', `${noteText('beta')}\nIt also talks about alphaalpha.\n`);
      await kb.index();
      expect((await kb.evaluate({ history: false })).staleQuotes).toBeUndefined();
    } finally {
      await kb.close();
    }
  });
});
