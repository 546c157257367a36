// Warm search latency through the facade (kb.search) on synthetic KBs of 10k and 100k chunks, split into query
// embedding and retrieval+fusion, plus lexical-only latency, a per-stage breakdown, the vector leg alone (exact vs
// int8 first pass, with recall), index-time scaling and cold `groove search`. Run: npm run bench:search
// [-- --sizes 10000,100000 --queries 200 --runs 3 --million auto|skip|force --cold-runs 5 --work-dir DIR]
// Targets (benchmarks.md): p50 ≤ 25 ms, p95 ≤ 60 ms end to end and retrieval+fusion ≤ 10 ms p50 at 100k chunks;
// cold CLI search ≤ 1.0 s median at 10k. Times are reported, never asserted.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeTestModel } from '../scripts/test-model/write-test-model.js';
import { createEmbedderFor, legBroke, openKnowledgeBase, searchStages } from '../src/app/index.js';
import { resolveConfig } from '../src/config/resolve-config.js';
import type { Embedder } from '../src/types.js';
import { bindEmbedder, randomVectorEmbedder, timeIndex } from './bench-kb.js';
import { measureColdCli } from './cli-cold.js';
import { measureStages } from './search-stages.js';
import { type BenchQuery, buildQueries, createRandom, writeSyntheticKb } from './synthetic-kb.js';
import {
  formatScan,
  measureScan,
  measureSynthetic,
  randomUnitVector,
  summarise,
  type Timing,
} from './vector-scan.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultPath = path.join(repoRoot, 'bench/results/search-speed.json');
const MILLION_BUDGET_MS = 5 * 60_000;
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    queries: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    million: { type: 'string', default: 'auto' },
    'cold-runs': { type: 'string', default: '5' },
    'work-dir': { type: 'string' },
  },
});
const runs = Math.max(1, Number(values.runs));
const queries = buildQueries(Number(values.queries)).map((q) => ({
  ...q,
  request: { ...q.request, limit: 10 },
}));

/** How much to measure at one size: 1M chunks gets one pass over every 4th query (same mix), no exact KNN. */
interface Plan {
  runs: number;
  queries: BenchQuery[];
  /** Also time exact KNN per query in the stage breakdown (≈ 0.4 s a query at 1M). */
  exactStages: boolean;
}
const fullPlan: Plan = { runs, queries, exactStages: true };
const millionPlan: Plan = { runs: 1, queries: queries.filter((_, i) => i % 4 === 0), exactStages: false };

/**
 * The real model's identity, answering each query from vectors the real model computed beforehand: the search
 * pipeline runs unchanged except for inference, which is how retrieval+fusion is timed on its own.
 */
function precomputedEmbedder(real: Embedder, vectors: ReadonlyMap<string, Float32Array>): Embedder {
  return {
    ...bindEmbedder(real),
    embedQuery: async (text: string) => {
      const vector = vectors.get(text);
      if (!vector) throw new Error(`no precomputed vector for "${text}"`);
      return vector;
    },
    close: async () => {},
  };
}

interface LatencyReport {
  end_to_end_ms: Timing;
  end_to_end_cpu_ms: Timing;
  by_kind_end_to_end_p50_ms: Record<string, number>;
  first_search_ms: number;
  /** Process RSS with this facade open and warm (the bench process also holds the model thread and earlier sizes' garbage). */
  rss_mb: number;
}

async function measureSearch(dbPath: string, kbPath: string, embedder: Embedder | null, plan: Plan) {
  const { queries, runs } = plan;
  const config = resolveConfig({ cwd: path.dirname(dbPath), env: {}, overrides: { kbPath, dbPath } });
  const kb = openKnowledgeBase(config, embedder ? { createEmbedder: async () => embedder } : {});
  try {
    await kb.warmUp();
    let started = performance.now();
    await kb.search(queries[0]!.request);
    const firstMs = performance.now() - started;
    for (const q of queries) await kb.search(q.request); // warm: JIT, statement cache, page cache
    const e2e: number[] = [];
    const cpu: number[] = [];
    const byKind = new Map<string, number[]>();
    for (let run = 0; run < runs; run++) {
      for (const q of queries) {
        const cpuBefore = process.cpuUsage();
        started = performance.now();
        const response = await kb.search(q.request);
        const ms = performance.now() - started;
        const used = process.cpuUsage(cpuBefore);
        if (legBroke(response.legs.lexical) || legBroke(response.legs.vector))
          throw new Error(`a leg failed for "${q.request.query}": ${JSON.stringify(response.legs)}`);
        e2e.push(ms);
        cpu.push((used.user + used.system) / 1000);
        byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ms]);
      }
    }
    const report: LatencyReport = {
      end_to_end_ms: summarise(e2e),
      end_to_end_cpu_ms: summarise(cpu),
      by_kind_end_to_end_p50_ms: Object.fromEntries([...byKind].map(([k, xs]) => [k, summarise(xs).median])),
      first_search_ms: firstMs,
      rss_mb: process.memoryUsage().rss / 1e6,
    };
    return report;
  } finally {
    await kb.close();
  }
}

