// How the way the embedder is called costs: the same short chunks (synthetic notes' sections) through raw
// onnxruntime, through groove's embedder in one call, in calls of one batch's worth, and in calls of four
// (what the index's embedding stage does), interleaved round by round; the minimum of each side is printed,
// since on a shared machine only the least disturbed round shows the cost.
// Run: npx tsx bench/embed-calls.ts [--chunks 480] [--rounds 5] [--batch 32]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeTestModel } from '../scripts/test-model/write-test-model.js';
import { createEmbedder } from '../src/models/create-embedder.js';
import { prepareRawBaseline } from './raw-onnx-baseline.js';
import { writeSyntheticKb } from './synthetic-kb.js';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '480' },
    rounds: { type: 'string', default: '5' },
    batch: { type: 'string', default: '32' },
  },
});
const chunkCount = Number(values.chunks);
const rounds = Number(values.rounds);
const batchSize = Number(values.batch);
const threads = Math.min(8, os.availableParallelism());

/** Every section of the synthetic notes, shortest first (the order of the index's embedding queue). */
function sectionsOf(kbDir: string): string[] {
  const texts: string[] = [];
  for (const file of fs.readdirSync(kbDir, { recursive: true }) as string[]) {
    const full = path.join(kbDir, file);
    if (!fs.statSync(full).isFile()) continue;
    texts.push(...fs.readFileSync(full, 'utf8').split(/\n## /).slice(1));
  }
  return texts.slice(0, chunkCount).sort((a, b) => a.length - b.length);
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-embed-calls-'));
  try {
    const generated = writeTestModel({ kind: 'embed', shape: 'e5-small', dtype: 'q8', outDir: dir });
    writeSyntheticKb({ dir: path.join(dir, 'kb'), chunks: chunkCount + 200 });
    const texts = sectionsOf(path.join(dir, 'kb'));
    const embedder = (await createEmbedder({
      provider: 'transformers',
      model: null,
      modelDir: dir,
      cacheDir: dir,
      offline: true,
      timeoutSeconds: 60,
      maxRetries: 0,
      batchSize,
      maxInputChars: 8000,
      threads,
    }))!;
    const raw = await prepareRawBaseline({
      modelDir: dir,
      onnxFile: generated.onnxFile,
      texts,
      batchSize,
      threads,
    });
    const inCalls = (size: number) => async () => {
      for (let i = 0; i < texts.length; i += size) await embedder.embedDocuments(texts.slice(i, i + size));
    };
    const sides = {
      'raw onnxruntime': () => raw.run(),
      'groove, one call': () => embedder.embedDocuments(texts),
      [`groove, calls of ${batchSize}`]: inCalls(batchSize),
      [`groove, calls of ${batchSize * 4}`]: inCalls(batchSize * 4),
    };
    await raw.warmUp();
    await embedder.embedDocuments(texts.slice(0, batchSize * 2));
    const timings = new Map<string, number[]>(Object.keys(sides).map((name) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const [name, work] of Object.entries(sides)) timings.get(name)!.push(await time(work));
    }
    await embedder.close();
    await raw.release();
    const rawBest = Math.min(...timings.get('raw onnxruntime')!);
    const lines = [
      `embed-calls: ${texts.length} synthetic sections, ${(raw.tokens / texts.length).toFixed(0)} tokens each on ` +
        `average, generated multilingual-e5-small shape (q8), batch ${batchSize}, threads ${threads}, ` +
        `best of ${rounds} interleaved rounds, load after ${os.loadavg()[0]!.toFixed(2)}`,
      ...[...timings].map(([name, ms]) => {
        const best = Math.min(...ms);
        const rate = ((texts.length / best) * 1000).toFixed(1);
        const vsRaw =
          name === 'raw onnxruntime' ? '' : `, ${(((best - rawBest) / rawBest) * 100).toFixed(1)}% vs raw`;
        return `  ${name.padEnd(24)} ${best.toFixed(0)} ms (${rate} chunks/s${vsRaw})`;
      }),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
