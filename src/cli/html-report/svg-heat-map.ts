// The tune grid as an inline SVG heat map: one row per bm25 weight set (heading / context / content), one column
// per rrf_k, each cell coloured by its mean nDCG@5 with the value written in it and in its title. The built-in
// default has a dashed orange outline, the refit condition a solid red one.
import type { FusionCondition } from '../../app/index.js';
import { escapeHtml } from './html-text.js';

export interface HeatMapInput {
  rrfK: readonly number[];
  weightSets: readonly { heading: number; context: number; content: number }[];
  /** `values[rrf_k index][weight set index]`. */
  values: readonly (readonly number[])[];
  /** Outlined dashed: the built-in default. */
  defaultCell: FusionCondition;
  /** Outlined red: the condition the refit chose. */
  refitCell: FusionCondition;
}

const CELL_WIDTH = 58;
const CELL_HEIGHT = 15;
const LABEL_WIDTH = 150;
const HEADER_HEIGHT = 30;

/** Viridis-like stops: dark is low, yellow is high. */
const STOPS: readonly [number, number, number][] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** The colour of t in [0, 1], and whether dark text reads on it. */
export function heatColour(t: number): { fill: string; darkText: boolean } {
  const clamped = Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0;
  const scaled = clamped * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(scaled));
  const f = scaled - i;
  const [a, b] = [STOPS[i]!, STOPS[i + 1]!];
  const channel = (c: number) => Math.round(a[c]! + (b[c]! - a[c]!) * f);
  const hex = [0, 1, 2].map((c) => channel(c).toString(16).padStart(2, '0')).join('');
  return { fill: `#${hex}`, darkText: clamped > 0.6 };
}

const weightLabel = (w: { heading: number; context: number; content: number }) =>
  [w.heading, w.context, w.content].map((v) => v.toFixed(1)).join(' / ');

const sameCell = (cell: FusionCondition, k: number, w: HeatMapInput['weightSets'][number]) =>
  cell.rrfK === k &&
  cell.bm25HeadingWeight === w.heading &&
  cell.bm25ContextWeight === w.context &&
  cell.bm25ContentWeight === w.content;

export function renderHeatMap(input: HeatMapInput): string {
  const all = input.values.flat().filter(Number.isFinite);
  const low = all.length > 0 ? Math.min(...all) : 0;
  const high = all.length > 0 ? Math.max(...all) : 1;
  const t = (v: number) => (high - low < 1e-12 ? 0.5 : (v - low) / (high - low));
  const width = LABEL_WIDTH + CELL_WIDTH * input.rrfK.length;
  const height = HEADER_HEIGHT + CELL_HEIGHT * input.weightSets.length;
  const header = input.rrfK.map(
    (k, c) =>
      `<text x="${LABEL_WIDTH + c * CELL_WIDTH + CELL_WIDTH / 2}" y="${HEADER_HEIGHT - 6}" text-anchor="middle">rrf_k ${k}</text>`,
  );
  const cells: string[] = [];
  input.weightSets.forEach((w, r) => {
    const top = HEADER_HEIGHT + r * CELL_HEIGHT;
    cells.push(
      `<text x="${LABEL_WIDTH - 6}" y="${top + CELL_HEIGHT - 4}" text-anchor="end">${weightLabel(w)}</text>`,
    );
    input.rrfK.forEach((k, c) => {
      const value = input.values[c]?.[r] ?? Number.NaN;
      const colour = heatColour(t(value));
      const classes = [
        'cell',
        ...(sameCell(input.defaultCell, k, w) ? ['default'] : []),
        ...(sameCell(input.refitCell, k, w) ? ['refit'] : []),
      ].join(' ');
      const left = LABEL_WIDTH + c * CELL_WIDTH;
      const title = `rrf_k ${k}, heading ${w.heading}, context ${w.context}, content ${w.content}: nDCG@5 ${value.toFixed(4)}`;
      cells.push(
        `<rect class="${classes}" x="${left}" y="${top}" width="${CELL_WIDTH - 1}" height="${CELL_HEIGHT - 1}" fill="${colour.fill}" data-rrf-k="${k}" data-weights="${weightLabel(w)}" data-value="${value}"><title>${escapeHtml(title)}</title></rect>`,
        `<text x="${left + CELL_WIDTH / 2}" y="${top + CELL_HEIGHT - 4}" text-anchor="middle" class="${colour.darkText ? 'on-light' : 'on-dark'}">${value.toFixed(3)}</text>`,
      );
    });
  });
  return [
    `<svg class="heat-map" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="mean nDCG@5 of every fusion condition">`,
    `<text x="${LABEL_WIDTH - 6}" y="${HEADER_HEIGHT - 6}" text-anchor="end">heading / context / content</text>`,
    ...header,
    ...cells,
    '</svg>',
    `<p class="legend">colour runs from ${low.toFixed(3)} (dark) to ${high.toFixed(3)} (yellow); dashed orange outline: the built-in default; red outline: the refit condition</p>`,
  ].join('');
}
