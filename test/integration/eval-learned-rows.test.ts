// eval's learned rows on a real index, with a golden set built from the same judgments the rows learn from:
// the naive rows score above their honest twins (the leak, measured with its interval), the honest rows equal
// core when the feedback says nothing beyond the labels, and do better than core when other tasks taught them
// something. The report says which judgments each row used.
import { describe, expect, it } from 'vitest';
import type { EvalReport, EvalRowReport } from '../../src/app/eval/eval-report.js';
import { evalReportToJson } from '../../src/app/eval/eval-report-json.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { type TempKb, useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();
const NOW = new Date('2026-05-01T12:00:00Z');

const TOPICS = ['widget', 'sprocket', 'gizmo'] as const;

/**
 * Three topics that share no query word, four notes each (n1 mentions its topic most, n4 least), and two notes
 * for the graph: one about gearboxes, one about lubrication that no query matches.
 */
function topicNotes(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const topic of TOPICS) {
    for (let n = 1; n <= 4; n++) {
      const mentions = Array.from({ length: 5 - n }, () => topic).join(' ');
      files[`${topic}/n${n}.md`] =
        `# Note ${n}\n\nThis note number ${n} is about ${mentions} and other filler words to make a chunk.\n`;
    }
  }
  files['notes/other.md'] =
    '# Other\n\nA note about gearboxes and their maintenance schedule, nothing else.\n';
  files['notes/manual.md'] = '# Manual\n\nLubrication intervals for heavy machinery, written down once.\n';
  return files;
}

const TOML = '[search.boost]\nmin_judgments = 1\nstrength = 10\n';

function open(temp: TempKb) {
  return openKnowledgeBase(temp.config({ toml: TOML, overrides: { model: 'none' } }), { now: () => NOW });
}

type Facade = ReturnType<typeof open>;

/**
 * One serve per task, one task per topic: the topic's last note helped, its first was noise. The gearbox task
 * found the gearbox note and the lubrication manual, which no query's words reach. No judgment touches another
 * query's candidates, so the feedback says nothing beyond the labels it makes.
 */
async function recordTasks(facade: Facade): Promise<void> {
  for (const topic of TOPICS) {
    await facade.recordFeedback({
      taskId: `t-${topic}`,
      query: topic,
      items: [
        { path: `${topic}/n4.md`, verdict: 'helped' },
        { path: `${topic}/n1.md`, verdict: 'noise' },
      ],
    });
  }
  await facade.recordFeedback({
    taskId: 't-gearbox',
    query: 'gearboxes maintenance',
    items: [
      { path: 'notes/other.md', verdict: 'helped' },
      { path: 'notes/manual.md', verdict: 'helped' },
    ],
  });
}

const row = (report: EvalReport, name: string): EvalRowReport =>
  [report, ...report.otherRows].find((r) => r.run.row === name)!;
const mrr = (r: EvalRowReport) => r.run.aggregate.mrr;
const recall10 = (r: EvalRowReport) => r.run.aggregate.recallAtK[10]!;

