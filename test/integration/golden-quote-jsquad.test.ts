// Quote anchors on a real golden set: JSQuAD (valid) from ../shared/eval, lexical-only. Its heading anchors
// (`段落 N`) are rewritten into quotes by `groove eval golden quote`, and eval must score the rewritten set
// exactly as the original, query by query. The whole set re-anchored is over the 1 MiB golden limit, so it is
// rewritten in parts; GROOVE_QUOTE_PARTS=all measures every part, else the first part only (≈ 1/4 of it).
// Skipped without ../shared/eval.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { openKnowledgeBase, quoteGolden } from '../../src/app/index.js';
import { resolveConfig } from '../../src/config/resolve-config.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dataset = path.resolve(repoRoot, '../shared/eval/jsquad-valid');
const present = fs.existsSync(path.join(dataset, 'golden.yml')) && fs.existsSync(path.join(dataset, 'kb'));
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

const PART_QUERIES = 1200;

describe.skipIf(!present)('quote anchors on JSQuAD (valid), lexical-only', () => {
  it('score exactly as the heading anchors they replace', { timeout: 600_000 }, async () => {
    const config = resolveConfig({
      cwd: temp,
      env: {},
      overrides: { kbPath: path.join(dataset, 'kb'), dbPath: path.join(temp, 'jsquad.db'), model: 'none' },
    });
    const kb = openKnowledgeBase(config);
    try {
      await kb.index();
      const all = (
        parseYaml(fs.readFileSync(path.join(dataset, 'golden.yml'), 'utf8')) as { queries: unknown[] }
      ).queries;
      const parts = process.env.GROOVE_QUOTE_PARTS === 'all' ? Math.ceil(all.length / PART_QUERIES) : 1;
      let anchored = 0;
      let headingEntries = 0;
      let measured = 0;
      const sums = { recall1: 0, recall10: 0, mrr: 0, ndcg10: 0 };
      for (let p = 0; p < parts; p++) {
        const headings = path.join(temp, `headings-${p}.yml`);
        const quotes = path.join(temp, `quotes-${p}.yml`);
        const queries = all.slice(p * PART_QUERIES, (p + 1) * PART_QUERIES);
        fs.writeFileSync(headings, stringifyYaml({ queries }, { lineWidth: 0 }));
        const result = await quoteGolden(kb, { golden: headings, out: quotes });
        anchored += result.anchored;
        headingEntries += result.headingEntries;
        const options = { history: false, kValues: [1, 5, 10], limit: 10 };
        const before = await kb.evaluate({ ...options, golden: headings });
        const after = await kb.evaluate({ ...options, golden: quotes });
        expect(after.run.perQuery.map((q) => [q.id, q.metrics])).toEqual(
          before.run.perQuery.map((q) => [q.id, q.metrics]),
        );
        expect(after.run.aggregate).toEqual(before.run.aggregate);
        measured += queries.length;
        for (const q of after.run.perQuery) {
          sums.recall1 += q.metrics.recallAtK[1]!;
          sums.recall10 += q.metrics.recallAtK[10]!;
          sums.mrr += q.metrics.reciprocalRank;
          sums.ndcg10 += q.metrics.ndcgAtK[10]!;
        }
      }
      expect(measured).toBe(parts === 1 ? PART_QUERIES : 4442);
      // Nearly every paragraph is one chunk with a passage of its own.
      expect(anchored / headingEntries).toBeGreaterThan(0.95);
      const mean = (sum: number) => (sum / measured).toFixed(4);
      console.log(
        `jsquad: ${anchored} of ${headingEntries} heading entries re-anchored; ${measured} queries identical; both: recall@1 ${mean(sums.recall1)} recall@10 ${mean(sums.recall10)} MRR ${mean(sums.mrr)} nDCG@10 ${mean(sums.ndcg10)}`,
      );
    } finally {
      await kb.close();
    }
  });
});
