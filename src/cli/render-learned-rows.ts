// Pure renderers for eval's learned rows (boost, graph over co-helpful edges) and their honest twins: which
// judgments a row learned from, its paired difference against `core`, and against its honest twin — the leak.
import type { EvalRowReport, LearningUse } from '../app/index.js';
import { renderPairedBlock } from './render-integrity.js';

/** The lines under a learned or honest row's aggregate; none for any other row. */
export function renderLearnedRow(
  report: EvalRowReport,
  options: { decisionRow: string | undefined; shown: readonly string[] },
): string[] {
  const { learning } = report;
  if (!learning) return [];
  const lines = [describeJudgments(learning)];
  if (learning.honest) lines.push(describeHonesty(learning.honest));
  // Against core: already printed as "vs decision row" when core decides.
  if (report.versusCore && options.decisionRow !== 'core') {
    lines.push(...renderPairedBlock('vs core', report.versusCore, options.shown));
  }
  if (report.versusTwin) {
    lines.push(
      ...renderPairedBlock(
        `leak: vs honest twin ${report.versusTwin.twin} (this row minus the twin)`,
        report.versusTwin.paired,
        options.shown,
      ),
    );
  }
  return lines;
}

function describeJudgments(learning: LearningUse): string {
  const c = learning.counts;
  const source =
    learning.goldenSource === 'feedback'
      ? 'the golden set was built from feedback, so its labels came from these judgments'
      : learning.goldenSource === null
        ? 'the golden set has no sidecar saying it was built from feedback'
        : `the golden set was not built from feedback (sidecar source: ${learning.goldenSource})`;
  return (
    `  learned from ${c.serves} serve(s), ${c.items} judged item(s): ${c.counted} counted ` +
    `(${c.alwaysServed} always-served, ${c.pastHorizon} past the horizon left out), ` +
    `${learning.judgedDocuments} judged document(s), ${learning.coHelpfulEdges} co-helpful edge(s); ${source}`
  );
}

function describeHonesty(honest: NonNullable<LearningUse['honest']>): string {
  return (
    `  honest: each query learned without its own serves (same task id or same text): ` +
    `${honest.queriesLeavingOut} of ${honest.queries} queries left ${honest.servesLeftOut} serve(s) out in all`
  );
}