describe('learned eval rows', () => {
  it('measure the leak on a golden set built from the same feedback, and equal core when honest', async () => {
    const temp = createKb(topicNotes());
    const facade = open(temp);
    try {
      await facade.index();
      await recordTasks(facade);
      const built = await facade.buildGolden();
      expect(built.draft.queries.map((q) => q.id)).toEqual([
        't-widget',
        't-sprocket',
        't-gizmo',
        't-gearbox',
      ]);
      const report = await facade.evaluate({ history: false, rows: ['core', 'boost', 'graph+boost'] });
      expect([report, ...report.otherRows].map((r) => [r.run.row, r.appended])).toEqual([
        ['core', false],
        ['boost', false],
        ['graph+boost', false],
        ['boost-honest', true],
        ['graph+boost-honest', true],
      ]);
      const core = row(report, 'core');
      const naive = row(report, 'graph+boost');
      const honest = row(report, 'graph+boost-honest');
      // The labels came from these very judgments: the naive rows find them better than core.
      expect(mrr(row(report, 'boost'))).toBeGreaterThan(mrr(core));
      expect(mrr(naive)).toBeGreaterThan(mrr(core));
      expect(recall10(naive)).toBe(1);
      expect(recall10(core)).toBeLessThan(1);
      // Each query's judgments are only its own serve's: left out, nothing is learned — exactly core.
      for (const name of ['boost-honest', 'graph+boost-honest']) {
        expect(row(report, name).run.perQuery.map((q) => q.topK)).toEqual(
          core.run.perQuery.map((q) => q.topK),
        );
      }
      // The leak is the naive row minus its honest twin, query by query.
      expect(naive.versusTwin!.twin).toBe('graph+boost-honest');
      const leakMrr = naive.versusTwin!.paired.metrics.find((m) => m.metric === 'MRR')!;
      expect(leakMrr.meanDiff).toBeCloseTo(mrr(naive) - mrr(honest), 12);
      expect(leakMrr.meanDiff).toBeGreaterThan(0);
      expect(naive.versusCore!.metrics.find((m) => m.metric === 'MRR')!.meanDiff).toBeCloseTo(
        mrr(naive) - mrr(core),
        12,
      );
      expect(honest.versusTwin).toBeNull();
      expect(core.learning).toBeNull();
      expect(naive.learning).toMatchObject({
        counts: { serves: 4, items: 8, counted: 8, alwaysServed: 0, pastHorizon: 0 },
        judgedDocuments: 8,
        coHelpfulEdges: 1,
        honest: null,
        goldenSource: 'feedback',
      });
      expect(honest.learning!.honest).toEqual({ queries: 4, queriesLeavingOut: 4, servesLeftOut: 4 });
      // Learned rows record what they learned from, so they never compare with runs of other judgments.
      expect(naive.run.fingerprint).toMatchObject({
        judgments: { serves: 4, items: 8 },
        boost: {},
        graph: {},
      });
      expect(honest.run.fingerprint.honest).toBe(true);
      expect(core.run.fingerprint.judgments).toBeUndefined();
      const json = evalReportToJson(report) as { rows: Record<string, unknown>[] };
      expect(json.rows[2]).toMatchObject({
        row: 'graph+boost',
        learning: { judgments: { serves: 4 }, golden_source: 'feedback' },
        versus_core: { shared_queries: 4 },
        versus_honest_twin: { twin: 'graph+boost-honest', shared_queries: 4 },
      });
      expect(json.rows[4]).toMatchObject({ learning: { honest: { serves_left_out: 4 } } });
    } finally {
      await facade.close();
    }
  });

  it('let an honest row keep what other tasks taught it', async () => {
    const temp = createKb(topicNotes());
    const facade = open(temp);
    try {
      await facade.index();
      await recordTasks(facade);
      await facade.buildGolden();
      // Other tasks, worded differently, found widget/n4 helpful too: fair evidence for the widget query.
      for (const i of [1, 2]) {
        await facade.recordFeedback({
          taskId: `later-${i}`,
          query: `which widget note helps ${i}`,
          items: [{ path: 'widget/n4.md', verdict: 'helped' }],
        });
      }
      const report = await facade.evaluate({ history: false, rows: ['core', 'boost'] });
      const core = row(report, 'core');
      const honest = row(report, 'boost-honest');
      const rankOfLabel = (r: EvalRowReport) =>
        r.run.perQuery.find((q) => q.id === 't-widget')!.topK.findIndex((h) => h.path === 'widget/n4.md') + 1;
      expect(rankOfLabel(honest)).toBeLessThan(rankOfLabel(core));
      expect(mrr(honest)).toBeGreaterThan(mrr(core));
      expect(honest.learning!.honest).toEqual({ queries: 4, queriesLeavingOut: 4, servesLeftOut: 4 });
      expect(honest.learning!.counts.serves).toBe(6);
    } finally {
      await facade.close();
    }
  });

  it('compare through the history only with runs that learned from the same judgments', async () => {
    const temp = createKb(topicNotes());
    const facade = open(temp);
    try {
      await facade.index();
      await recordTasks(facade);
      await facade.buildGolden();
      const measure = async () => {
        const { report } = await facade.runEval({ rows: ['core', 'graph+boost'] });
        return report;
      };
      await measure();
      const again = await measure();
      expect(row(again, 'graph+boost').comparison).toBe('compatible');
      expect(row(again, 'graph+boost-honest').comparison).toBe('compatible');
      await facade.recordFeedback({
        taskId: 'new',
        query: 'a new question',
        items: [{ path: 'widget/n2.md', verdict: 'helped' }],
      });
      const after = await measure();
      expect(row(after, 'core').comparison).toBe('compatible');
      expect(row(after, 'graph+boost').comparison).toBe('none');
      expect(row(after, 'graph+boost').run.fingerprint.judgments).toEqual({ serves: 5, items: 9 });
    } finally {
      await facade.close();
    }
  });

  it('leave a plain run without the boost and the graph hop, with a note, whatever the config enables', async () => {
    const temp = createKb(topicNotes());
    const facade = openKnowledgeBase(
      temp.config({
        toml: '[search.boost]\nenabled = true\nmin_judgments = 1\nstrength = 10\n[search.graph]\nenabled = true\n',
        overrides: { model: 'none' },
      }),
      { now: () => NOW },
    );
    try {
      await facade.index();
      await recordTasks(facade);
      await facade.buildGolden();
      const plain = await facade.evaluate({ history: false });
      const core = await facade.evaluate({ history: false, rows: ['core'] });
      expect(plain.run.perQuery.map((q) => q.topK)).toEqual(core.run.perQuery.map((q) => q.topK));
      expect(plain.notes.join('\n')).toContain(
        '[search.boost] and [search.graph] enabled, but a plain run measures without the boost and the graph hop',
      );
      expect(plain.learning).toBeNull();
    } finally {
      await facade.close();
    }
  });
});
