// `groove eval` on a golden set with negative queries, against a real lexical-only index: the ranking metrics
// count only the answerable queries, abstention is measured on both kinds, and the text and JSON show it.
import { describe, expect, it } from 'vitest';
import { evalReportToJson } from '../../src/app/eval/eval-report-json.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { renderEvalText } from '../../src/cli/render-eval.js';
import { threeNoteFiles, useTempKbs } from '../support/temp-kb.js';

const GOLDEN = `queries:
  - id: alpha
    query: "talks about alphaalpha"
    expected:
      - path: notes/alpha.md
  - id: off-topic
    query: "supersonic wing flutter"
    expected: []
`;

const createKb = useTempKbs();

describe('eval with negative queries', () => {
  it('keeps negatives out of the ranking metrics and reports abstention beside them', async () => {
    const temp = createKb(threeNoteFiles({ '.groove-eval.yml': GOLDEN }));
    const facade = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
    try {
      await facade.index();
      const report = await facade.evaluate({ history: false });
      expect(report.run.aggregate.queryCount).toBe(1);
      expect(report.run.aggregate.recallAtK[10]).toBe(1);
      const abstention = report.run.abstention!;
      expect(abstention).toMatchObject({ answerable: 1, negatives: 1, threshold: 0.3 });
      // The off-topic query shares no word with the notes: it abstains; the on-topic one does not.
      expect(abstention.recall).toMatchObject({ count: 1, of: 1 });
      expect(abstention.falseAbstain).toMatchObject({ count: 0, of: 1 });
      expect(abstention.auc).toBe(1);
      const text = renderEvalText(report, { color: false });
      expect(text).toContain(
        'Abstention (low_confidence: confidence < 0.3; 1 negative, 1 answerable queries',
      );
      expect(text).not.toContain('off-topic');
      const json = evalReportToJson(report) as { abstention?: { recall: { value: number } } };
      expect(json.abstention?.recall.value).toBe(1);
    } finally {
      await facade.close();
    }
  });
});
