// Scale benchmark: synthetic KBs of growing size (default 10k → 100k → 1M chunks), each measured end to end as a
// user meets it, every number beside a baseline taken in the same run:
//   index time, lexical-only and with vectors        — raw SQLite FTS5 porter insert of the same chunk text
//   a real `groove serve` process: RSS and peak RSS, warm hybrid and lexical p50/p95 over HTTP
//                                                     — exact float32 brute-force KNN over the same vectors
//   edit-to-searchable: a file gains a unique word; time until serve's search returns that file
//   cold `groove search` as a fresh process           — `node -e 0`
// Document vectors are deterministic random unit vectors written under the generated MiniLM-L6-shaped model's
// identity (no document inference: that would take hours on two cores); every query runs the real ONNX model.
// Run: npm run bench:scale [-- --sizes 10000,100000,1000000 --queries 100 --runs 2 --edits 5 --cold-runs 5
//      --work-dir DIR [--reuse]]. Times are reported, never asserted. --reuse measures serve, edits and the cold
//      CLI again on the KBs and indexes an earlier run left in --work-dir, with that run's build numbers.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { writeTestModel } from '../scripts/test-model/write-test-model.js';
import { createEmbedderFor } from '../src/app/index.js';
import { resolveConfig } from '../src/config/resolve-config.js';
import type { Embedder } from '../src/types.js';
import { randomVectorEmbedder, timeIndex } from './bench-kb.js';
import { measureColdCli } from './cli-cold.js';
import { type ServeProcess, startServe } from './serve-process.js';
import { buildQueries, writeSyntheticKb } from './synthetic-kb.js';
import { summarise, type Timing } from './vector-scan.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultPath = path.join(repoRoot, 'bench/results/scale.json');
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    queries: { type: 'string', default: '100' },
    runs: { type: 'string', default: '2' },
    edits: { type: 'string', default: '5' },
    'cold-runs': { type: 'string', default: '5' },
    'work-dir': { type: 'string' },
    // Keep a size's KB and indexes from an earlier run in --work-dir (its build.json gives the build numbers).
    reuse: { type: 'boolean', default: false },
  },
});
/** The exact-KNN baseline scans every vector per query in JavaScript: a few queries are enough for its median. */
const EXACT_SCAN_QUERIES = 20;
const EDIT_TIMEOUT_MS = 120_000;

/** Query texts of the synthetic mix; the served route takes no filters, so filtered queries are left out. */
const queryTexts = buildQueries(Number(values.queries))
  .filter((q) => q.kind !== 'filtered')
  .map((q) => q.request.query);

interface SizeResult {
  chunks: number;
  files: number;
  kb_mb: number;
  generate_s: number;
  index: {
    lexical_only_s: number;
    with_vectors_s: number;
    raw_fts5_s: number;
    lexical_vs_raw_fts5: number;
    lexical_docs_per_s: number;
    db_mb: { lexical: number; with_vectors: number; raw_fts5: number };
  };
  serve_hybrid: ServedReport;
  serve_lexical: ServedReport;
  exact_float32_knn_ms: Timing;
  edit_to_searchable_ms: Timing;
  cold_cli: ReturnType<typeof measureColdCli>;
}

interface ServedReport {
  startup_s: number;
  search_ms: Timing;
  rss_mb: number | null;
  peak_rss_mb: number | null;
}

function fileMb(file: string): number {
  return fs.statSync(file).size / 1e6;
}

/** The baseline for indexing: every chunk's heading and text into one plain FTS5 porter table, one transaction. */
function rawFts5Insert(lexicalDb: string, outDb: string): { ms: number } {
  fs.rmSync(outDb, { force: true });
  const source = new Database(lexicalDb, { readonly: true });
  const rows = source.prepare('SELECT heading, content FROM chunks').all() as {
    heading: string | null;
    content: string;
  }[];
  source.close();
  const db = new Database(outDb);
  db.pragma('journal_mode = WAL');
  const started = performance.now();
  db.exec("CREATE VIRTUAL TABLE raw USING fts5(heading, content, tokenize='porter unicode61')");
  const insert = db.prepare('INSERT INTO raw(heading, content) VALUES (?, ?)');
  db.transaction(() => {
    for (const row of rows) insert.run(row.heading ?? '', row.content);
  })();
  const ms = performance.now() - started;
  db.close();
  return { ms };
}