/** The query embedding alone: each query's text through the real model, one at a time, nothing else running. */
async function measureEmbedding(real: Embedder, texts: readonly string[], runs: number): Promise<Timing> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const text of texts) {
      const started = performance.now();
      await real.embedQuery(text);
      times.push(performance.now() - started);
    }
  }
  return summarise(times);
}

async function benchSize(chunks: number, workDir: string, modelDir: string, real: Embedder, plan: Plan) {
  const { queries } = plan;
  const kbPath = path.join(workDir, `kb-${chunks}`, 'notes');
  const started = performance.now();
  fs.rmSync(path.dirname(kbPath), { recursive: true, force: true });
  const written = writeSyntheticKb({ dir: kbPath, chunks });
  const generateMs = performance.now() - started;
  const lexicalDb = path.join(path.dirname(kbPath), 'lexical.groove.db');
  const vectorDb = path.join(path.dirname(kbPath), 'vectors.groove.db');
  const lexicalIndex = await timeIndex(kbPath, lexicalDb, null, null);
  const vectorIndex = await timeIndex(kbPath, vectorDb, modelDir, randomVectorEmbedder(real));
  console.log(
    `  ${written.files} files, ${vectorIndex.chunks} chunks (${(written.bytes / 1e6).toFixed(0)} MB) written in ` +
      `${(generateMs / 1000).toFixed(1)} s; index lexical-only ${(lexicalIndex.ms / 1000).toFixed(1)} s, ` +
      `with random vectors ${(vectorIndex.ms / 1000).toFixed(1)} s`,
  );
  // The exact texts the vector leg embeds, with the real model's vectors for them.
  const embeddings = new Map<string, Float32Array>();
  for (const q of queries) {
    const compiled = searchStages.compileQuery(q.request.query);
    if (compiled.kind === 'query' && compiled.trigram.positiveText.trim() !== '')
      embeddings.set(compiled.trigram.positiveText, await real.embedQuery(compiled.trigram.positiveText));
  }
  // The facade closes its embedder on close(); the real one serves every size, so it gets a close that does not.
  const hybrid = await measureSearch(
    vectorDb,
    kbPath,
    { ...bindEmbedder(real), close: async () => {} },
    plan,
  );
  const retrievalFusion = await measureSearch(vectorDb, kbPath, precomputedEmbedder(real, embeddings), plan);
  const embedding = await measureEmbedding(real, [...embeddings.keys()], plan.runs);
  const lexical = await measureSearch(lexicalDb, kbPath, null, plan);
  const stages = measureStages(vectorDb, queries, embeddings, { ...plan, dimension: real.dimension });
  const { openDatabase } = await import('../src/store/open-database.js');
  const { VectorIndex } = await import('../src/store/vector-index.js');
  const db = openDatabase(vectorDb, { readonly: true });
  const index = VectorIndex.load(db, real.dimension);
  db.close();
  const random = createRandom(99);
  const scanModel = measureScan(index, [...embeddings.values()], 'benchmark-index');
  const scanRandom = measureScan(
    index,
    Array.from({ length: plan.queries.length }, () => randomUnitVector(real.dimension, random)),
    'benchmark-index',
  );
  return {
    chunks: vectorIndex.chunks,
    runs: plan.runs,
    queries: plan.queries.length,
    files: written.files,
    kb_bytes: written.bytes,
    kb_path: kbPath,
    generate_ms: generateMs,
    index_lexical_only_ms: lexicalIndex.ms,
    index_with_random_vectors_ms: vectorIndex.ms,
    db_bytes: { lexical: fs.statSync(lexicalDb).size, vectors: fs.statSync(vectorDb).size },
    hybrid,
    query_embedding_ms: embedding,
    retrieval_fusion: retrievalFusion,
    lexical_only: lexical,
    stages,
    vector_leg: { model_queries: scanModel, random_queries: scanRandom },
    lexicalDb,
    vectorDb,
  };
}

type SizeResult = Awaited<ReturnType<typeof benchSize>>;

