// Pure renderer for `groove eval --ablate`: one table after the report — the full (decision) pipeline, then each
// stage switched off in turn with its metrics, its paired difference from full and the verdict, or why the stage
// is not applicable.
import type { AblationRow, EvalReport, PairedRunComparison } from '../app/index.js';
import { signed } from './render-integrity.js';

const VERDICT_TEXT = {
  helps: 'stage helps',
  hurts: 'stage hurts',
  mixed: 'mixed',
  'no-measurable-effect': 'no measurable effect',
} as const;

/** The ablation table, or '' without --ablate. */
export function renderAblationText(report: EvalReport): string {
  const ablation = report.ablation;
  if (!ablation) return '';
  const maxK = Math.max(...report.run.fingerprint.kValues);
  const metrics = [`recall@${maxK}`, 'MRR', `nDCG@${maxK}`];
  const nameWidth = Math.max(10, ...ablation.map((row) => row.name.length + 2));
  // A column is as wide as its label or a value (`0.917`), plus two spaces.
  const widths = metrics.map((m) => Math.max(m.length, 5) + 2);
  const cells = (values: readonly string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('');
  const valuesOf = (aggregate: EvalReport['run']['aggregate']) =>
    cells(
      [aggregate.recallAtK[maxK] ?? 0, aggregate.mrr, aggregate.ndcgAtK[maxK] ?? 0].map((x) => x.toFixed(3)),
    );
  const shared = ablation.find((row) => row.versusFull)?.versusFull?.sharedQueries;
  const lines = [
    '',
    `Stage ablation: ${report.run.row === undefined ? 'the decision pipeline' : `the decision row ${report.run.row}`} ("full"), then each stage switched off in turn`,
    `  paired with full${shared === undefined ? '' : ` over ${shared} queries`} (95% CI; Δ = without the stage − full); never gated, never saved to the history`,
    `  ${'row'.padEnd(nameWidth)}${cells(metrics)}verdict`,
    `  ${'full'.padEnd(nameWidth)}${valuesOf(report.run.aggregate)}(decision row)`,
  ];
  for (const row of ablation) {
    if (!row.run || !row.versusFull || !row.judgement) {
      lines.push(`  ${row.name.padEnd(nameWidth)}not applicable: ${row.reason ?? ''}`);
      continue;
    }
    lines.push(`  ${row.name.padEnd(nameWidth)}${valuesOf(row.run.aggregate)}${describeVerdict(row)}`);
    lines.push(`  ${' '.repeat(nameWidth)}Δ ${describeDeltas(row.versusFull, metrics)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `stage helps (worse without it: recall@5, MRR)`: the verdict and the gated metrics that decided it. */
function describeVerdict(row: AblationRow): string {
  const { verdict, helpsOn, hurtsOn } = row.judgement!;
  const why = [
    ...(helpsOn.length > 0 ? [`worse without it: ${helpsOn.join(', ')}`] : []),
    ...(hurtsOn.length > 0 ? [`better without it: ${hurtsOn.join(', ')}`] : []),
  ];
  return why.length === 0 ? VERDICT_TEXT[verdict] : `${VERDICT_TEXT[verdict]} (${why.join('; ')})`;
}

/** `recall@10 -0.083 [-0.150, -0.017]  MRR …`: the shown metrics' paired differences and intervals. */
function describeDeltas(paired: PairedRunComparison, shown: readonly string[]): string {
  return shown
    .map((name) => {
      const m = paired.metrics.find((x) => x.metric === name);
      if (!m) return `${name} n/a`;
      return m.n < 2
        ? `${name} ${signed(m.meanDiff)}`
        : `${name} ${signed(m.meanDiff)} [${signed(m.ciLow)}, ${signed(m.ciHigh)}]`;
    })
    .join('  ');
}
