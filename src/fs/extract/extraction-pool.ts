// The parent side of extraction: one extraction process (extraction-process.ts), one job at a time, a wall-clock
// deadline per job that starts once the process has loaded the format's libraries. A job ends one of four ways:
// its outcome arrives; the deadline passes and the process is killed (`timeout`); the process's watchdog kills it
// over its memory or temp-file bound (`too-much-memory`, `too-large-inflated`); or it dies on its own (a library
// crash, the V8 heap cap: `crashed`). A job's outcome is given only once a killed process is gone and its folder
// removed, and the next job starts a fresh process and waits for it to be ready, so a stopped file never costs
// the next one. A process that finishes a job holding more than half its memory bound (WebAssembly memory never
// shrinks) is replaced too. The idle process keeps no groove process alive.
import type { ExtractJob, ExtractOutcome } from './extract-job.js';
import type { WorkerReply } from './extract-worker.js';
import { describeEnd, ExtractionProcess, type ProcessBounds, type ProcessEnd } from './extraction-process.js';

export interface ExtractionPoolOptions {
  /** Tests: a module whose `extract(job)` replaces the real extractors. */
  extractorModule?: string;
  /** How long a new process may take to start, and then to load a format's libraries. Default 60 s. */
  startupTimeoutMs?: number;
}

const MIB = 1024 * 1024;

export class ExtractionPool {
  private process: ExtractionProcess | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextSeq = 1;
  /** Processes started so far (tests read it to see a stopped process replaced). */
  processesStarted = 0;

  constructor(private readonly options: ExtractionPoolOptions = {}) {}

  /** Run one job; never rejects: every failure is an outcome. Jobs run one after another. */
  extract(job: ExtractJob): Promise<ExtractOutcome> {
    const result = this.queue.then(() => this.runOne(job));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Stop the process (a later job starts a new one). */
  async close(): Promise<void> {
    const running = this.process;
    this.process = null;
    await running?.kill();
  }

  private get startupMs(): number {
    return this.options.startupTimeoutMs ?? 60_000;
  }

  private async runOne(job: ExtractJob): Promise<ExtractOutcome> {
    const bounds: ProcessBounds = {
      maxRssBytes: job.limits.maxMemoryBytes,
      maxTempBytes: job.limits.maxDecompressedBytes,
    };
    let worker: ExtractionProcess;
    try {
      worker = await this.processWith(bounds);
    } catch (error) {
      return {
        ok: false,
        reason: 'crashed',
        detail: `the extraction process did not start (${(error as Error).message})`,
      };
    }
    worker.hold(true);
    const { outcome, rssBytes } = await this.runOn(worker, job);
    if (!worker.alive) this.process = null;
    else if (rssBytes > bounds.maxRssBytes / 2) await this.close();
    else {
      worker.emptyTemp();
      worker.hold(false);
    }
    return outcome;
  }

  /** The running process when its bounds are the job's, else a fresh one (the old one gone first). */
  private async processWith(bounds: ProcessBounds): Promise<ExtractionProcess> {
    const current = this.process;
    if (
      current?.alive &&
      current.bounds.maxRssBytes === bounds.maxRssBytes &&
      current.bounds.maxTempBytes === bounds.maxTempBytes
    ) {
      return current;
    }
    await this.close();
    this.processesStarted++;
    this.process = await ExtractionProcess.start(bounds, {
      extractorModule: this.options.extractorModule,
      startupTimeoutMs: this.startupMs,
    });
    return this.process;
  }

  /** One job on one process, to its outcome; a process this kills is gone (and cleaned) when this resolves. */
  private runOn(
    worker: ExtractionProcess,
    job: ExtractJob,
  ): Promise<{ outcome: ExtractOutcome; rssBytes: number }> {
    const seq = this.nextSeq++;
    return new Promise((resolve) => {
      let done = false;
      /** Set when this side kills the process: the outcome to give once it is gone. */
      let stopped: ExtractOutcome | null = null;
      const finish = (outcome: ExtractOutcome, rssBytes = 0) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        stopListening();
        stopWaitingForEnd();
        resolve({ outcome, rssBytes });
      };
      const stop = (outcome: ExtractOutcome) => {
        if (stopped || done) return;
        stopped = outcome;
        void worker.kill();
      };
      // Until the process says the format's libraries are loaded, only the startup allowance runs.
      let timer = setTimeout(
        () =>
          stop({
            ok: false,
            reason: 'crashed',
            detail: `its parser did not load within ${this.startupMs} ms`,
          }),
        this.startupMs,
      );
      const stopListening = worker.onReply((reply: WorkerReply) => {
        if (!('seq' in reply) || reply.seq !== seq || stopped) return;
        if ('loaded' in reply) {
          clearTimeout(timer);
          timer = setTimeout(
            () =>
              stop({
                ok: false,
                reason: 'timeout',
                detail: `extraction took longer than ${job.limits.timeoutMs} ms and was stopped`,
              }),
            job.limits.timeoutMs,
          );
        } else finish(reply.outcome, reply.rssBytes);
      });
      const stopWaitingForEnd = worker.onEnd((end) => finish(stopped ?? endOutcome(end, worker.bounds)));
      worker.send({ seq, job });
    });
  }
}

/** The refusal for a process that ended in the middle of a job it did not answer. */
function endOutcome(end: ProcessEnd, bounds: ProcessBounds): ExtractOutcome {
  if (end.verdict?.kind === 'memory') {
    return {
      ok: false,
      reason: 'too-much-memory',
      detail: `extracting it took more than ${Math.round(bounds.maxRssBytes / MIB)} MiB of memory and was stopped`,
    };
  }
  if (end.verdict?.kind === 'temp') {
    return {
      ok: false,
      reason: 'too-large-inflated',
      detail: `extracting it wrote more than the ${bounds.maxTempBytes}-byte cap to temporary files and was stopped`,
    };
  }
  return {
    ok: false,
    reason: 'crashed',
    detail: `the extraction process stopped while reading it (${describeEnd(end)})`,
  };
}

let shared: ExtractionPool | null = null;

/** The process's one extraction pool (the indexer, live sync and get_document share its process). */
export function sharedExtractionPool(): ExtractionPool {
  shared ??= new ExtractionPool();
  return shared;
}
