// Messages between the main thread and the inference thread, and how a GrooveError crosses between them.
import { type ErrorCode, GrooveError } from '../errors.js';
import type { EmbeddingSetup, InputFitTally } from '../types.js';
import type { ModelProgressEvent } from './model-progress.js';
import type { OpenTransformersEmbedderOptions } from './transformers-embedder.js';

export interface EmbedderWorkerData {
  options: Omit<OpenTransformersEmbedderOptions, 'progress'>;
  /** Forward download progress events to the main thread. */
  reportProgress: boolean;
}

export type EmbedRequest =
  | { type: 'open'; data: EmbedderWorkerData }
  | { type: 'embed'; seq: number; kind: 'query' | 'documents' | 'measure' | 'count'; texts: string[] }
  | { type: 'close' };

export interface SerializedError {
  code: ErrorCode | null;
  message: string;
  hint?: string;
}

export type WorkerReply =
  | { type: 'ready'; id: string; provider: string; dimension: number; setup?: EmbeddingSetup }
  | { type: 'open-failed'; error: SerializedError }
  | { type: 'progress'; event: ModelProgressEvent }
  | { type: 'vectors'; seq: number; vectors: Float32Array[]; fit: InputFitTally }
  | { type: 'measured'; seq: number; overLimit: boolean[] }
  | { type: 'counted'; seq: number; counts: number[] }
  | { type: 'failed'; seq: number; error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  if (error instanceof GrooveError) {
    return { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  }
  return { code: null, message: error instanceof Error ? error.message : String(error) };
}

/** The error as the main thread throws it: the same code, message and hint as inside the worker. */
export function reviveError(error: SerializedError, fallback: ErrorCode): GrooveError {
  return new GrooveError(error.code ?? fallback, error.message, error.hint ? { hint: error.hint } : {});
}