function printSize(r: SizeResult): void {
  const t = (x: Timing) => `${x.median.toFixed(1).padStart(6)} ${x.p95.toFixed(1).padStart(6)}`;
  const s = r.stages;
  console.log(`  ${'what'.padEnd(44)}   p50    p95 (ms)`);
  console.log(
    `  ${'hybrid kb.search() end to end'.padEnd(44)} ${t(r.hybrid.end_to_end_ms)}   target p50 ≤ 25, p95 ≤ 60`,
  );
  console.log(`  ${'  CPU time of the same calls'.padEnd(44)} ${t(r.hybrid.end_to_end_cpu_ms)}`);
  console.log(`  ${'query embedding alone (MiniLM-L6 shape)'.padEnd(44)} ${t(r.query_embedding_ms)}`);
  console.log(
    `  ${'retrieval+fusion (query vectors precomputed)'.padEnd(44)} ${t(r.retrieval_fusion.end_to_end_ms)}   target p50 ≤ 10`,
  );
  console.log(`  ${'lexical-only kb.search() end to end'.padEnd(44)} ${t(r.lexical_only.end_to_end_ms)}`);
  console.log(
    `  stages alone: filter ${t(s.filter_resolution_ms)} | lexical leg ${t(s.lexical_leg_ms)} | ` +
      `vector KNN ${t(s.vector_knn_ms)} (exact ${s.vector_knn_exact_ms ? t(s.vector_knn_exact_ms) : 'not run'}) | ` +
      `RRF+records ${t(s.fusion_and_records_ms)} | sum ${t(s.stages_total_ms)}`,
  );
  console.log(`  lexical leg through FTS5 alone (one-shot CLI path) ${t(s.lexical_leg_fts5_ms)}`);
  console.log(
    `  process RSS with the warm hybrid facade open ${r.hybrid.rss_mb.toFixed(0)} MB (serve target ≤ 600 MB at 100k)`,
  );
  console.log(
    `  snapshot loads: vectors ${s.vector_load_ms.toFixed(0)} ms, words ${s.word_load_ms.toFixed(0)} ms ` +
      `(${s.word_postings} postings); first search after warmUp ${r.hybrid.first_search_ms.toFixed(0)} ms`,
  );
  console.log(
    `  hybrid p50 by kind: ${JSON.stringify(r.hybrid.by_kind_end_to_end_p50_ms, (_, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}`,
  );
  console.log(
    `  lexical leg p50 by kind: ${JSON.stringify(s.lexical_by_kind, (_, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}`,
  );
  console.log(`  vector leg, model queries: ${formatScan(r.vector_leg.model_queries)}`);
  console.log(`  vector leg, random queries: ${formatScan(r.vector_leg.random_queries)}`);
}

/** How index time and latency grow with the corpus (per-chunk index cost shows where the curve bends). */
function printScaling(all: SizeResult[]): void {
  console.log(
    '\nscaling      chunks  index lex s  idx+vec s  µs/chunk  hybrid p50  retr+fus p50  lexical p50  knn p50',
  );
  for (const r of all) {
    const perChunk = (r.index_with_random_vectors_ms * 1000) / r.chunks;
    console.log(
      `  ${String(r.chunks).padStart(16)} ${(r.index_lexical_only_ms / 1000).toFixed(1).padStart(12)} ` +
        `${(r.index_with_random_vectors_ms / 1000).toFixed(1).padStart(10)} ${perChunk.toFixed(0).padStart(9)} ` +
        `${r.hybrid.end_to_end_ms.median.toFixed(1).padStart(11)} ${r.retrieval_fusion.end_to_end_ms.median.toFixed(1).padStart(13)} ` +
        `${r.lexical_only.end_to_end_ms.median.toFixed(1).padStart(12)} ${r.stages.vector_knn_ms.median.toFixed(1).padStart(8)}`,
    );
  }
}

