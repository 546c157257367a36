// Stand-ins for a model a read session could not load: every call fails with the load error, so the vector leg
// (or the reranker stage) reports `failed` with the reason and eval's leg probe refuses with "component down",
// instead of the whole command stopping before the probe. Indexing never uses them: it needs the model itself.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { type ErrorCode, GrooveError } from '../../errors.js';
import type { Embedder, EmbeddingSetup, Reranker } from '../../types.js';
import { embedderIdOf } from './embedder-factory.js';
import type { IndexIdentity } from './model-identity.js';

/** The codes that mean "the model is not usable here", as opposed to a wrong request (MODEL_UNKNOWN, config). */
const LOAD_FAILURES: ReadonlySet<ErrorCode> = new Set([
  'MODEL_UNAVAILABLE',
  'MODEL_CORRUPT',
  'MODEL_CHECKSUM',
  'ENDPOINT_FAILED',
  'EMBEDDING_FAILED',
]);

/** Load failures that time or the network can cure (see mayLoadLater). */
const NOT_YET_LOADABLE: ReadonlySet<ErrorCode> = new Set(['MODEL_UNAVAILABLE', 'ENDPOINT_FAILED']);

function isLoadFailure(error: unknown): error is GrooveError {
  return error instanceof GrooveError && LOAD_FAILURES.has(error.code);
}

/** The load error with its fix in the message: a leg's health carries the message only. */
function withFix(error: GrooveError): GrooveError {
  const message = error.hint ? `${error.message} (${error.hint})` : error.message;
  return new GrooveError(error.code, message, { cause: error, ...(error.hint ? { hint: error.hint } : {}) });
}

class UnloadedEmbedder implements Embedder {
  readonly id: string;
  readonly provider: string;
  readonly dimension: number;
  readonly setup: EmbeddingSetup | undefined;
  readonly loadError: GrooveError;

  constructor(loadError: GrooveError, identity: IndexIdentity) {
    this.loadError = loadError;
    this.id = identity.model;
    this.provider = identity.provider;
    this.dimension = identity.dimension;
    this.setup = identity.setup ?? undefined;
  }

  embedDocuments(): Promise<Float32Array[]> {
    return Promise.reject(this.loadError);
  }

  embedQuery(): Promise<Float32Array> {
    return Promise.reject(this.loadError);
  }

  async close(): Promise<void> {}
}

class UnloadedReranker implements Reranker {
  readonly id: string;
  readonly loadError: GrooveError;

  constructor(loadError: GrooveError, id: string) {
    this.loadError = loadError;
    this.id = id;
  }

  score(): Promise<number[]> {
    return Promise.reject(this.loadError);
  }

  async close(): Promise<void> {}
}

/**
 * The embedder a read session uses when loading it failed with `error`: a stand-in with the index's identity,
 * but only when the config asks for the very model the index records — a different model that fails to load
 * (or any other error) is rethrown as it is. An index that records no model yet (its first run wrote the text
 * while the model could not load) gets a stand-in for the configured model, with no dimension: it has no vectors.
 */
export function embedderInsteadOf(
  error: unknown,
  config: ResolvedConfig,
  stored: IndexIdentity | null,
): Embedder {
  if (!isLoadFailure(error)) throw error;
  if (!stored) return new UnloadedEmbedder(withFix(error), notLoadedYet(config));
  if (stored.dimension === 0 || embedderIdOf(config) !== stored.model) throw error;
  return new UnloadedEmbedder(withFix(error), stored);
}

/** The identity of a configured model that never loaded for this index: its id, no dimension, no setup. */
function notLoadedYet(config: ResolvedConfig): IndexIdentity {
  return {
    model: embedderIdOf(config) ?? config.model,
    provider: config.embedding.provider,
    dimension: 0,
    contextMode: config.contextual.enabled ? 'static' : 'off',
    modelDir: config.localModelDir,
    setup: null,
  };
}

/**
 * Whether a model that failed to load with `error` may load later by itself (not downloaded yet, the hub or the
 * endpoint unreachable, the runtime not installed): a server then answers by keyword and tries again, where a
 * damaged or mismatching model stops it at start.
 */
export function mayLoadLater(error: unknown): error is GrooveError {
  return error instanceof GrooveError && NOT_YET_LOADABLE.has(error.code);
}

/** The reranker a read session uses when loading the configured one failed with `error` (else rethrown). */
export function rerankerInsteadOf(error: unknown, config: ResolvedConfig): Reranker {
  if (!isLoadFailure(error)) throw error;
  return new UnloadedReranker(withFix(error), `transformers:${config.reranker}`);
}

/** Why a session's model is a stand-in, or null when it loaded (or none is configured). */
export function loadFailureOf(model: Embedder | Reranker | null): GrooveError | null {
  return model instanceof UnloadedEmbedder || model instanceof UnloadedReranker ? model.loadError : null;
}
