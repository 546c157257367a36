// An Embedder whose transformers model lives on its own thread (embedder-worker.ts). Requests queue in order;
// the thread keeps the process alive only while a request is outstanding, and a thread that dies fails every
// pending and later call with the reason instead of hanging.
import { Worker } from 'node:worker_threads';
import { GrooveError } from '../errors.js';
import type { Embedder, EmbeddingSetup, InputFitTally } from '../types.js';
import {
  type EmbedderWorkerData,
  type EmbedRequest,
  reviveError,
  type WorkerReply,
} from './embedder-worker-protocol.js';
import type { OpenTransformersEmbedderOptions } from './transformers-embedder.js';

const CLOSE_TIMEOUT_MS = 5000;

type Answer = Extract<WorkerReply, { type: 'vectors' | 'measured' | 'counted' }>;
type AnswerOf<K extends Answer['type']> = Extract<Answer, { type: K }>;

interface Pending {
  /** The reply this request is answered with. */
  expects: Answer['type'];
  resolve(reply: Answer): void;
  reject(error: Error): void;
}

/** A thread started before the model was known (prestartInferenceThread), waiting for its `open` message. */
let prestarted: Worker | null = null;

/**
 * Start the inference thread now, before the caller knows which model it needs: the thread imports the
 * transformers library while the main thread is still loading its own modules. The next
 * openWorkerEmbedder takes it over; unused, it ends itself after a few seconds.
 */
export function prestartInferenceThread(): void {
  if (prestarted) return;
  const worker = startWorker(null);
  prestarted = worker;
  worker.unref();
  worker.once('exit', () => {
    if (prestarted === worker) prestarted = null;
  });
}

/** Whether a prestarted thread is waiting for a model (none was started, or it was taken over or stopped). */
export function prestartedThreadWaiting(): boolean {
  return prestarted !== null;
}

/**
 * Stop a prestarted thread nobody took over, resolving with its exit code (null when there was none). The thread
 * is asked to end and does so once its library import has settled; it is never terminated mid-import.
 */
export async function discardPrestartedThread(): Promise<number | null> {
  const worker = prestarted;
  prestarted = null;
  return worker ? stopThread(worker) : null;
}

/**
 * Ask a thread to end (it finishes its import, releases its model and closes its port), wait for it, and resolve
 * with its exit code. terminate() only after CLOSE_TIMEOUT_MS, for a thread that hangs: terminating a thread
 * while a native addon initialises can abort the whole process (see embedder-worker.ts).
 */
function stopThread(worker: Worker): Promise<number> {
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  worker.ref();
  worker.postMessage({ type: 'close' } satisfies EmbedRequest);
  const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
  return exited.finally(() => clearTimeout(timer));
}

/** Start the thread from the compiled .js, or — running from sources (tests, benches) — the .ts through tsx. */
function startWorker(data: EmbedderWorkerData | null): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./embedder-worker.js', here), { workerData: data });
  const entry = JSON.stringify(new URL('./embedder-worker.ts', here).href);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const code = `import(${tsx}).then((api) => { api.register(); return import(${entry}); });`;
  return new Worker(code, { eval: true, workerData: data });
}

class WorkerEmbedder implements Embedder {
  readonly id: string;
  readonly provider: string;
  readonly dimension: number;
  readonly setup: EmbeddingSetup | undefined;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextSeq = 1;
  private stopped: GrooveError | null = null;

  constructor(
    worker: Worker,
    identity: { id: string; provider: string; dimension: number; setup?: EmbeddingSetup },
  ) {
    this.worker = worker;
    this.id = identity.id;
    this.provider = identity.provider;
    this.dimension = identity.dimension;
    this.setup = identity.setup;
    worker.on('message', (reply: WorkerReply) => this.settle(reply));
    worker.on('error', (error) => this.stop(error.message));
    worker.on('exit', (code) => this.stop(`the thread exited with code ${code}`));
    worker.unref();
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const reply = await this.request('query', [text], 'vectors');
    return reply.vectors[0] as Float32Array;
  }

  async embedDocuments(texts: string[], fit?: InputFitTally): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const reply = await this.request('documents', texts, 'vectors');
    if (fit) {
      fit.overLimit += reply.fit.overLimit;
      fit.truncated += reply.fit.truncated;
    }
    return reply.vectors;
  }

  async passagesOverLimit(texts: string[]): Promise<boolean[]> {
    if (texts.length === 0) return [];
    const reply = await this.request('measure', texts, 'measured');
    return reply.overLimit;
  }

  async countTokens(texts: string[]): Promise<number[]> {
    if (texts.length === 0) return [];
    const reply = await this.request('count', texts, 'counted');
    return reply.counts;
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    this.stop('it was closed');
    await stopThread(this.worker);
  }

  private request<K extends Answer['type']>(
    kind: 'query' | 'documents' | 'measure' | 'count',
    texts: string[],
    expects: K,
  ): Promise<AnswerOf<K>> {
    if (this.stopped) return Promise.reject(this.stopped);
    const seq = this.nextSeq++;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { expects, resolve: (reply) => resolve(reply as AnswerOf<K>), reject });
      if (this.pending.size === 1) this.worker.ref();
      this.post({ type: 'embed', seq, kind, texts });
    });
  }

  private post(message: EmbedRequest): void {
    this.worker.postMessage(message);
  }

  private settle(reply: WorkerReply): void {
    if (
      reply.type !== 'vectors' &&
      reply.type !== 'measured' &&
      reply.type !== 'counted' &&
      reply.type !== 'failed'
    )
      return;
    const waiting = this.pending.get(reply.seq);
    if (!waiting) return;
    this.pending.delete(reply.seq);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.type === 'failed') waiting.reject(reviveError(reply.error, 'EMBEDDING_FAILED'));
    else if (reply.type === waiting.expects) waiting.resolve(reply);
    else
      waiting.reject(new GrooveError('EMBEDDING_FAILED', `The inference thread answered "${reply.type}".`));
  }

  private stop(reason: string): void {
    this.stopped ??= new GrooveError(
      'EMBEDDING_FAILED',
      `The inference thread of "${this.id}" stopped: ${reason}.`,
      { hint: 'restart the groove process; the reason above says what stopped the thread' },
    );
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
  }
}

/** Open the model on a new thread; resolves once it is loaded, or rejects with the loader's own error. */
export function openWorkerEmbedder(options: OpenTransformersEmbedderOptions): Promise<Embedder> {
  const { progress, ...rest } = options;
  const data: EmbedderWorkerData = { options: rest, reportProgress: progress !== undefined };
  const worker = prestarted ?? startWorker(data);
  if (worker === prestarted) {
    prestarted = null;
    worker.ref();
    worker.postMessage({ type: 'open', data } satisfies EmbedRequest);
  }
  return new Promise((resolve, reject) => {
    const onMessage = (reply: WorkerReply) => {
      if (reply.type === 'progress') progress?.(reply.event);
      else if (reply.type === 'ready') {
        detach();
        resolve(new WorkerEmbedder(worker, reply));
      } else if (reply.type === 'open-failed') {
        detach();
        void stopThread(worker);
        reject(reviveError(reply.error, 'MODEL_UNAVAILABLE'));
      }
    };
    const onError = (error: Error) => {
      detach();
      reject(new GrooveError('MODEL_UNAVAILABLE', `The inference thread failed to start: ${error.message}.`));
    };
    const onExit = (code: number) => onError(new Error(`it exited with code ${code}`));
    const detach = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}
