// Parity of the two storage backends on real judgments: `groove eval` lexical-only on Cranfield, JSQuAD (valid)
// and SciFact (train) from ../shared/eval gives the same aggregate numbers — and the same ranked lists per query —
// whether the KB is indexed into a SQLite file or into PostgreSQL (PGlite over a socket, without pgvector: a
// lexical-only KB needs none). Whole datasets (≈ 75 s together); skipped without ../shared/eval.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/app/eval/index.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import { usePgliteServer } from '../support/pglite-server.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const evalRoot = path.resolve(repoRoot, '../shared/eval');
interface Dataset {
  name: string;
  golden: string;
  /** Golden queries and corpus documents, as measured when this test was written. */
  queries: number;
  documents: number;
}

const DATASETS: Dataset[] = [
  { name: 'cranfield', golden: 'golden.yml', queries: 222, documents: 1400 },
  { name: 'jsquad-valid', golden: 'golden.yml', queries: 4442, documents: 59 },
  { name: 'scifact', golden: 'golden-train.yml', queries: 809, documents: 5183 },
];

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-parity-'));
const pgServer = usePgliteServer({ withVector: false });
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

const present = (d: Dataset) => fs.existsSync(path.join(evalRoot, d.name, d.golden));

async function evaluate(dataset: Dataset, backend: 'sqlite' | 'postgres'): Promise<EvalReport> {
  const kbPath = path.join(evalRoot, dataset.name, 'kb');
  const golden = path.join(evalRoot, dataset.name, dataset.golden);
  const toml =
    backend === 'postgres'
      ? `[storage]\nbackend = "postgres"\nurl = "${pgServer().url}"\nkb = "${dataset.name}"\n`
      : '';
  const folder = fs.mkdtempSync(path.join(temp, `${backend}-`));
  if (toml) fs.writeFileSync(path.join(folder, 'groove.toml'), toml);
  const config = resolveConfig({
    cwd: folder,
    env: {},
    overrides: { kbPath, dbPath: path.join(folder, 'index.db'), model: 'none' },
  });
  const kb = openKnowledgeBase(config);
  try {
    await kb.index();
    return await kb.evaluate({ golden, history: false });
  } finally {
    await kb.close();
  }
}

describe('storage parity: groove eval lexical-only, SQLite vs PostgreSQL', () => {
  for (const dataset of DATASETS) {
    it.skipIf(!present(dataset))(
      present(dataset)
        ? `${dataset.name}: identical aggregates and rankings`
        : `${dataset.name}: identical aggregates and rankings (skipped: ../shared/eval/${dataset.name} is absent)`,
      { timeout: 900_000 },
      async () => {
        const lite = await evaluate(dataset, 'sqlite');
        const pg = await evaluate(dataset, 'postgres');
        expect(lite.run.aggregate.queryCount).toBe(dataset.queries);
        expect(lite.run.corpus?.documents).toBe(dataset.documents);
        expect(pg.run.corpus?.documents).toBe(dataset.documents);
        expect(pg.run.aggregate).toEqual(lite.run.aggregate);
        expect(pg.run.perQuery.map((q) => q.topK)).toEqual(lite.run.perQuery.map((q) => q.topK));
        // For the record in the test log: the numbers both backends gave.
        const a = lite.run.aggregate;
        console.info(
          `${dataset.name}: queries ${a.queryCount}, docs ${lite.run.corpus?.documents}, recall@10 ${a.recallAtK[10]}, MRR ${a.mrr}, nDCG@10 ${a.ndcgAtK[10]}`,
        );
      },
    );
  }
});