/** The baseline for the vector leg: a brute-force float32 dot product over every stored vector, top 10. */
async function exactKnnMs(vectorDb: string, real: Embedder): Promise<Timing> {
  const db = new Database(vectorDb, { readonly: true });
  const count = (db.prepare('SELECT count(*) AS n FROM chunk_vectors').get() as { n: number }).n;
  const dim = real.dimension;
  const matrix = new Float32Array(count * dim);
  let row = 0;
  for (const r of db.prepare('SELECT embedding FROM chunk_vectors').iterate() as Iterable<{
    embedding: Buffer;
  }>) {
    matrix.set(new Float32Array(r.embedding.buffer, r.embedding.byteOffset, dim), row * dim);
    row++;
  }
  db.close();
  const times: number[] = [];
  for (const text of queryTexts.slice(0, EXACT_SCAN_QUERIES)) {
    const q = await real.embedQuery(text);
    const started = performance.now();
    const best = new Float32Array(10).fill(-Infinity);
    for (let i = 0; i < count; i++) {
      let dot = 0;
      const base = i * dim;
      for (let j = 0; j < dim; j++) dot += matrix[base + j]! * q[j]!;
      if (dot > best[9]!) {
        let k = 9;
        while (k > 0 && best[k - 1]! < dot) {
          best[k] = best[k - 1]!;
          k--;
        }
        best[k] = dot;
      }
    }
    times.push(performance.now() - started);
  }
  return summarise(times);
}

/** Every query once to warm the process, then `runs` timed rounds; a broken leg means a broken set-up. */
async function timeServed(serve: ServeProcess, runs: number): Promise<Timing> {
  for (const text of queryTexts) await serve.search(text);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const text of queryTexts) {
      const started = performance.now();
      const response = await serve.search(text);
      times.push(performance.now() - started);
      for (const [leg, health] of Object.entries(response.legs)) {
        if (health.status === 'failed' || health.status === 'partial')
          throw new Error(`leg ${leg} is ${health.status} for "${text}"`);
      }
    }
  }
  return summarise(times);
}

async function served(
  options: Parameters<typeof startServe>[0],
  runs: number,
  during?: (serve: ServeProcess) => Promise<void>,
): Promise<ServedReport> {
  const started = performance.now();
  const serve = await startServe(options);
  const startupS = (performance.now() - started) / 1000;
  try {
    const searchMs = await timeServed(serve, runs);
    const memory = serve.memory();
    await during?.(serve);
    return {
      startup_s: startupS,
      search_ms: searchMs,
      rss_mb: memory?.rssMb ?? null,
      peak_rss_mb: memory?.peakMb ?? null,
    };
  } finally {
    await serve.stop();
  }
}

