// Peak memory of the cross-encoder by token budget: each setting scores the same long pairs in a fresh process
// and reports that process's peak RSS (getrusage). A budget of pairs × tokens reproduces fixed batches of `pairs`.
// Run: npx tsx bench/rerank-memory.ts [--pairs 16] [--tokens 1024] [--budgets 16384,8192,4096,2048,1024]
//   [--threads 2]
// The model is a generated XLM-R cross-encoder of MiniLM-L6's size (hidden 384, 6 layers, 12 heads; random
// weights) with positions for 1,024-token pairs, as groove reads them for bge-reranker-v2-m3.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeEncoderGraph } from '../scripts/test-model/encoder-graph.js';
import { writeTestModel } from '../scripts/test-model/write-test-model.js';
import { TransformersReranker } from '../src/models/transformers-reranker.js';
import { loadModelFolder } from '../src/models/transformers-runtime.js';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '16' },
    tokens: { type: 'string', default: '1024' },
    budgets: { type: 'string', default: '16384,8192,4096,2048,1024' },
    threads: { type: 'string', default: '2' },
    child: { type: 'string' },
    model: { type: 'string' },
  },
});
const pairs = Number(values.pairs);
const tokens = Number(values.tokens);
const threads = Number(values.threads);

/** Passage words are one or two tokens each in the test vocabulary: enough of them to reach `tokens`. */
function passages(): string[] {
  const words =
    'the quarterly revenue report for the search engine team with the annual summary and market data';
  const list = words.split(' ');
  const text = Array.from({ length: tokens }, (_, i) => list[i % list.length]).join(' ');
  return Array.from({ length: pairs }, (_, i) => `${i} ${text}`);
}

function writeModel(dir: string): void {
  const written = writeTestModel({ kind: 'rerank', shape: 'minilm-l6', family: 'xlmr', outDir: dir });
  const maxPositions = tokens + 2;
  const shape = {
    vocabSize: written.vocabSize,
    hidden: 384,
    layers: 6,
    heads: 12,
    intermediate: 1536,
    maxPositions,
  };
  const graph = encodeEncoderGraph({ family: 'xlmr', kind: 'rerank', shape, seed: 42, quantized: false });
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), graph);
  const configFile = path.join(dir, 'config.json');
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(configFile, JSON.stringify({ ...config, max_position_embeddings: maxPositions }));
}

/** `2 × 8×1024`: how many batches of each shape, in order. */
function describeBatches(shapes: string[]): string {
  const groups: { shape: string; count: number }[] = [];
  for (const shape of shapes) {
    const last = groups[groups.length - 1];
    if (last?.shape === shape) last.count++;
    else groups.push({ shape, count: 1 });
  }
  return groups.map((g) => `${g.count} × ${g.shape}`).join(', ');
}

/** One setting, in this process: score the pairs once, print the batch shapes and the peak RSS. */
async function measure(folder: string, budget: number): Promise<void> {
  const loaded = await loadModelFolder({ folder, task: 'reranker', dtype: 'fp32', threads });
  const shapes: string[] = [];
  const recording = {
    ...loaded,
    encode: loaded.encode,
    run: (batch: Parameters<typeof loaded.run>[0]) => {
      shapes.push(`${batch.dims[0]}×${batch.dims[1]}`);
      return loaded.run(batch);
    },
  };
  const reranker = new TransformersReranker(recording, {
    model: folder,
    maxTokens: tokens,
    batchSize: 16,
    maxBatchTokens: budget,
    maxInputChars: 1_000_000,
  });
  const loadedRss = process.resourceUsage().maxRSS;
  const started = performance.now();
  if (budget > 0) await reranker.score('quarterly revenue report', passages());
  const ms = performance.now() - started;
  const peakMib = process.resourceUsage().maxRSS / 1024;
  await loaded.dispose();
  const what = budget > 0 ? `budget ${budget}: ${describeBatches(shapes)}` : 'model loaded, nothing scored';
  process.stdout.write(
    `${what.padEnd(42)} peak RSS ${peakMib.toFixed(0)} MiB (after load ${(loadedRss / 1024).toFixed(0)} MiB), ` +
      `${(ms / 1000).toFixed(1)} s\n`,
  );
}

async function main(): Promise<void> {
  if (values.child !== undefined && values.model) return measure(values.model, Number(values.child));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-rerank-memory-'));
  try {
    writeModel(dir);
    process.stdout.write(
      `rerank-memory: ${pairs} pairs of ${tokens} tokens, XLM-R cross-encoder hidden 384, 6 layers, 12 heads; ` +
        `${threads} threads, load average ${os.loadavg()[0]?.toFixed(2)}\n`,
    );
    const self = fileURLToPath(import.meta.url);
    for (const budget of [0, ...values.budgets.split(',').map(Number)]) {
      const args = ['--import', 'tsx', self, '--child', String(budget), '--model', dir];
      const common = ['--pairs', String(pairs), '--tokens', String(tokens), '--threads', String(threads)];
      process.stdout.write(execFileSync(process.execPath, [...args, ...common], { encoding: 'utf8' }));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
