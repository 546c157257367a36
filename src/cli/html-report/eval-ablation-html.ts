// The stage-ablation block of the eval HTML report (`groove eval --ablate`): one row per stage switched off, its
// state, verdict, and the paired difference against the full pipeline for the gated metrics. It reads the
// `ablation` list of the `--format json` object, so it shows whatever that list carries and nothing when the
// report has none.
import * as z from 'zod';
import { isGatedMetric } from '../../app/index.js';
import { escapeHtml, formatSigned } from './html-text.js';

const pairedMetric = z.object({
  metric: z.string(),
  mean_diff: z.number().nullable(),
  ci_low: z.number().nullable(),
  ci_high: z.number().nullable(),
  verdict: z.string(),
});
const ablationRow = z.object({
  stage: z.string(),
  row: z.string(),
  state: z.string(),
  reason: z.string().nullable(),
  degraded: z.boolean().default(false),
  versus_full: z.object({ shared_queries: z.number(), metrics: z.array(pairedMetric) }).nullable(),
  verdict: z.string().nullable(),
  helps_on: z.array(z.string()).default([]),
  hurts_on: z.array(z.string()).default([]),
});

function renderCell(m: z.infer<typeof pairedMetric> | undefined): string {
  if (!m) return '<td class="num">—</td>';
  const ci =
    m.ci_low === null || m.ci_high === null ? '' : ` [${formatSigned(m.ci_low)}, ${formatSigned(m.ci_high)}]`;
  return `<td class="num" data-value="${m.mean_diff ?? ''}"><span class="badge ${escapeHtml(m.verdict)}">${formatSigned(m.mean_diff)}</span>${ci}</td>`;
}

/** The block, or '' when `ablation` is not a list of ablation rows (no --ablate, or a report without it). */
export function renderAblationBlock(ablation: unknown): string {
  const parsed = z.array(ablationRow).safeParse(ablation);
  if (!parsed.success || parsed.data.length === 0) return '';
  const rows = parsed.data;
  // The gated metrics (recall@k, MRR, nDCG@k): the ones the ablation verdict reads.
  const metrics = [
    ...new Set(
      rows.flatMap((r) => (r.versus_full?.metrics ?? []).map((m) => m.metric).filter(isGatedMetric)),
    ),
  ];
  const body = rows.map((r) => {
    const byMetric = new Map((r.versus_full?.metrics ?? []).map((m) => [m.metric, m]));
    const verdict =
      r.state === 'run'
        ? `<span class="badge ${escapeHtml(r.verdict ?? 'none')}">${escapeHtml(r.verdict ?? '—')}</span>${r.degraded ? ' <span class="badge down">degraded</span>' : ''}`
        : `<span class="badge none">not applicable</span> <span class="muted">${escapeHtml(r.reason ?? '')}</span>`;
    const cells =
      r.state === 'run'
        ? metrics.map((m) => renderCell(byMetric.get(m))).join('')
        : `<td colspan="${metrics.length}"></td>`;
    return `<tr data-stage="${escapeHtml(r.stage)}"><th scope="row">${escapeHtml(r.row)}</th><td>${verdict}</td>${cells}</tr>`;
  });
  return [
    '<h2>Stage ablation</h2>',
    '<p class="muted">Each row is the decision pipeline with one stage switched off, paired query by query against the full pipeline (row − full, 95% interval): a stage helps where switching it off makes a metric fall.</p>',
    `<table id="ablation"><thead><tr><th>row</th><th>verdict</th>${metrics.map((m) => `<th class="num">Δ ${escapeHtml(m)}</th>`).join('')}</tr></thead><tbody>`,
    ...body,
    '</tbody></table>',
  ].join('\n');
}
