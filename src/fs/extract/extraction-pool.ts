// The main-thread side of extraction: one worker thread, one job at a time, a wall-clock deadline per job that
// starts once the thread has loaded the format's libraries. At the deadline the thread is terminated and the job
// refused (`timeout`); a thread that dies (a library crash, the thread's heap cap) refuses its job (`crashed`).
// The next job starts a fresh thread, so neither takes down `groove index` or `groove serve`. The idle thread
// does not keep the process alive.
import { Worker } from 'node:worker_threads';
import type { ExtractJob, ExtractOutcome } from './extract-job.js';
import type { WorkerReply, WorkerRequest } from './extract-worker.js';

export interface ExtractionPoolOptions {
  /** Heap cap of the thread in MiB; a file that needs more is refused as `crashed`. Default 2048. */
  maxHeapMb?: number;
  /** Tests: a module whose `extract(job)` replaces the real extractors. */
  extractorModule?: string;
  /** How long a new thread may take to load before its job is refused. Default 60 s. */
  startupTimeoutMs?: number;
}

interface Running {
  seq: number;
  resolve: (outcome: ExtractOutcome) => void;
  timer: NodeJS.Timeout | null;
  /** The job's deadline, started once the thread has loaded the format's libraries. */
  timeoutMs: number;
}

export class ExtractionPool {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private running: Running | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextSeq = 1;
  /** Threads started so far (tests read it to see a stopped thread replaced). */
  threadsStarted = 0;

  constructor(private readonly options: ExtractionPoolOptions = {}) {}

  /** Run one job; never rejects: every failure is an outcome. Jobs run one after another. */
  extract(job: ExtractJob): Promise<ExtractOutcome> {
    const result = this.queue.then(() => this.runOne(job));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Stop the thread (a later job starts a new one). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }

  private async runOne(job: ExtractJob): Promise<ExtractOutcome> {
    try {
      await this.startedWorker();
    } catch (error) {
      await this.discard();
      return {
        ok: false,
        reason: 'crashed',
        detail: `the extraction thread did not start (${(error as Error).message})`,
      };
    }
    const worker = this.worker!;
    const seq = this.nextSeq++;
    worker.ref();
    const outcome = await new Promise<ExtractOutcome>((resolve) => {
      // Until the thread says the format's libraries are loaded, only the startup allowance runs.
      const loadMs = this.options.startupTimeoutMs ?? 60_000;
      const timer = setTimeout(
        () => this.stopJob(`its parser did not load within ${loadMs} ms`, 'crashed'),
        loadMs,
      );
      this.running = { seq, resolve, timer, timeoutMs: job.limits.timeoutMs };
      worker.postMessage({ seq, job } satisfies WorkerRequest);
    });
    this.worker?.unref();
    return outcome;
  }

  /** The job's libraries are loaded: its deadline starts now. */
  private startDeadline(seq: number): void {
    const running = this.running;
    if (!running || running.seq !== seq) return;
    if (running.timer) clearTimeout(running.timer);
    running.timer = setTimeout(
      () => this.stopJob(`extraction took longer than ${running.timeoutMs} ms and was stopped`, 'timeout'),
      running.timeoutMs,
    );
  }

  /** Refuse the running job and terminate its thread (the next job starts a new one). */
  private stopJob(detail: string, reason: 'timeout' | 'crashed'): void {
    this.finish({ ok: false, reason, detail });
    void this.discard();
  }

  private finish(outcome: ExtractOutcome): void {
    const running = this.running;
    if (!running) return;
    this.running = null;
    if (running.timer) clearTimeout(running.timer);
    running.resolve(outcome);
  }

  private async discard(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate().catch(() => undefined);
  }

  private startedWorker(): Promise<void> {
    if (this.worker && this.ready) return this.ready;
    const worker = startThread(this.options);
    this.threadsStarted++;
    this.worker = worker;
    const startupMs = this.options.startupTimeoutMs ?? 60_000;
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready after ${startupMs} ms`)), startupMs);
      worker.on('message', (reply: WorkerReply) => {
        if ('ready' in reply) {
          clearTimeout(timer);
          resolve();
        } else if ('loaded' in reply) this.startDeadline(reply.seq);
        else if (this.running?.seq === reply.seq) this.finish(reply.outcome);
      });
      const died = (why: string) => {
        clearTimeout(timer);
        reject(new Error(why));
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
        this.finish({
          ok: false,
          reason: 'crashed',
          detail: `the extraction thread stopped while reading it (${why})`,
        });
      };
      worker.on('error', (error) => died(error.message));
      worker.on('exit', (code) => died(`exit code ${code}`));
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }
}

/** The thread from the compiled .js, or — running from sources (tests, benches) — the .ts through tsx. */
function startThread(options: ExtractionPoolOptions): Worker {
  const here = import.meta.url;
  const workerData = { extractorModule: options.extractorModule };
  const resourceLimits = { maxOldGenerationSizeMb: options.maxHeapMb ?? 2048 };
  if (!here.endsWith('.ts')) {
    return new Worker(new URL('./extract-worker.js', here), { workerData, resourceLimits });
  }
  const entry = JSON.stringify(new URL('./extract-worker.ts', here).href);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const code = `import(${tsx}).then((api) => { api.register(); return import(${entry}); });`;
  return new Worker(code, { eval: true, workerData, resourceLimits });
}

let shared: ExtractionPool | null = null;

/** The process's one extraction pool (the indexer, live sync and get_document share its thread). */
export function sharedExtractionPool(): ExtractionPool {
  shared ??= new ExtractionPool();
  return shared;
}
