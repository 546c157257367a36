// The evaluate() use case against a real index: one read snapshot, the vector leg, model identity, and the
// corpus digest's sensitivity to what search reads; runEval()'s order: show, write the files, save, gate.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { EvalOutput } from '../../src/app/eval/index.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { readCorpusDigest } from '../../src/store/corpus-digest.js';
import type { Embedder } from '../../src/types.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { noteText, type TempKb, threeNoteFiles, useTempKbs } from '../support/temp-kb.js';

const GOLDEN = `queries:
  - id: alpha
    query: "talks about alphaalpha"
    expected:
      - path: notes/alpha.md
  - id: beta
    query: "mentions betabeta"
    expected:
      - path: notes/beta.md
        heading: Details of beta
`;

const createKb = useTempKbs();
const makeKb = (): TempKb => createKb(threeNoteFiles({ '.groove-eval.yml': GOLDEN }));

const counting = async (): Promise<Embedder> => new CountingEmbedder();

describe('evaluate()', () => {
  it('scores through the vector leg too and records the model id', async () => {
    const temp = makeKb();
    const config = temp.config();
    const indexer = openKnowledgeBase(config, { createEmbedder: counting });
    await indexer.index();
    await indexer.close();
    const facade = openKnowledgeBase(temp.config(), { createEmbedder: counting });
    try {
      const report = await facade.evaluate({ history: false });
      expect(report.run.fingerprint.model).toBe('test-counting:counting-8');
      expect(report.run.aggregate.queryCount).toBe(2);
      expect(report.run.aggregate.recallAtK[10]).toBe(1);
      // The extra metrics are measured; judged@k is not (no judgment stored, hand-written golden set).
      expect(report.run.aggregate.extra?.hitRateAtK[10]).toBe(1);
      expect(report.run.aggregate.judgedAtK).toBeUndefined();
      expect(report.legFailures).toEqual([]);
      expect(report.run.corpus).toMatchObject({ documents: 3, chunks: 6 });
    } finally {
      await facade.close();
    }
  });

  it('measures one snapshot: a commit during the run is not in the recorded corpus', async () => {
    const temp = makeKb();
    const first = openKnowledgeBase(temp.config(), { createEmbedder: counting });
    await first.index();
    await first.close();
    // The second facade writes a new document while eval is between two searches.
    const writer = openKnowledgeBase(temp.config(), { createEmbedder: counting });
    let wrote = false;
    const interfering: Embedder = Object.assign(new CountingEmbedder(), {
      async embedQuery(text: string) {
        if (!wrote) {
          wrote = true;
          temp.write('notes/delta.md', noteText('delta'));
          await writer.index();
        }
        return new CountingEmbedder().embedQuery(text);
      },
    });
    const facade = openKnowledgeBase(temp.config(), { createEmbedder: async () => interfering });
    try {
      const report = await facade.evaluate({ history: false });
      expect(wrote).toBe(true);
      expect(report.run.corpus!.documents).toBe(3);
      expect(facade.status().documents).toBe(4);
      const after = await facade.evaluate({ history: false });
      expect(after.run.corpus!.documents).toBe(4);
    } finally {
      await facade.close();
      await writer.close();
    }
  });

  it('runs two evaluations on one facade at the same time', async () => {
    const temp = makeKb();
    const facade = openKnowledgeBase(temp.config(), { createEmbedder: counting });
    try {
      await facade.index();
      const [a, b] = await Promise.all([
        facade.evaluate({ history: false }),
        facade.evaluate({ history: false }),
      ]);
      expect(a.run.aggregate).toEqual(b.run.aggregate);
      expect(a.run.corpus).toEqual(b.run.corpus);
      expect((await facade.search({ query: 'alphaalpha' })).results.length).toBeGreaterThan(0);
    } finally {
      await facade.close();
    }
  });

  it('refuses a model that differs from the index', async () => {
    const temp = makeKb();
    const indexer = openKnowledgeBase(temp.config(), { createEmbedder: counting });
    await indexer.index();
    await indexer.close();
    const facade = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
    try {
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({ code: 'INDEX_MISMATCH' });
    } finally {
      await facade.close();
    }
  });
});

describe('corpus digest', () => {
  it('is stable across identical rebuilds and moves with any indexed field', async () => {
    const temp = makeKb();
    const digest = () => {
      const db = new Database(temp.dbPath, { readonly: true });
      try {
        const rows: string[] = [];
        const snapshot = readCorpusDigest(db, (row) => rows.push(`${row.path}#${row.chunkIndex}`));
        return { ...snapshot, rows };
      } finally {
        db.close();
      }
    };
    const build = async (force = false) => {
      const facade = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
      await facade.index({ force });
      await facade.close();
    };
    await build();
    const first = digest();
    expect(first.rows).toEqual([
      'notes/alpha.md#0',
      'notes/alpha.md#1',
      'notes/beta.md#0',
      'notes/beta.md#1',
      'notes/gamma.md#0',
      'notes/gamma.md#1',
    ]);
    await build(true);
    expect(digest().digest).toBe(first.digest);
    // A heading edit keeps both counts but changes what search reads.
    temp.write('notes/gamma.md', noteText('gamma').replace('## Details of gamma', '## More about gamma'));
    await build();
    const edited = digest();
    expect([edited.documents, edited.chunks]).toEqual([first.documents, first.chunks]);
    expect(edited.digest).not.toBe(first.digest);
    fs.rmSync(path.join(temp.kbPath, 'notes/gamma.md'));
    await build();
    expect(digest()).toMatchObject({ documents: 2, chunks: 4 });
  });
});

describe('runEval()', () => {
  const recorder = () => {
    const calls: string[] = [];
    const output: EvalOutput = {
      show: (report) => calls.push(`show ${report.run.aggregate.queryCount}`),
      renderHtml: () => '<html></html>',
      wrote: ({ kind, path: file }) => calls.push(`wrote ${kind} ${path.basename(file)}`),
      diagnose: () => calls.push('diagnose'),
      historyWarning: (warning) => calls.push(`warning ${warning}`),
    };
    return { calls, output };
  };

  it('shows the numbers, writes the TREC files and the report, then saves the history and decides the gates', async () => {
    const temp = makeKb();
    const indexer = openKnowledgeBase(temp.config(), { createEmbedder: counting });
    await indexer.index();
    await indexer.close();
    const facade = openKnowledgeBase(temp.config(), { createEmbedder: counting });
    try {
      const { calls, output } = recorder();
      const outcome = await facade.runEval(
        {
          failOnRegression: true,
          report: path.join(temp.root, 'report.html'),
          trec: { run: path.join(temp.root, 'run.txt'), qrels: path.join(temp.root, 'qrels.txt') },
        },
        output,
      );
      expect(calls).toEqual([
        'show 2',
        'wrote trec run.txt',
        'wrote trec qrels.txt',
        'wrote report report.html',
        'diagnose',
      ]);
      expect(fs.readFileSync(path.join(temp.root, 'report.html'), 'utf8')).toBe('<html></html>');
      expect(outcome.saved?.keptRuns).toBe(1);
      expect(outcome.regressed).toBe(false);
    } finally {
      await facade.close();
    }
  });

  it('refuses a report path it cannot write before measuring anything', async () => {
    const temp = makeKb();
    const facade = openKnowledgeBase(temp.config(), { createEmbedder: counting });
    try {
      const { calls, output } = recorder();
      const report = path.join(temp.root, 'missing', 'report.html');
      await expect(facade.runEval({ history: false, report }, output)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      expect(calls).toEqual([]);
    } finally {
      await facade.close();
    }
  });
});