/** Each edit appends a section with a word no note has; the time runs from the write to the first search that finds it. */
async function editToSearchable(serve: ServeProcess, kbPath: string, edits: number): Promise<number[]> {
  const files = listNotes(kbPath);
  const times: number[] = [];
  for (let e = 0; e < edits; e++) {
    const file = files[Math.floor(((e + 0.5) * files.length) / edits)]!;
    const word = `scaleprobe${e}q${Date.now().toString(36)}`;
    const relative = path.relative(kbPath, file).split(path.sep).join('/');
    const started = performance.now();
    fs.appendFileSync(file, `\n\n## Probe ${e}\n\nThe ${word} entry was added by the benchmark.\n`);
    for (;;) {
      const response = await serve.search(word, 5);
      if (response.results.some((hit) => hit.path === relative)) break;
      if (performance.now() - started > EDIT_TIMEOUT_MS)
        throw new Error(`edit of ${relative} not searchable after ${EDIT_TIMEOUT_MS} ms:\n${serve.log()}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    times.push(performance.now() - started);
  }
  return times;
}

/** How a size's KB and indexes were built, kept beside them for --reuse. */
interface BuildRecord {
  built_at: string;
  written: ReturnType<typeof writeSyntheticKb>;
  generateS: number;
  lexical: Awaited<ReturnType<typeof timeIndex>>;
  raw: { ms: number };
  vectors: Awaited<ReturnType<typeof timeIndex>>;
}

function readBuild(buildPath: string): BuildRecord | null {
  try {
    return JSON.parse(fs.readFileSync(buildPath, 'utf8')) as BuildRecord;
  } catch {
    return null; // none yet: build the size
  }
}

function listNotes(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listNotes(full));
    else if (entry.name.endsWith('.md')) out.push(full);
  }
  return out.sort();
}

async function benchSize(chunks: number, workDir: string, modelDir: string, real: Embedder) {
  const runs = Number(values.runs);
  const sizeDir = path.join(workDir, `kb-${chunks}`);
  const kbPath = path.join(sizeDir, 'notes');
  const lexicalDb = path.join(sizeDir, 'lexical.groove.db');
  const vectorDb = path.join(sizeDir, 'vectors.groove.db');
  const rawDb = path.join(sizeDir, 'raw-fts5.db');
  const buildPath = path.join(sizeDir, 'build.json');
  const reused = values.reuse ? readBuild(buildPath) : null;
  if (reused) console.log(`  reusing the KB and indexes built ${reused.built_at} (${buildPath})`);
  const { written, generateS, lexical, raw, vectors } = reused ?? (await build());
  async function build(): Promise<BuildRecord> {
    fs.rmSync(sizeDir, { recursive: true, force: true });
    const generating = performance.now();
    const record: BuildRecord = {
      built_at: new Date().toISOString(),
      written: writeSyntheticKb({ dir: kbPath, chunks }),
      generateS: (performance.now() - generating) / 1000,
      lexical: await timeIndex(kbPath, lexicalDb, null, null),
      raw: rawFts5Insert(lexicalDb, rawDb),
      vectors: { ms: 0, chunks: 0, documents: 0 },
    };
    record.vectors = await timeIndex(kbPath, vectorDb, modelDir, randomVectorEmbedder(real));
    fs.writeFileSync(buildPath, JSON.stringify(record));
    return record;
  }
  console.log(
    `  ${written.files} files, ${vectors.chunks} chunks (${(written.bytes / 1e6).toFixed(0)} MB) in ` +
      `${generateS.toFixed(1)} s; index lexical ${(lexical.ms / 1000).toFixed(1)} s (raw FTS5 ` +
      `${(raw.ms / 1000).toFixed(1)} s), with vectors ${(vectors.ms / 1000).toFixed(1)} s`,
  );
  const exact = await exactKnnMs(vectorDb, real);
  let edits: number[] = [];
  const hybrid = await served(
    { kbPath, dbPath: vectorDb, modelDir, watch: true, debounceMs: 0 },
    runs,
    async (serve) => {
      edits = await editToSearchable(serve, kbPath, Number(values.edits));
    },
  );
  const lexicalServed = await served({ kbPath, dbPath: lexicalDb, modelDir: null, watch: false }, runs);
  const cold = measureColdCli({
    kbPath,
    dbPath: vectorDb,
    lexicalDbPath: lexicalDb,
    query: 'configure the backup schedule',
    runs: Number(values['cold-runs']),
  });
  const result: SizeResult = {
    chunks: vectors.chunks,
    files: written.files,
    kb_mb: written.bytes / 1e6,
    generate_s: generateS,
    index: {
      lexical_only_s: lexical.ms / 1000,
      with_vectors_s: vectors.ms / 1000,
      raw_fts5_s: raw.ms / 1000,
      lexical_vs_raw_fts5: lexical.ms / raw.ms,
      lexical_docs_per_s: lexical.documents / (lexical.ms / 1000),
      db_mb: { lexical: fileMb(lexicalDb), with_vectors: fileMb(vectorDb), raw_fts5: fileMb(rawDb) },
    },
    serve_hybrid: hybrid,
    serve_lexical: lexicalServed,
    exact_float32_knn_ms: exact,
    edit_to_searchable_ms: summarise(edits),
    cold_cli: cold,
  };
  return result;
}

function printSize(r: SizeResult): void {
  const t = (x: Timing) => `p50 ${x.median.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms`;
  const mb = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(0)} MB`);
  console.log(
    `  index: lexical ${r.index.lexical_only_s.toFixed(1)} s = ${r.index.lexical_vs_raw_fts5.toFixed(1)}× raw FTS5 ` +
      `(${r.index.lexical_docs_per_s.toFixed(0)} files/s); file ${r.index.db_mb.lexical.toFixed(0)} MB vs raw ` +
      `${r.index.db_mb.raw_fts5.toFixed(0)} MB (${(r.index.db_mb.lexical / r.index.db_mb.raw_fts5).toFixed(1)}×)`,
  );
  console.log(
    `  serve hybrid: ${t(r.serve_hybrid.search_ms)}; RSS ${mb(r.serve_hybrid.rss_mb)} (peak ` +
      `${mb(r.serve_hybrid.peak_rss_mb)}); startup ${r.serve_hybrid.startup_s.toFixed(1)} s; exact float32 KNN ` +
      `alone ${t(r.exact_float32_knn_ms)}`,
  );
  console.log(
    `  serve lexical: ${t(r.serve_lexical.search_ms)}; RSS ${mb(r.serve_lexical.rss_mb)} (peak ` +
      `${mb(r.serve_lexical.peak_rss_mb)})`,
  );
  console.log(`  edit to searchable through live sync (debounce 0): ${t(r.edit_to_searchable_ms)}`);
  const c = r.cold_cli;
  console.log(
    `  cold groove search: hybrid median ${c.search_ms.median.toFixed(0)} ms, lexical ` +
      `${c.search_lexical_only_ms?.median.toFixed(0) ?? 'n/a'} ms; node -e 0 ${c.node_e0_ms.median.toFixed(0)} ms`,
  );
}

/** Growth per step: a factor near the size factor means linear; near 1, flat. Where it jumps is where the curve bends. */
function printCurve(all: SizeResult[]): void {
  console.log(
    '\n  chunks     index lex  raw FTS5  hybrid p50  lexical p50  exact KNN p50  edit p50  RSS hybrid  cold hybrid',
  );
  for (const r of all) {
    console.log(
      `  ${String(r.chunks).padEnd(9)} ${`${r.index.lexical_only_s.toFixed(1)} s`.padStart(9)} ` +
        `${`${r.index.raw_fts5_s.toFixed(1)} s`.padStart(9)} ${`${r.serve_hybrid.search_ms.median.toFixed(1)} ms`.padStart(11)} ` +
        `${`${r.serve_lexical.search_ms.median.toFixed(1)} ms`.padStart(12)} ` +
        `${`${r.exact_float32_knn_ms.median.toFixed(1)} ms`.padStart(14)} ` +
        `${`${r.edit_to_searchable_ms.median.toFixed(0)} ms`.padStart(9)} ` +
        `${`${r.serve_hybrid.rss_mb?.toFixed(0) ?? 'n/a'} MB`.padStart(11)} ` +
        `${`${r.cold_cli.search_ms.median.toFixed(0)} ms`.padStart(12)}`,
    );
  }
  for (let i = 1; i < all.length; i++) {
    const a = all[i - 1]!;
    const b = all[i]!;
    const f = (x: number, y: number) => `×${(y / x).toFixed(1)}`;
    console.log(
      `  ${a.chunks} → ${b.chunks} (×${(b.chunks / a.chunks).toFixed(0)} chunks): index ` +
        `${f(a.index.lexical_only_s, b.index.lexical_only_s)}, hybrid p50 ` +
        `${f(a.serve_hybrid.search_ms.median, b.serve_hybrid.search_ms.median)}, lexical p50 ` +
        `${f(a.serve_lexical.search_ms.median, b.serve_lexical.search_ms.median)}, edit ` +
        `${f(a.edit_to_searchable_ms.median, b.edit_to_searchable_ms.median)}, RSS ` +
        `${f(a.serve_hybrid.rss_mb ?? Number.NaN, b.serve_hybrid.rss_mb ?? Number.NaN)}`,
    );
  }
}

async function main(): Promise<void> {
  const workDir = values['work-dir']
    ? path.resolve(values['work-dir'])
    : fs.mkdtempSync(path.join(os.tmpdir(), 'groove-bench-scale-'));
  const loadBefore = os.loadavg()[0]!;
  const modelDir = path.join(workDir, 'minilm-l6');
  writeTestModel({ kind: 'embed', shape: 'minilm-l6', outDir: modelDir });
  const real = (await createEmbedderFor(resolveConfig({ cwd: workDir, env: {}, overrides: { modelDir } })))!;
  console.log(
    `scale: ${queryTexts.length} queries × ${values.runs} runs per size, ${os.availableParallelism()} cores, ` +
      `load average ${loadBefore.toFixed(1)}; model ${real.id} (generated MiniLM-L6 shape, 384-d)`,
  );
  const began = performance.now();
  const results: SizeResult[] = [];
  try {
    for (const size of values.sizes.split(',').map(Number)) {
      const sizeStarted = performance.now();
      console.log(`\n${size} chunks`);
      results.push(await benchSize(size, workDir, modelDir, real));
      printSize(results[results.length - 1]!);
      console.log(`  (this size took ${((performance.now() - sizeStarted) / 60_000).toFixed(1)} min)`);
    }
    printCurve(results);
    const report = {
      generated_at: new Date().toISOString(),
      node: process.version,
      cpus: os.availableParallelism(),
      load_average_1m_before: loadBefore,
      load_average_1m_after: os.loadavg()[0],
      total_minutes: (performance.now() - began) / 60_000,
      queries: queryTexts.length,
      runs: Number(values.runs),
      sizes: results,
    };
    fs.mkdirSync(path.dirname(resultPath), { recursive: true });
    fs.writeFileSync(resultPath, `${JSON.stringify(report, null, 2)}\n`);
    console.log(
      `\nwrote ${path.relative(repoRoot, resultPath)}; ${report.total_minutes.toFixed(1)} min in all ` +
        `(load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after)`,
    );
  } finally {
    await real.close();
    if (!values['work-dir']) fs.rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
