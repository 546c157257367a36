// Agent judgments end to end on a real index: record_feedback stores them durably (kept across re-index and a
// forced rebuild), golden build applies the four filters and writes a golden YAML plus sidecar that eval reads.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { noteText, type TempKb, threeNoteFiles, useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();
const makeKb = (): TempKb => createKb(threeNoteFiles({ 'rules/always.md': noteText('rules') }));

const clock = { now: new Date('2026-04-01T09:00:00Z') };
const open = (temp: TempKb) =>
  openKnowledgeBase(temp.config({ overrides: { model: 'none' } }), { now: () => clock.now });

function feedbackRows(temp: TempKb): number {
  const db = new Database(temp.dbPath, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM feedback_items').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('record_feedback', () => {
  it('stores a serve, names judged paths that are not indexed, and refuses what can never be a golden entry', async () => {
    const temp = makeKb();
    const facade = open(temp);
    try {
      await facade.index();
      const receipt = await facade.recordFeedback({
        taskId: 'task-1',
        query: 'talks about alphaalpha',
        items: [
          { path: 'notes/alpha.md', verdict: 'helped' },
          { path: 'notes/alpha.md', heading: 'No such heading', verdict: 'helped' },
          { path: 'notes/typo.md', verdict: 'noise' },
        ],
      });
      expect(receipt).toMatchObject({ taskId: 'task-1', items: 3, helped: 2 });
      expect(receipt.notIndexed).toEqual(['notes/alpha.md (heading "No such heading")', 'notes/typo.md']);
      expect(feedbackRows(temp)).toBe(3);
      for (const [input, message] of [
        [{ taskId: ' ', query: 'x y z', items: [{ path: 'a.md', verdict: 'helped' }] }, 'task_id'],
        [{ taskId: 't', query: '-only -exclusions', items: [{ path: 'a.md', verdict: 'helped' }] }, 'query'],
        [{ taskId: 't', query: 'fine query', items: [] }, 'items must list'],
        [
          { taskId: 't', query: 'fine query', items: [{ path: '../etc/passwd', verdict: 'helped' }] },
          'not a knowledge-base path',
        ],
      ] as const) {
        await expect(facade.recordFeedback(input as never)).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: expect.stringContaining(message),
        });
      }
      expect(feedbackRows(temp)).toBe(3);
    } finally {
      await facade.close();
    }
  });

  it('keeps judgments across an incremental re-index and a forced rebuild', async () => {
    const temp = makeKb();
    const facade = open(temp);
    try {
      await facade.index();
      await facade.recordFeedback({
        taskId: 'keep-me',
        query: 'mentions betabeta',
        items: [{ path: 'notes/beta.md', verdict: 'helped', alwaysServed: false }],
      });
      temp.write('notes/delta.md', noteText('delta'));
      await facade.index();
      expect(feedbackRows(temp)).toBe(1);
      const events: string[] = [];
      await facade.index({ force: true, onEvent: (e) => e.kind === 'warning' && events.push(e.message) });
      expect(events).toEqual([]);
      expect(feedbackRows(temp)).toBe(1);
      // Recording still works on the swapped-in file, and ids keep increasing.
      const next = await facade.recordFeedback({
        taskId: 'after',
        query: 'gammaalpha',
        items: [{ path: 'notes/gamma.md', verdict: 'helped' }],
      });
      expect(next.serveId).toBe(2);
      expect(feedbackRows(temp)).toBe(2);
    } finally {
      await facade.close();
    }
  });
});

function judgedPaths(temp: TempKb): string[] {
  const db = new Database(temp.dbPath, { readonly: true });
  try {
    return (
      db.prepare('SELECT path FROM feedback_items ORDER BY serve_id, position').pluck().all() as string[]
    ).sort();
  } finally {
    db.close();
  }
}

