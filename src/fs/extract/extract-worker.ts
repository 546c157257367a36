// The extraction thread: serves one job at a time from the pool (extraction-pool.ts). For each job it first loads
// the format's libraries and says so (`loaded`), and the pool starts the job's deadline only then: a thread is
// never stopped while a library (pdf.js's native canvas addon) is still initialising. Parser libraries log to
// the console, which in a thread reaches the process's stdout, the MCP stdio transport: the console is silenced.
import { parentPort, workerData } from 'node:worker_threads';
import type { ExtractJob, ExtractOutcome } from './extract-job.js';
import { loadExtractor, runLoadedExtractor } from './extract-run.js';

export type WorkerRequest = { seq: number; job: ExtractJob };
export type WorkerReply =
  | { seq: number; outcome: ExtractOutcome }
  | { seq: number; loaded: true }
  | { ready: true };

const quiet = () => {};
console.log = quiet;
console.info = quiet;
console.warn = quiet;
console.debug = quiet;
console.error = quiet;

/** A test may name a module whose `extract(job)` replaces the real extractors (a parser that hangs or crashes). */
const override = (workerData as { extractorModule?: string } | null)?.extractorModule;
const replacement: ((job: ExtractJob) => Promise<ExtractOutcome>) | null = override
  ? (await import(override)).extract
  : null;

async function serve(request: WorkerRequest): Promise<ExtractOutcome> {
  if (replacement) {
    parentPort!.postMessage({ seq: request.seq, loaded: true } satisfies WorkerReply);
    return replacement(request.job);
  }
  let extract: Awaited<ReturnType<typeof loadExtractor>>;
  try {
    extract = await loadExtractor(request.job);
  } catch (error) {
    return { ok: false, reason: 'crashed', detail: `its parser could not be loaded (${String(error)})` };
  }
  parentPort!.postMessage({ seq: request.seq, loaded: true } satisfies WorkerReply);
  return runLoadedExtractor(extract, request.job);
}

parentPort!.on('message', (request: WorkerRequest) => {
  void serve(request).then(
    (outcome) => parentPort!.postMessage({ seq: request.seq, outcome } satisfies WorkerReply),
    (error: unknown) =>
      parentPort!.postMessage({
        seq: request.seq,
        outcome: { ok: false, reason: 'crashed', detail: `its parser failed (${String(error)})` },
      } satisfies WorkerReply),
  );
});
parentPort!.postMessage({ ready: true } satisfies WorkerReply);