async function main(): Promise<void> {
  const workDir = values['work-dir']
    ? path.resolve(values['work-dir'])
    : fs.mkdtempSync(path.join(os.tmpdir(), 'groove-bench-search-'));
  const loadBefore = os.loadavg()[0]!;
  const modelDir = path.join(workDir, 'minilm-l6');
  const model = writeTestModel({ kind: 'embed', shape: 'minilm-l6', outDir: modelDir });
  const config = resolveConfig({ cwd: workDir, env: {}, overrides: { modelDir } });
  const real = (await createEmbedderFor(config))!;
  console.log(
    `search-speed: ${queries.length} queries × ${runs} runs per size, ${os.availableParallelism()} cores, ` +
      `load average ${loadBefore.toFixed(1)}; model ${real.id} (generated MiniLM-L6 shape, 384-d)`,
  );
  try {
    const sizes = values.sizes.split(',').map(Number);
    const results: SizeResult[] = [];
    for (const size of sizes) {
      console.log(`\n${size} chunks`);
      results.push(await benchSize(size, workDir, modelDir, real, fullPlan));
      printSize(results[results.length - 1]!);
    }
    const largest = results[results.length - 1]!;
    // Linear extrapolation of writing the KB and building both indexes (the measured curve is close to linear).
    const millionProjectedMs =
      ((largest.generate_ms + largest.index_lexical_only_ms + largest.index_with_random_vectors_ms) * 1e6) /
      largest.chunks;
    let million: string | SizeResult = 'not requested';
    if (values.million === 'force' || (values.million === 'auto' && millionProjectedMs < MILLION_BUDGET_MS)) {
      console.log('\n1000000 chunks');
      million = await benchSize(1_000_000, workDir, modelDir, real, millionPlan);
      printSize(million);
    } else if (values.million === 'auto') {
      million = `skipped: generating and indexing 1M chunks is projected at ${(millionProjectedMs / 60000).toFixed(1)} min from the ${largest.chunks}-chunk run (budget 5 min); run with --million force`;
      console.log(`\n1M chunks ${million}`);
    }
    printScaling(typeof million === 'string' ? results : [...results, million]);
    const smallest = results[0]!;
    console.log(`\ncold groove search (fresh process) on the ${smallest.chunks}-chunk index`);
    const cold = measureColdCli({
      kbPath: smallest.kb_path,
      dbPath: smallest.vectorDb,
      lexicalDbPath: smallest.lexicalDb,
      query: 'configure the backup schedule',
      runs: Number(values['cold-runs']),
    });
    const c = (t: Timing) => `median ${t.median.toFixed(0)} ms, p95 ${t.p95.toFixed(0)} ms`;
    console.log(`  groove search (MiniLM-shaped model) ${c(cold.search_ms)}  target ≤ 1000 ms median`);
    if (cold.search_lexical_only_ms)
      console.log(`  groove search (lexical-only index)   ${c(cold.search_lexical_only_ms)}`);
    console.log(
      `  baselines: node -e 0 ${c(cold.node_e0_ms)}; import CLI modules ${c(cold.import_cli_ms)}; ` +
        `import @huggingface/transformers ${c(cold.import_transformers_ms)}`,
    );
    console.log(
      '\nvector leg alone on synthetic sets (k=50; recall of int8 first pass + rescoring vs exact KNN)',
    );
    const synthetic = (['random', 'clustered', 'clustered-tight'] as const).map((distribution) =>
      measureSynthetic(distribution, { size: largest.chunks, dim: 384, queries: 200, seed: 11 }),
    );
    for (const r of synthetic) console.log(`  ${formatScan(r)}`);
    const report = {
      generated_at: new Date().toISOString(),
      node: process.version,
      cpus: os.availableParallelism(),
      load_average_1m_before: loadBefore,
      load_average_1m_after: os.loadavg()[0],
      runs,
      queries: queries.length,
      query_mix: Object.fromEntries(
        queries.reduce((m, q) => m.set(q.kind, (m.get(q.kind) ?? 0) + 1), new Map<string, number>()),
      ),
      targets: { p50_ms_100k: 25, p95_ms_100k: 60, retrieval_fusion_p50_ms_100k: 10, cold_cli_ms_10k: 1000 },
      method:
        'Document vectors are deterministic random unit vectors (384-d) written into chunk_vectors through the real ' +
        'indexer by a stand-in embedder that carries the generated MiniLM-L6-shaped model identity (id, provider, ' +
        'dimension, model folder); no document inference ran, so index times exclude embedding. Searches open the ' +
        'index normally and embed every query with that real ONNX model (transformers provider, fp32, on its ' +
        'inference thread). retrieval_fusion = the same kb.search() calls with each query vector computed ' +
        'beforehand by the same model (the pipeline minus inference); query_embedding = embedQuery alone.',
      model: { id: real.id, dir: modelDir, vocab: model.vocabSize, onnx_bytes: model.modelBytes },
      sizes: results.map(({ lexicalDb, vectorDb, kb_path, ...rest }) => rest),
      million:
        typeof million === 'string'
          ? million
          : (({ lexicalDb, vectorDb, kb_path, ...rest }) => rest)(million),
      cold_cli: cold,
      vector_leg_synthetic: synthetic,
    };
    fs.mkdirSync(path.dirname(resultPath), { recursive: true });
    fs.writeFileSync(resultPath, `${JSON.stringify(report, null, 2)}\n`);
    console.log(
      `\nwrote ${path.relative(repoRoot, resultPath)} (load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after)`,
    );
  } finally {
    await real.close();
    if (!values['work-dir']) fs.rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
