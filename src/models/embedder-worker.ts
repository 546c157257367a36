// The inference thread: opens a transformers embedder (download, tokenizer, onnxruntime session) and answers embed
// requests one at a time. onnxruntime-node runs a session synchronously on the calling thread, so inference here
// leaves the main thread free to serve requests, run the lexical leg and read SQLite meanwhile.
// Started without options (a prestart, see worker-embedder.ts), it imports the library at once and waits for an
// `open` message, giving up after PRESTART_IDLE_MS. The thread only ever ends itself, and never while that import
// runs: terminating a thread while a native addon initialises (sharp, onnxruntime-node) can abort the whole
// process with an uncaught C++ exception (`terminate called after throwing an instance of 'Napi::Error'`).
import { parentPort, workerData } from 'node:worker_threads';
import type { Embedder } from '../types.js';
import {
  type EmbedderWorkerData,
  type EmbedRequest,
  serializeError,
  type WorkerReply,
} from './embedder-worker-protocol.js';
import { openTransformersEmbedder } from './transformers-embedder.js';
import { importSettled, importTransformers } from './transformers-runtime.js';

const PRESTART_IDLE_MS = 15_000;
const port = parentPort;
if (!port) throw new Error('embedder-worker.ts runs only as a worker thread');
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let embedder: Embedder | null = null;
let idle: NodeJS.Timeout | null = null;
/** End the thread cleanly: once any import of the model library has settled, and the model is released. */
const close = async (): Promise<void> => {
  if (idle) clearTimeout(idle);
  await importSettled();
  await embedder?.close();
  port.close();
};

async function open(data: EmbedderWorkerData): Promise<void> {
  try {
    embedder = await openTransformersEmbedder({
      ...data.options,
      ...(data.reportProgress ? { progress: (event) => reply({ type: 'progress', event }) } : {}),
    });
    const { id, provider, dimension, setup } = embedder;
    reply({ type: 'ready', id, provider, dimension, ...(setup ? { setup } : {}) });
  } catch (error) {
    reply({ type: 'open-failed', error: serializeError(error) });
  }
}

async function embed(request: Extract<EmbedRequest, { type: 'embed' }>): Promise<void> {
  try {
    if (!embedder) throw new Error('the model did not load');
    if (request.kind === 'measure') {
      const overLimit = (await embedder.passagesOverLimit?.(request.texts)) ?? request.texts.map(() => false);
      reply({ type: 'measured', seq: request.seq, overLimit });
      return;
    }
    if (request.kind === 'count') {
      const counts = (await embedder.countTokens?.(request.texts)) ?? [];
      reply({ type: 'counted', seq: request.seq, counts });
      return;
    }
    const fit = { overLimit: 0, truncated: 0 };
    const vectors =
      request.kind === 'query'
        ? [await embedder.embedQuery(request.texts[0] ?? '')]
        : await embedder.embedDocuments(request.texts, fit);
    // Copy into one buffer per vector so each can be transferred without dragging a shared backing store along.
    const owned = vectors.map((v) => new Float32Array(v));
    reply(
      { type: 'vectors', seq: request.seq, vectors: owned, fit },
      owned.map((v) => v.buffer as ArrayBuffer),
    );
  } catch (error) {
    reply({ type: 'failed', seq: request.seq, error: serializeError(error) });
  }
}

port.on('message', async (request: EmbedRequest) => {
  if (request.type === 'open') {
    if (idle) clearTimeout(idle);
    await open(request.data);
  } else if (request.type === 'embed') {
    await embed(request);
  } else {
    await close();
  }
});

const started = workerData as EmbedderWorkerData | null;
if (started) await open(started);
else {
  void importTransformers().catch(() => undefined);
  idle = setTimeout(() => void close(), PRESTART_IDLE_MS);
}
