// A first index end to end with the default model's real shape (multilingual-e5-small, q8, 12 layers), run as a
// user runs it: `groove index --model-dir …` in its own process on a fresh KB, while another process runs
// `groove search` again and again until its first answer; then raw onnxruntime embeds the same chunks (the
// baseline for the embedding stage, measured after the index so the two never share the cores).
// Run: npm run build && npx tsx bench/first-index.ts [--chunks 10000] [--baseline all|N]
// Targets: first keyword answer within seconds; the embedding stage ≤ 10% slower than raw onnxruntime.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { writeTestModel } from '../scripts/test-model/write-test-model.js';
import { prepareRawBaseline } from './raw-onnx-baseline.js';
import { writeSyntheticKb } from './synthetic-kb.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binPath = path.join(repoRoot, 'bin/groove.js');
const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '10000' },
    batch: { type: 'string', default: '32' },
    /** Chunks the raw baseline embeds: all of them, or an evenly spaced sample of N. */
    baseline: { type: 'string', default: 'all' },
  },
});
const chunkCount = Number(values.chunks);
/** groove's default intra-op thread count (the available cores, at most 8); the baseline gets the same. */
const threads = Math.min(8, os.availableParallelism());
const batchSize = Number(values.batch);
const QUERY = 'backup restore';

interface StageTimes {
  firstFileMs: number | null;
  embedStartMs: number | null;
  queued: number;
}

/** Follow the index process's stderr: when the first file was written and when embedding began. */
function watchStages(child: ChildProcess, startedAt: number): StageTimes {
  const times: StageTimes = { firstFileMs: null, embedStartMs: null, queued: 0 };
  let buffer = '';
  child.stderr!.on('data', (data: Buffer) => {
    buffer += data.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (times.firstFileMs === null && line.startsWith('  indexed: '))
        times.firstFileMs = performance.now() - startedAt;
      const embedding = /^groove: embedding (\d+) chunks/.exec(line);
      if (embedding) {
        times.embedStartMs = performance.now() - startedAt;
        times.queued = Number(embedding[1]);
      }
    }
  });
  return times;
}

function runSearch(dirs: {
  kb: string;
  db: string;
}): Promise<{ ok: boolean; results: number; vector: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [binPath, 'search', QUERY, '--kb-path', dirs.kb, '--db-path', dirs.db, '--format', 'json'],
      { env: { ...process.env, GROOVE_OFFLINE: '1' } },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return resolve({ ok: false, results: 0, vector: '' });
      const response = JSON.parse(stdout) as { results: unknown[]; legs: { vector: { status: string } } };
      resolve({ ok: true, results: response.results.length, vector: response.legs.vector.status });
    });
  });
}

/** Search until the first answer with results (or the index is done); each search is a cold CLI process. */
async function firstAnswer(dirs: { kb: string; db: string }, startedAt: number, done: () => boolean) {
  let attempts = 0;
  while (!done()) {
    attempts++;
    const began = performance.now();
    const answer = await runSearch(dirs);
    if (answer.ok && answer.results > 0) {
      return {
        atMs: performance.now() - startedAt,
        searchMs: performance.now() - began,
        vector: answer.vector,
        attempts,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

function readChunkTexts(dbPath: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT content FROM chunks ORDER BY id').pluck().all() as string[];
  } finally {
    db.close();
  }
}

function evenlySpaced<T>(items: T[], count: number): T[] {
  if (count >= items.length) return items;
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (npm run bench does)');
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-first-index-'));
  try {
    const dirs = {
      kb: path.join(work, 'kb'),
      db: path.join(work, 'index.db'),
      model: path.join(work, 'model'),
    };
    const written = writeSyntheticKb({ dir: dirs.kb, chunks: chunkCount });
    const generated = writeTestModel({ kind: 'embed', shape: 'e5-small', dtype: 'q8', outDir: dirs.model });
    fs.writeFileSync(path.join(work, 'groove.toml'), `[embedding]\nbatch_size = ${batchSize}\n`);

    const loadBefore = os.loadavg()[0]!;
    const startedAt = performance.now();
    const index = spawn(
      process.execPath,
      [
        binPath,
        'index',
        '--kb-path',
        dirs.kb,
        '--db-path',
        dirs.db,
        '--model-dir',
        dirs.model,
        '--format',
        'json',
      ],
      { cwd: work, env: { ...process.env, GROOVE_OFFLINE: '1' } },
    );
    const stages = watchStages(index, startedAt);
    let stdout = '';
    let stderr = '';
    index.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    index.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    let finished = false;
    const exited = new Promise<number | null>((resolve) =>
      index.on('exit', (code) => {
        finished = true;
        resolve(code);
      }),
    );
    const answer = await firstAnswer(dirs, startedAt, () => finished);
    const code = await exited;
    const totalMs = performance.now() - startedAt;
    if (code !== 0) throw new Error(`groove index exited with ${code}: ${stderr}`);
    const summary = JSON.parse(stdout) as { chunks: number; embedded_chunks: number; documents: number };
    const fillMs = totalMs - (stages.embedStartMs ?? totalMs);

    // The baseline: the same chunk texts through raw onnxruntime, with the cores to itself.
    const texts = readChunkTexts(dirs.db);
    const sample = values.baseline === 'all' ? texts : evenlySpaced(texts, Number(values.baseline));
    const baseline = await prepareRawBaseline({
      modelDir: dirs.model,
      onnxFile: generated.onnxFile,
      texts: sample,
      batchSize,
      threads,
    });
    await baseline.warmUp();
    const rawStarted = performance.now();
    await baseline.run();
    const rawMs = performance.now() - rawStarted;
    await baseline.release();
    const rawRate = (sample.length / rawMs) * 1000;
    const fillRate = (summary.embedded_chunks / fillMs) * 1000;
    const overhead = (rawRate / fillRate - 1) * 100;

    const lines = [
      `first-index: synthetic KB, ${written.files} files, ${summary.chunks} chunks ` +
        `(${(baseline.tokens / sample.length).toFixed(0)} tokens per chunk), model: generated multilingual-e5-small ` +
        `shape (12 layers, q8, ${(generated.modelBytes / 1e6).toFixed(0)} MB), batch ${batchSize}, ` +
        `threads ${threads}, ${os.availableParallelism()} cores, load before ${loadBefore.toFixed(2)}`,
      `first file written: ${stages.firstFileMs === null ? 'n/a' : seconds(stages.firstFileMs)}`,
      answer
        ? `first keyword answer from a cold \`groove search\` in another process: ${seconds(answer.atMs)} after ` +
          `start (that search took ${seconds(answer.searchMs)}, try ${answer.attempts}, vector leg ${answer.vector})`
        : 'first keyword answer: none before the index finished',
      `every file's text written (embedding starts): ${stages.embedStartMs === null ? 'n/a' : seconds(stages.embedStartMs)}`,
      `embedding stage: ${summary.embedded_chunks} chunks in ${seconds(fillMs)} = ${fillRate.toFixed(1)} chunks/s`,
      `raw onnxruntime on ${sample.length === texts.length ? 'the same' : `${sample.length} evenly spaced`} chunks: ` +
        `${rawRate.toFixed(1)} chunks/s (${seconds(rawMs)}, ${baseline.batches} batches)`,
      `embedding stage vs raw: ${overhead.toFixed(1)}% slower (target ≤ 10%) ${overhead <= 10 ? 'PASS' : 'FAIL'}`,
      `first index end to end: ${seconds(totalMs)}`,
      `machine load (1-min average) after: ${os.loadavg()[0]!.toFixed(2)}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
