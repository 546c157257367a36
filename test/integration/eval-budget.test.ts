// `eval --budget` on a real index: recall at each token budget for the max_tokens passages and for whole chunks,
// only text inside the tokens returned counting, the ranking metrics untouched, and the JSON form.
import { describe, expect, it } from 'vitest';
import { evalReportToJson } from '../../src/app/eval/eval-report-json.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { estimateTokens } from '../../src/rank/token-estimate.js';
import { useTempKbs } from '../support/temp-kb.js';

const filler = Array.from({ length: 12 }, (_, i) => `Filler sentence number ${i} says nothing of note.`).join(
  ' ',
);
const LONG = `# Long\n\n${filler} ${'zebrafish '.repeat(8).trim()}. ${filler}\n`;
const SHORT = '# Short\n\nA zebrafish is mentioned once in this short note.\n';

const GOLDEN = `queries:
  - id: quoted
    query: "zebrafish"
    expected:
      - path: notes/short.md
`;

const createKb = useTempKbs();

describe('eval --budget', () => {
  it('counts only the returned tokens: passages reach the second hit, whole chunks stop inside the first', async () => {
    const temp = createKb({ 'notes/long.md': LONG, 'notes/short.md': SHORT, '.groove-eval.yml': GOLDEN });
    const facade = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }), {
      createEmbedder: async () => null,
    });
    try {
      await facade.index();
      const plain = await facade.evaluate({ history: false });
      // The long note ranks first, the expected short one second.
      expect(plain.run.perQuery[0]!.topK.map((hit) => hit.path)).toEqual(['notes/long.md', 'notes/short.md']);
      const chunkTokens = estimateTokens(LONG.slice(LONG.indexOf('Filler')).trim());
      const budgets = [60, chunkTokens + 40];
      const report = await facade.evaluate({ history: false, budgets });
      expect(report.run.aggregate).toEqual(plain.run.aggregate);
      const [small, large] = report.budget!;
      // 60 tokens: both hits' matched sentences fit; whole chunks give only a prefix of the long note.
      expect(small!.passages.recall).toBe(1);
      expect(small!.wholeChunks.recall).toBe(0);
      expect(small!.passages.meanTokens).toBeLessThanOrEqual(60);
      expect(small!.wholeChunks.meanTokens).toBeLessThanOrEqual(60);
      // Room for the whole long chunk and the short one: both answers reach the short note.
      expect(large!.passages.recall).toBe(1);
      expect(large!.wholeChunks.recall).toBe(1);
      expect(small!.difference).toMatchObject({ n: 1, meanDiff: 1 });

      const json = evalReportToJson(report).budget_recall as Record<string, unknown>[];
      expect(json[0]).toMatchObject({
        max_tokens: 60,
        passages: { recall: 1 },
        whole_chunks: { recall: 0 },
        difference: { queries: 1, mean: 1, ci_low: null, ci_high: null, verdict: 'indistinguishable' },
      });
      expect(evalReportToJson(plain)).not.toHaveProperty('budget_recall');
    } finally {
      await facade.close();
    }
  });
});