describe('judgments follow their documents', () => {
  it('move with a rename, stay through an edit, go with a deletion, and all survive --force', async () => {
    const temp = makeKb();
    const facade = open(temp);
    try {
      await facade.index();
      await facade.recordFeedback({
        taskId: 'moves',
        query: 'talks about alphaalpha',
        items: [
          { path: 'notes/alpha.md', verdict: 'helped' },
          { path: 'notes/alpha.md', heading: 'Details of alpha', verdict: 'helped' },
          { path: 'notes/beta.md', verdict: 'noise' },
        ],
      });
      await facade.recordFeedback({
        taskId: 'goes',
        query: 'mentions gammabeta',
        items: [{ path: 'notes/gamma.md', verdict: 'helped' }],
      });
      await facade.recordFeedback({
        taskId: 'typo',
        query: 'never indexed',
        items: [{ path: 'notes/nowhere.md', verdict: 'helped' }],
      });
      // Rename (same bytes at a new path, paired like its chunks): both judgments of alpha follow it.
      temp.move('notes/alpha.md', 'archive/alpha.md');
      // Edit: beta keeps its judgment.
      temp.write(
        'notes/beta.md',
        `${noteText('beta')}
One more line of text about betabeta.
`,
      );
      // Deletion: gamma's judgment goes, and so does its serve, which has nothing left.
      temp.remove('notes/gamma.md');
      const summary = await facade.index();
      expect(summary).toMatchObject({ renamed: 1, updated: 1, deleted: 1 });
      expect(judgedPaths(temp)).toEqual([
        'archive/alpha.md',
        'archive/alpha.md',
        'notes/beta.md',
        'notes/nowhere.md',
      ]);
      const served = (await facade.buildGolden({ out: path.join(temp.root, 'g.yml') })).draft.input;
      expect(served).toEqual({ queries: 2, items: 4, tasks: 2 });
      // A forced rebuild copies every judgment as it is, the never-indexed path's too.
      await facade.index({ force: true });
      expect(judgedPaths(temp)).toEqual([
        'archive/alpha.md',
        'archive/alpha.md',
        'notes/beta.md',
        'notes/nowhere.md',
      ]);
      const boosted = await facade.search({ query: 'alphaalpha', boost: true, explain: true });
      expect(boosted.results[0]).toMatchObject({
        path: 'archive/alpha.md',
        explain: { boostEvidence: { helped: 1, judgments: 1 } },
      });
    } finally {
      await facade.close();
    }
  });
});

