// Results of one benchmark run shown per backend in adjacent columns. A measurement that could not be taken is
// a cell that says why ("n/a: …"), never a blank or a zero.

/** A measured value, or the reason it was not measured. */
export type Cell<T> = { ok: T } | { na: string };

export function measured<T>(value: T): Cell<T> {
  return { ok: value };
}

export function notMeasured<T>(reason: string): Cell<T> {
  return { na: reason };
}

/** The cell as text: `format` of its value, or `n/a: <reason>` without the reason's closing "(hint …)". */
export function showCell<T>(cell: Cell<T>, format: (value: T) => string): string {
  return 'ok' in cell ? format(cell.ok) : `n/a: ${cell.na.replace(/\s*\([^()]*\)$/, '')}`;
}

/** p50/p95 in milliseconds, one decimal. */
export function showTiming(timing: { median: number; p95: number }): string {
  return `p50 ${timing.median.toFixed(1)} ms, p95 ${timing.p95.toFixed(1)} ms`;
}

/**
 * Rows of `[label, ...cells]` under `header`, each column padded to its widest entry, two spaces apart. A row
 * may have fewer cells than the header (the rest stay empty).
 */
export function formatColumns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]) =>
    widths
      .map((width, column) => (row[column] ?? '').padEnd(width))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** How many of the paired result lists are identical, element by element. */
export function countIdentical(a: readonly (readonly string[])[], b: readonly (readonly string[])[]): number {
  let same = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const left = a[i]!;
    const right = b[i]!;
    if (left.length === right.length && left.every((item, k) => item === right[k])) same++;
  }
  return same;
}
