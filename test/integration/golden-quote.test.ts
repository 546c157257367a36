// `groove eval golden quote` against a real lexical-only index: heading entries become quotes of their chunk
// that no other chunk holds, the entries it cannot anchor are left and listed with why, the file keeps its
// comments, and eval scores the rewritten set exactly as the original.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { openKnowledgeBase, quoteGolden } from '../../src/app/index.js';
import { containsQuote } from '../../src/core/quote-text.js';
import { noteText, threeNoteFiles, useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();

const GOLDEN = `# hand-written, kept by the rewrite
queries:
  - id: alpha-first
    query: "alphaalpha section"
    expected:
      - path: notes/alpha.md
        heading: Note alpha
  - id: alpha-second
    query: "alphaalpha section"
    tags: [kept]
    expected:
      - { path: notes/alpha.md, heading: Details of alpha }
      - path: notes/beta.md
  - id: gone
    query: "betabeta"
    expected:
      - { path: notes/beta.md, heading: No such heading }
  - id: twice
    query: "twin section"
    expected:
      - { path: notes/twin.md, heading: Same }
  - id: copied
    query: "gammaalpha"
    expected:
      - { path: notes/gamma.md, heading: Note gamma }
`;

const TWIN =
  '# Twin\n\n## Same\n\nThe first twin section says one thing at some length here.\n\n## Same\n\nThe second twin section says another thing at some length.\n';

function makeKb() {
  return createKb(
    threeNoteFiles({
      '.groove-eval.yml': GOLDEN,
      'notes/twin.md': TWIN,
      // A copy of gamma: no passage of gamma's chunks is in one chunk only.
      'notes/gamma-copy.md': noteText('gamma'),
    }),
  );
}

describe('groove eval golden quote', () => {
  it('re-anchors heading entries by a passage unique to their chunk and lists the rest', async () => {
    const temp = makeKb();
    const kb = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
    try {
      await kb.index();
      const out = path.join(temp.root, 'quoted.yml');
      const result = await quoteGolden(kb, { out });
      expect(result.headingEntries).toBe(5);
      expect(result.anchored).toBe(2);
      expect(result.unanchored.map((e) => [e.queryId, e.reason])).toEqual([
        ['gone', 'no-chunk'],
        ['twice', 'several-chunks'],
        ['copied', 'no-unique-passage'],
      ]);
      const text = fs.readFileSync(out, 'utf8');
      expect(text.startsWith('# hand-written, kept by the rewrite\n')).toBe(true);
      const written = parseYaml(text) as {
        queries: { id: string; tags?: string[]; expected: Record<string, string>[] }[];
      };
      const [first, second, gone] = written.queries;
      expect(first!.expected[0]).toEqual({ path: 'notes/alpha.md', quote: expect.any(String) });
      expect(second!.tags).toEqual(['kept']);
      expect(second!.expected[1]).toEqual({ path: 'notes/beta.md' });
      expect(gone!.expected[0]).toEqual({ path: 'notes/beta.md', heading: 'No such heading' });
      // Each quote is in its own chunk and in no other.
      const chunks: { path: string; heading: string | null; content: string }[] = [];
      await kb.withReadSnapshot(async (s) => s.readCorpus((row) => chunks.push(row)));
      for (const [entry, heading] of [
        [first!.expected[0]!, 'Note alpha'],
        [second!.expected[0]!, 'Details of alpha'],
      ] as const) {
        const holders = chunks.filter((c) => containsQuote(c.content, entry.quote!));
        expect(holders.map((c) => [c.path, c.heading])).toEqual([['notes/alpha.md', heading]]);
      }
      // The rewritten set scores as the original, query by query (the unanchored entries are unchanged).
      const before = await kb.evaluate({ history: false, kValues: [1, 5, 10] });
      const after = await kb.evaluate({ golden: out, history: false, kValues: [1, 5, 10] });
      expect(after.run.perQuery.map((q) => q.metrics)).toEqual(before.run.perQuery.map((q) => q.metrics));
      expect(after.run.aggregate).toEqual(before.run.aggregate);
    } finally {
      await kb.close();
    }
  });

  it('keeps the heading when asked, and never writes over an existing file unless --out names it', async () => {
    const temp = makeKb();
    const kb = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
    try {
      await kb.index();
      const first = await quoteGolden(kb, { keepHeading: true });
      // The default place is the KB's own folder in groove's data folder, not the KB.
      expect(first.outPath.startsWith(temp.root)).toBe(false);
      const written = parseYaml(fs.readFileSync(first.outPath, 'utf8')) as {
        queries: { expected: Record<string, string>[] }[];
      };
      expect(Object.keys(written.queries[0]!.expected[0]!)).toEqual(['path', 'heading', 'quote']);
      await expect(quoteGolden(kb)).rejects.toMatchObject({ code: 'FILE_REFUSED' });
      const again = await quoteGolden(kb, { golden: first.outPath, out: first.outPath });
      // Entries already quoted are not heading entries any more.
      expect(again.headingEntries).toBe(3);
      expect(again.anchored).toBe(0);
    } finally {
      await kb.close();
    }
  });
});