describe('golden build --from-feedback', () => {
  it('applies the four filters, counts what each removed, and writes a golden set eval can run', async () => {
    const temp = makeKb();
    const facade = open(temp);
    try {
      await facade.index();
      const record = (
        taskId: string,
        query: string,
        items: Parameters<typeof facade.recordFeedback>[0]['items'],
      ) => facade.recordFeedback({ taskId, query, items });
      await record('t-alpha', 'talks about alphaalpha', [
        { path: 'rules/always.md', verdict: 'helped', alwaysServed: true },
        { path: 'notes/alpha.md', verdict: 'helped' },
        { path: 'notes/gamma.md', verdict: 'noise' },
      ]);
      await record('t-noise', 'unrelated question', [{ path: 'notes/gamma.md', verdict: 'noise' }]);
      await record('t-retired', 'something retired', [{ path: 'notes/retired.md', verdict: 'helped' }]);
      await record('t-beta', 'first wording of beta', [{ path: 'notes/alpha.md', verdict: 'helped' }]);
      await record('t-beta', 'mentions betabeta', [
        { path: 'notes/beta.md', heading: 'Details of beta', verdict: 'helped' },
      ]);

      const result = await facade.buildGolden();
      expect(result.written).toBe(true);
      // By default the set goes to the KB's own folder in groove's data folder; nothing is written in the KB.
      expect(path.basename(result.outPath)).toBe('golden.yml');
      expect(path.relative(temp.kbPath, result.outPath).startsWith('..')).toBe(true);
      expect(fs.existsSync(path.join(temp.kbPath, '.groove-eval.yml'))).toBe(false);
      expect(fs.existsSync(path.join(temp.kbPath, '.groove-eval.meta.yml'))).toBe(false);
      expect(result.draft.input).toEqual({ queries: 5, items: 7, tasks: 4 });
      expect(result.draft.steps.map((s) => [s.filter, s.queriesRemoved, s.itemsRemoved])).toEqual([
        ['always-served', 0, 1],
        ['no-positive', 1, 1],
        ['positive-not-indexed', 1, 1],
        ['repeated-task', 1, 1],
      ]);
      expect(result.meta).toEqual({
        created: '2026-04-01T09:00:00+00:00',
        corpusDocuments: 4,
        corpusChunks: 8,
        source: 'feedback',
      });
      const yaml = fs.readFileSync(result.outPath, 'utf8');
      expect(yaml).toContain(
        '# Built by `groove eval golden build --from-feedback` at 2026-04-01T09:00:00+00:00',
      );
      expect(yaml).toContain(
        '- id: t-alpha\n    query: talks about alphaalpha\n    expected:\n      - path: notes/alpha.md\n',
      );
      expect(yaml).toContain('heading: Details of beta');
      expect(yaml).not.toContain('rules/always.md');
      expect(fs.readFileSync(result.metaPath, 'utf8')).toContain('source: feedback');

      clock.now = new Date('2026-04-02T09:00:00Z');
      const report = await facade.evaluate({ history: false });
      expect(report.run.perQuery.map((q) => q.id)).toEqual(['t-alpha', 't-beta']);
      expect(report.run.aggregate.recallAtK[10]).toBe(1);
      expect(report.freshness).toMatchObject({ stale: false, meta: { source: 'feedback' } });
      // judged@k recomputed here: a hit is judged when its file was judged whole, or its heading was.
      const judged = (hit: { path: string; heading: string | null }) =>
        ['rules/always.md', 'notes/alpha.md', 'notes/gamma.md', 'notes/retired.md'].includes(hit.path) ||
        (hit.path === 'notes/beta.md' && hit.heading?.toLowerCase() === 'details of beta');
      for (const k of [1, 5, 10]) {
        const shares = report.run.perQuery.map((q) => {
          const top = q.topK.slice(0, k);
          return top.filter(judged).length / top.length;
        });
        expect(report.run.aggregate.judgedAtK?.[k]).toBeCloseTo(
          shares.reduce((a, b) => a + b, 0) / shares.length,
          12,
        );
      }
      expect(report.run.aggregate.judgedAtK?.[10]).toBeLessThan(1);

      // A rebuild over a set it built itself is fine.
      expect((await facade.buildGolden()).written).toBe(true);
    } finally {
      await facade.close();
    }
  });

  it('never overwrites a hand-written golden file unless --out says so, and writes nothing when no query survives', async () => {
    const temp = makeKb();
    const handWritten = 'queries:\n  - query: "hand written"\n    expected:\n      - path: notes/alpha.md\n';
    temp.write('.groove-eval.yml', handWritten);
    const facade = open(temp);
    try {
      await facade.index();
      await facade.recordFeedback({
        taskId: 'only-noise',
        query: 'talks about alphaalpha',
        items: [{ path: 'notes/alpha.md', verdict: 'noise' }],
      });
      // The default output, in groove's data folder, holds a hand-written set: refused.
      const own = (await facade.buildGolden()).outPath;
      expect(path.relative(temp.kbPath, own).startsWith('..')).toBe(true);
      fs.writeFileSync(own, handWritten);
      await expect(facade.buildGolden()).rejects.toMatchObject({
        code: 'FILE_REFUSED',
        message: expect.stringContaining('it was not built from feedback'),
      });
      const out = path.join(temp.root, 'built.yml');
      const empty = await facade.buildGolden({ out });
      expect(empty.written).toBe(false);
      expect(fs.existsSync(out)).toBe(false);
      expect(fs.readFileSync(own, 'utf8')).toBe(handWritten);
      expect(fs.readFileSync(temp.abs('.groove-eval.yml'), 'utf8')).toBe(handWritten);
    } finally {
      await facade.close();
    }
  });
});
