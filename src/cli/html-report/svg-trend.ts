// One metric over the eval history as an inline SVG line chart: runs oldest to newest on x, the value (every
// metric lies in [0, 1]) on y. Runs compatible with the current one are filled dots joined by a line; the others
// are hollow dots off the line (their numbers measured something else); a degraded run gets a red ring.
import { escapeHtml, formatValue } from './html-text.js';

export interface TrendPoint {
  timestamp: string;
  row: string | null;
  value: number | null;
  compatible: boolean;
  degraded: boolean;
  current: boolean;
}

const WIDTH = 340;
const HEIGHT = 170;
const PAD = { left: 34, right: 12, top: 10, bottom: 22 };

/** The SVG of one metric's trend; a point whose run lacks the metric is left out. */
export function renderTrendChart(metric: string, points: readonly TrendPoint[]): string {
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) =>
    PAD.left + (points.length === 1 ? plotWidth / 2 : (i * plotWidth) / (points.length - 1));
  const y = (v: number) => PAD.top + (1 - Math.min(1, Math.max(0, v))) * plotHeight;
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (v) =>
      `<line class="grid" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(v)}" y2="${y(v)}"/>` +
      `<text x="${PAD.left - 4}" y="${y(v) + 3}" text-anchor="end">${v.toFixed(2)}</text>`,
  );
  const joined = points.flatMap((p, i) =>
    p.compatible && p.value !== null && Number.isFinite(p.value) ? [`${x(i)},${y(p.value)}`] : [],
  );
  const line = joined.length > 1 ? `<polyline class="trend-line" points="${joined.join(' ')}"/>` : '';
  const dots = points.flatMap((p, i) => {
    if (p.value === null || !Number.isFinite(p.value)) return [];
    const classes = [
      'point',
      p.compatible ? 'compatible' : 'incompatible',
      ...(p.degraded ? ['degraded'] : []),
      ...(p.current ? ['current'] : []),
    ].join(' ');
    const status = [
      p.current ? 'this run' : p.compatible ? 'compatible' : 'not compatible (other config, golden or k)',
      ...(p.degraded ? ['degraded'] : []),
    ].join(', ');
    const label = `${p.timestamp}${p.row === null ? '' : ` [${p.row}]`}: ${metric} ${formatValue(p.value)} (${status})`;
    return [
      `<circle class="${classes}" cx="${x(i)}" cy="${y(p.value)}" r="${p.current ? 5 : 4}" data-value="${p.value}"><title>${escapeHtml(label)}</title></circle>`,
    ];
  });
  // `2026-05-04 10:00`: the minutes tell apart runs of one day.
  const when = (p: TrendPoint | undefined) => p?.timestamp.slice(0, 16).replace('T', ' ') ?? '';
  const first = when(points[0]);
  const last = when(points[points.length - 1]);
  return [
    `<svg class="trend" data-metric="${escapeHtml(metric)}" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(`${metric} over ${points.length} run(s)`)}">`,
    ...grid,
    `<line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${HEIGHT - PAD.bottom}"/>`,
    points.length === 1
      ? `<text x="${x(0)}" y="${HEIGHT - 6}" text-anchor="middle">${escapeHtml(first)}</text>`
      : `<text x="${PAD.left}" y="${HEIGHT - 6}">${escapeHtml(first)}</text><text x="${WIDTH - PAD.right}" y="${HEIGHT - 6}" text-anchor="end">${escapeHtml(last)}</text>`,
    line,
    ...dots,
    '</svg>',
  ].join('');
}
