// A quality floor on real judgments: Cranfield 1400 (222 golden queries), lexical-only. The floor sits a little
// under what was measured when it was set (recall@10 0.415, MRR 0.493, nDCG@10 0.369), so a retrieval change
// that loses ground fails here while run-to-run noise does not.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { resolveConfig } from '../../src/config/resolve-config.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dataset = path.resolve(repoRoot, '../shared/eval/cranfield');
const present = fs.existsSync(path.join(dataset, 'golden.yml')) && fs.existsSync(path.join(dataset, 'kb'));
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

describe.skipIf(!present)('eval quality floor: Cranfield, lexical-only', () => {
  it('stays above the measured floor', { timeout: 180_000 }, async () => {
    const config = resolveConfig({
      cwd: temp,
      env: {},
      overrides: { kbPath: path.join(dataset, 'kb'), dbPath: path.join(temp, 'cranfield.db'), model: 'none' },
    });
    const kb = openKnowledgeBase(config);
    try {
      await kb.index();
      const report = await kb.evaluate({ golden: path.join(dataset, 'golden.yml'), history: false });
      const { aggregate } = report.run;
      expect(aggregate.queryCount).toBe(222);
      expect(report.run.corpus?.documents).toBe(1400);
      expect(aggregate.recallAtK[10]).toBeGreaterThanOrEqual(0.39);
      expect(aggregate.mrr).toBeGreaterThanOrEqual(0.46);
      expect(aggregate.ndcgAtK[10]).toBeGreaterThanOrEqual(0.345);
      // Golden files sit beside the corpus, so nothing in it quotes the queries.
      expect(report.run.findings).toEqual([]);
    } finally {
      await kb.close();
    }
  });
});
