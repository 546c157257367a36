// judged@k: how much of each query's top k carries any recorded judgment (helped, noise or wrong, from any
// serve, always-served items included). A golden set built from feedback only knows the documents that were
// once served and judged; a better document nobody judged can never count as a hit, so judged@k says how much
// of what retrieval returns the labels can speak about at all. It measures the labels, not retrieval: it is
// never paired, gated or part of the fingerprint.
import { isHit, type MetricsByK, type RankedHit } from './eval-metrics.js';

/** A judged (path, heading): the same hit rule as a golden entry — no heading judges every chunk of the file. */
export interface JudgedItem {
  path: string;
  heading: string | null;
}

/** An index of judged items by path, so each hit is checked against its own file's judgments only. */
export function indexJudgedItems(items: readonly JudgedItem[]): Map<string, JudgedItem[]> {
  const byPath = new Map<string, JudgedItem[]>();
  for (const item of items) {
    const list = byPath.get(item.path);
    if (list) list.push(item);
    else byPath.set(item.path, [item]);
  }
  return byPath;
}

/**
 * For one query: judged hits among the top min(k, returned) ÷ that count, per k; null for a query that
 * returned nothing (there is no top k to cover).
 */
export function computeJudgedAtK(
  hits: readonly RankedHit[],
  judged: ReadonlyMap<string, readonly JudgedItem[]>,
  kValues: readonly number[],
): MetricsByK | null {
  if (hits.length === 0) return null;
  const marks = hits.map((hit) => (judged.get(hit.path) ?? []).some((item) => isHit(item, hit)));
  const out: MetricsByK = {};
  for (const k of kValues) {
    const window = marks.slice(0, Math.max(0, k));
    out[k] = window.length === 0 ? 0 : window.filter(Boolean).length / window.length;
  }
  return out;
}

/** The mean of judged@k over the queries that returned something; null when none did. */
export function meanJudgedAtK(
  perQuery: readonly (MetricsByK | null)[],
  kValues: readonly number[],
): MetricsByK | null {
  const counted = perQuery.filter((m): m is MetricsByK => m !== null);
  if (counted.length === 0) return null;
  const out: MetricsByK = {};
  for (const k of kValues) out[k] = counted.reduce((sum, m) => sum + (m[k] ?? 0), 0) / counted.length;
  return out;
}
