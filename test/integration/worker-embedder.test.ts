// Inference on its own thread: the same vectors as in-process inference, the main thread free while a model
// runs, and a process that exits by itself when the caller never closes the embedder.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModel } from '../../scripts/test-model/write-test-model.js';
import { openTransformersEmbedder } from '../../src/models/transformers-embedder.js';
import {
  discardPrestartedThread,
  openWorkerEmbedder,
  prestartedThreadWaiting,
  prestartInferenceThread,
} from '../../src/models/worker-embedder.js';
import type { Embedder } from '../../src/types.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/models/worker-embedder.js'));
let tmp: string;
let modelDir: string;
let inWorker: Embedder;
let inProcess: Embedder;

const options = () => ({
  model: '',
  modelDir,
  cacheDir: path.join(tmp, 'cache'),
  offline: true,
  batchSize: 16,
  maxBatchTokens: 8192,
  maxInputChars: 4000,
  threads: 1,
});

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-worker-embedder-'));
  modelDir = writeTestModel({ kind: 'embed', shape: 'minilm-l6', outDir: path.join(tmp, 'minilm') }).dir;
  inWorker = await openWorkerEmbedder(options());
  inProcess = await openTransformersEmbedder(options());
}, 60_000);
afterAll(async () => {
  await inWorker?.close();
  await inProcess?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const texts = Array.from(
  { length: 64 },
  (_, i) => `note ${i}: rotate the backup keys, then verify the restore of volume ${i} 東京の売上`,
);

describe('openWorkerEmbedder', () => {
  it('gives the vectors in-process inference gives, with the same identity', async () => {
    expect(inWorker.id).toBe(inProcess.id);
    expect(inWorker.dimension).toBe(inProcess.dimension);
    const [a, b] = await Promise.all([inWorker.embedDocuments(texts), inProcess.embedDocuments(texts)]);
    expect(a).toHaveLength(texts.length);
    a.forEach((vector, i) => {
      expect(vector).toHaveLength(inWorker.dimension);
      vector.forEach((x, d) => {
        expect(x).toBeCloseTo(b[i]![d]!, 5);
      });
    });
    const query = await inWorker.embedQuery('verify the restore');
    expect(Array.from(query)).toEqual(Array.from(await inProcess.embedQuery('verify the restore')));
  });

  it('keeps the main thread free while the model runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    await inWorker.embedDocuments([...texts, ...texts, ...texts]);
    const ms = performance.now() - started;
    clearInterval(timer);
    // In-process inference would block for the whole call, so no 1 ms timer could fire until it ended.
    expect(ms).toBeGreaterThan(20);
    expect(ticks).toBeGreaterThan(3);
  });

  it('answers concurrent calls each with its own vectors', async () => {
    const single = await Promise.all(texts.slice(0, 8).map((t) => inWorker.embedQuery(t)));
    const again = await Promise.all(texts.slice(0, 8).map((t) => inProcess.embedQuery(t)));
    single.forEach((vector, i) => {
      expect(Array.from(vector)).toEqual(Array.from(again[i]!));
    });
  });

  it('takes over a prestarted thread: same vectors as in-process inference', async () => {
    prestartInferenceThread();
    expect(prestartedThreadWaiting()).toBe(true);
    const taken = await openWorkerEmbedder(options());
    expect(prestartedThreadWaiting()).toBe(false);
    try {
      const query = await taken.embedQuery('rotate the backup keys');
      expect(Array.from(query)).toEqual(Array.from(await inProcess.embedQuery('rotate the backup keys')));
    } finally {
      await taken.close();
    }
  });

  it('stops a discarded prestarted thread cleanly: it ends itself after its import, never terminated', async () => {
    prestartInferenceThread();
    // terminate() would end it mid-import with exit code 1; a clean end is 0.
    expect(await discardPrestartedThread()).toBe(0);
    expect(prestartedThreadWaiting()).toBe(false);
    expect(await discardPrestartedThread()).toBeNull();
  });

  it.skipIf(!hasDist)(
    'never aborts a process that discards its prestarted thread at any point of the import',
    async () => {
      // Each process loads sharp and onnxruntime-node once, so each gets one discard at its own delay, spread over
      // the import. Terminating the thread mid-import aborted about 1 process in 75 here ('Napi::Error' from
      // sharp's addon init); GROOVE_STRESS=1 runs 300 processes, the default 16. The compiled build (dist/) starts
      // the thread in a fraction of the time tsx takes.
      const runs = process.env.GROOVE_STRESS === '1' ? 300 : 16;
      const script = path.join(tmp, 'discard-prestart.mjs');
      fs.writeFileSync(
        script,
        `import { discardPrestartedThread, prestartInferenceThread } from ${JSON.stringify(path.join(repoRoot, 'dist/src/models/worker-embedder.js'))};
prestartInferenceThread();
await new Promise((resolve) => setTimeout(resolve, Number(process.argv[2])));
await discardPrestartedThread();\n`,
      );
      const abnormal: string[] = [];
      let next = 0;
      const lane = async () => {
        while (next < runs) {
          const delay = Math.round(((next++ * 37) % 100) * 6); // 0–594 ms, spread evenly
          const outcome = await new Promise<string | null>((resolve) => {
            const child = spawn(process.execPath, [script, String(delay)], {
              cwd: repoRoot,
              stdio: ['ignore', 'ignore', 'pipe'],
            });
            let stderr = '';
            child.stderr.on('data', (chunk: Buffer) => {
              stderr += chunk.toString('utf8');
            });
            child.on('close', (code, signal) => {
              const clean = code === 0 && signal === null && !stderr.includes('terminate called');
              resolve(
                clean ? null : `delay ${delay} ms: code ${code}, signal ${signal}, ${stderr.slice(0, 200)}`,
              );
            });
          });
          if (outcome) abnormal.push(outcome);
        }
      };
      await Promise.all([lane(), lane()]);
      expect(abnormal).toEqual([]);
    },
    600_000,
  );

  it('lets the process exit when a prestarted thread is never used', () => {
    const script = path.join(tmp, 'unused-prestart.mts');
    fs.writeFileSync(
      script,
      `import { prestartInferenceThread } from ${JSON.stringify(path.join(repoRoot, 'src/models/worker-embedder.ts'))};
prestartInferenceThread();
console.log('done');\n`,
    );
    const started = performance.now();
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(out.trim()).toBe('done');
    // Well before the thread's own 15 s idle limit: the unref'd thread never held the process.
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('lets the process exit when the caller never closes it', () => {
    const script = path.join(tmp, 'no-close.mts');
    fs.writeFileSync(
      script,
      `import { openWorkerEmbedder } from ${JSON.stringify(path.join(repoRoot, 'src/models/worker-embedder.ts'))};
const e = await openWorkerEmbedder(${JSON.stringify(options())});
const v = await e.embedQuery('hello');
console.log(v.length);\n`,
    );
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(out.trim()).toBe(String(inWorker.dimension));
  });
});
