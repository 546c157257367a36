// The extraction thread: serves one job at a time from the pool (extraction-pool.ts). Parser libraries log to the
// console, which in a thread reaches the process's stdout, the MCP stdio transport: the console is silenced here.
import { parentPort, workerData } from 'node:worker_threads';
import type { ExtractJob, ExtractOutcome } from './extract-job.js';
import { runExtractJob } from './extract-run.js';

export type WorkerRequest = { seq: number; job: ExtractJob };
export type WorkerReply = { seq: number; outcome: ExtractOutcome } | { ready: true };

const quiet = () => {};
console.log = quiet;
console.info = quiet;
console.warn = quiet;
console.debug = quiet;
console.error = quiet;

/** A test may name a module whose `extract(job)` replaces the real extractors (a parser that hangs or crashes). */
const override = (workerData as { extractorModule?: string } | null)?.extractorModule;
const run: (job: ExtractJob) => Promise<ExtractOutcome> = override
  ? (await import(override)).extract
  : runExtractJob;

parentPort!.on('message', (request: WorkerRequest) => {
  void run(request.job).then(
    (outcome) => parentPort!.postMessage({ seq: request.seq, outcome } satisfies WorkerReply),
    (error: unknown) =>
      parentPort!.postMessage({
        seq: request.seq,
        outcome: { ok: false, reason: 'crashed', detail: `its parser failed (${String(error)})` },
      } satisfies WorkerReply),
  );
});
parentPort!.postMessage({ ready: true } satisfies WorkerReply);
