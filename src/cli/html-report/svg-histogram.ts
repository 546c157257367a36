// The per-query impact of the tune refit as an inline SVG histogram: nDCG@5 of the refit minus the default's,
// per query, in symmetric bins around an exact "unchanged" bin, so a few large losses cannot hide in the mean.
import { TIE_TOLERANCE } from '../../app/index.js';
import { escapeHtml } from './html-text.js';

/** Bin widths to choose from: the smallest that covers the largest |delta| in at most MAX_SIDE_BINS bins. */
const BIN_WIDTHS = [0.01, 0.02, 0.05, 0.1, 0.2] as const;
const MAX_SIDE_BINS = 10;

export interface HistogramBin {
  /** `worse` bins lie below zero, `better` above; `same` is the exact-zero bin. */
  kind: 'worse' | 'same' | 'better';
  low: number;
  high: number;
  count: number;
}

/** Bins in ascending order; every delta lands in exactly one, within TIE_TOLERANCE of zero (as tune counts ties) in `same`. */
export function binDeltas(deltas: readonly number[]): HistogramBin[] {
  const largest = Math.max(0, ...deltas.map((d) => Math.abs(d)).filter(Number.isFinite));
  const width = BIN_WIDTHS.find((w) => largest <= w * MAX_SIDE_BINS) ?? 0.2;
  const side = Math.max(1, Math.ceil(largest / width - 1e-9));
  const worse: HistogramBin[] = Array.from({ length: side }, (_, i) => ({
    kind: 'worse',
    low: -(side - i) * width,
    high: -(side - i - 1) * width,
    count: 0,
  }));
  const same: HistogramBin = { kind: 'same', low: 0, high: 0, count: 0 };
  const better: HistogramBin[] = Array.from({ length: side }, (_, i) => ({
    kind: 'better',
    low: i * width,
    high: (i + 1) * width,
    count: 0,
  }));
  for (const d of deltas) {
    if (!Number.isFinite(d) || Math.abs(d) <= TIE_TOLERANCE) same.count++;
    else if (d < 0) worse[Math.max(0, side - 1 - Math.floor(-d / width - 1e-9))]!.count++;
    else better[Math.min(side - 1, Math.floor(d / width - 1e-9))]!.count++;
  }
  return [...worse, same, ...better];
}

const BAR_WIDTH = 26;
const HEIGHT = 180;
const PAD = { left: 30, top: 12, bottom: 34 };

export function renderHistogram(deltas: readonly number[]): string {
  const bins = binDeltas(deltas);
  const most = Math.max(1, ...bins.map((b) => b.count));
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const width = PAD.left + bins.length * BAR_WIDTH + 10;
  const label = (b: HistogramBin) =>
    b.kind === 'same'
      ? 'unchanged'
      : `${b.low >= 0 ? '+' : ''}${b.low.toFixed(2)} to ${b.high >= 0 ? '+' : ''}${b.high.toFixed(2)}`;
  const bars = bins.map((b, i) => {
    const h = (b.count / most) * plotHeight;
    const left = PAD.left + i * BAR_WIDTH;
    // Every other bin is labelled, counting out from zero, so the labels never overlap.
    const fromZero = Math.abs(i - (bins.length - 1) / 2);
    const tick =
      b.kind === 'same' ? '0' : fromZero % 2 === 0 ? (b.kind === 'worse' ? b.low : b.high).toFixed(2) : '';
    return (
      `<rect class="bar ${b.kind}" x="${left + 2}" y="${PAD.top + plotHeight - h}" width="${BAR_WIDTH - 4}" height="${h}" data-count="${b.count}"><title>${escapeHtml(`${label(b)}: ${b.count} quer${b.count === 1 ? 'y' : 'ies'}`)}</title></rect>` +
      (b.count > 0
        ? `<text x="${left + BAR_WIDTH / 2}" y="${PAD.top + plotHeight - h - 2}" text-anchor="middle">${b.count}</text>`
        : '') +
      (tick === ''
        ? ''
        : `<text x="${left + BAR_WIDTH / 2}" y="${HEIGHT - PAD.bottom + 12}" text-anchor="middle">${tick}</text>`)
    );
  });
  return [
    `<svg class="histogram" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="per-query nDCG@5 change, refit minus default">`,
    `<line class="axis" x1="${PAD.left}" x2="${width - 10}" y1="${PAD.top + plotHeight}" y2="${PAD.top + plotHeight}"/>`,
    ...bars,
    `<text x="${PAD.left}" y="${HEIGHT - 4}">ΔnDCG@5 per query (refit − default); bars at the left got worse</text>`,
    '</svg>',
  ].join('');
}
