// The vector leg alone: exact float32 KNN vs the int8 first pass + exact rescoring, timed on the same queries,
// with recall@k of the fast path against exact KNN, on uniform random unit vectors (the worst case: neighbours
// barely stand out) and on clustered vectors (what real embeddings look like: topics, near-duplicates).
// Run alone: npx tsx bench/vector-scan.ts [--size 100000] [--queries 200]

import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type VectorEntry, VectorIndex } from '../src/store/vector-index.js';
import { createRandom } from './synthetic-kb.js';

export interface Timing {
  median: number;
  p95: number;
}

/** Nearest-rank quantiles of a sample. */
export function summarise(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return { median: at(0.5), p95: at(0.95) };
}

export type VectorDistribution = 'random' | 'clustered' | 'clustered-tight';

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function normalise(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
  return v;
}

/** A deterministic unit vector: the random-vector embedder of the benchmark KB uses the same generator. */
export function randomUnitVector(dim: number, random: () => number): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) v[i] = gaussian(random);
  return normalise(v);
}

/**
 * `count` vectors and `queries` query vectors. Clustered: one centre per ~100 vectors, members at cosine ≈ 0.7
 * to their centre (≈ 0.5 to each other); clustered-tight: one centre per ~1,000 vectors, members at cosine ≈ 0.95
 * (near-duplicates, where int8 rounding matters most). Queries are drawn the same way around a random centre.
 */
export function makeVectors(
  distribution: VectorDistribution,
  options: { count: number; dim: number; queries: number; seed: number },
): { entries: VectorEntry[]; queries: Float32Array[] } {
  const { count, dim } = options;
  const random = createRandom(options.seed);
  const tight = distribution === 'clustered-tight';
  const perCentre = tight ? 1000 : 100;
  const centres = Array.from({ length: Math.max(1, Math.round(count / perCentre)) }, () =>
    randomUnitVector(dim, random),
  );
  // Per-component noise: a noise vector of norm ≈ 1 (or ≈ 0.33 for tight) against a unit centre.
  const spread = (tight ? 0.33 : 1.0) / Math.sqrt(dim);
  const around = (centre: Float32Array) => {
    const v = new Float32Array(dim);
    for (let i = 0; i < dim; i++) v[i] = centre[i]! + gaussian(random) * spread;
    return normalise(v);
  };
  const draw = () =>
    distribution === 'random'
      ? randomUnitVector(dim, random)
      : around(centres[Math.floor(random() * centres.length)]!);
  const entries = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    documentId: Math.floor(i / 8) + 1,
    quality: 1,
    vector: draw(),
  }));
  return { entries, queries: Array.from({ length: options.queries }, draw) };
}

export interface ScanReport {
  distribution: VectorDistribution | 'benchmark-index';
  size: number;
  dimension: number;
  queries: number;
  quantised: boolean;
  exact_ms: Timing;
  first_pass_ms: Timing;
  /** exact median / first-pass median, same run. */
  speedup: number;
  /** Mean |fast ∩ exact| / k over the queries, for the leg's k values. */
  recall_at_10: number;
  recall_at_50: number;
  /** Smallest per-query recall@10 seen. */
  worst_recall_at_10: number;
  /** recall@10 when the int8 pass hands over only 10 rows (no rescoring margin): how much margin there is. */
  recall_at_10_without_margin: number;
}

/** Time exact and fast search on the same queries (alternating) and measure the fast path's recall. */
export function measureScan(
  index: VectorIndex,
  queries: readonly Float32Array[],
  distribution: ScanReport['distribution'],
): ScanReport {
  const exactMs: number[] = [];
  const fastMs: number[] = [];
  const recall: Record<10 | 50, number[]> = { 10: [], 50: [] };
  const noMargin: number[] = [];
  const base = { minQuality: 0, documentIds: null, excluded: new Set<number>() };
  for (const query of queries.slice(0, 5)) index.search(query, { ...base, k: 50 }); // warm the JIT
  for (const query of queries) {
    for (const k of [10, 50] as const) {
      let t = performance.now();
      const exact = index.search(query, { ...base, k, exact: true });
      if (k === 50) exactMs.push(performance.now() - t);
      t = performance.now();
      const fast = index.search(query, { ...base, k });
      if (k === 50) fastMs.push(performance.now() - t);
      const truth = new Set(exact.map((h) => h.id));
      recall[k].push(fast.filter((h) => truth.has(h.id)).length / Math.max(1, exact.length));
      if (k === 10) {
        const bare = index.search(query, { ...base, k, rescoreRows: k });
        noMargin.push(bare.filter((h) => truth.has(h.id)).length / Math.max(1, exact.length));
      }
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const exact = summarise(exactMs);
  const fast = summarise(fastMs);
  return {
    distribution,
    size: index.size,
    dimension: index.dimension,
    queries: queries.length,
    quantised: index.quantised,
    exact_ms: exact,
    first_pass_ms: fast,
    speedup: exact.median / fast.median,
    recall_at_10: mean(recall[10]),
    recall_at_50: mean(recall[50]),
    worst_recall_at_10: Math.min(...recall[10]),
    recall_at_10_without_margin: mean(noMargin),
  };
}

/** Build an in-memory index of `distribution` vectors and measure it. */
export function measureSynthetic(
  distribution: VectorDistribution,
  options: { size: number; dim: number; queries: number; seed: number },
): ScanReport {
  const { entries, queries } = makeVectors(distribution, { ...options, count: options.size });
  return measureScan(VectorIndex.fromEntries(entries, options.dim), queries, distribution);
}

export function formatScan(r: ScanReport): string {
  const ms = (t: Timing) => `${t.median.toFixed(2)} / ${t.p95.toFixed(2)}`;
  return (
    `${r.distribution.padEnd(16)} ${String(r.size).padStart(8)}  exact ${ms(r.exact_ms)} ms  ` +
    `int8+rescore ${ms(r.first_pass_ms)} ms  ×${r.speedup.toFixed(1)}  recall@10 ${r.recall_at_10.toFixed(4)} ` +
    `(worst ${r.worst_recall_at_10.toFixed(2)})  recall@50 ${r.recall_at_50.toFixed(4)}  ` +
    `[int8 alone: recall@10 ${r.recall_at_10_without_margin.toFixed(3)}]`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { size: { type: 'string', default: '100000' }, queries: { type: 'string', default: '200' } },
  });
  console.log('vector leg alone, k=50 timings (median / p95), dimension 384');
  for (const distribution of ['random', 'clustered', 'clustered-tight'] as const) {
    const report = measureSynthetic(distribution, {
      size: Number(values.size),
      dim: 384,
      queries: Number(values.queries),
      seed: 11,
    });
    console.log(formatScan(report));
  }
}
