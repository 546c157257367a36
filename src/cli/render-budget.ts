// `groove eval --budget` as text: recall at each token budget, budgeted passages beside whole chunks, and the
// paired difference with its 95% interval.
import type { EvalReport } from '../app/index.js';

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;

/** The budget table, or nothing when the run measured no budget. */
export function renderBudgetText(report: Pick<EvalReport, 'budget'>): string {
  const rows = report.budget;
  if (!rows || rows.length === 0) return '';
  const lines = [
    '',
    'recall at a token budget (passages = max_tokens answer; whole chunks = top hits in rank order until the budget)',
    '  budget   passages (mean tokens)   whole chunks (mean tokens)   difference [95% CI]',
  ];
  for (const row of rows) {
    const d = row.difference;
    const interval = Number.isFinite(d.ciLow) ? `[${signed(d.ciLow)}, ${signed(d.ciHigh)}]` : '[n/a]';
    lines.push(
      `  ${String(row.maxTokens).padStart(6)}   ${pct(row.passages.recall).padStart(6)} (${Math.round(row.passages.meanTokens)})`.padEnd(
        36,
      ) +
        `${pct(row.wholeChunks.recall).padStart(6)} (${Math.round(row.wholeChunks.meanTokens)})`.padEnd(29) +
        `${signed(d.meanDiff)} pts ${interval} ${d.verdict}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
