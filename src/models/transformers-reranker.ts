// The local cross-encoder reranker: scores (query, passage) pairs with a sequence-classification ONNX model.
// Scores are the sigmoid of the relevance logit, so they fall in 0–1 and higher is more relevant.

import { GrooveError } from '../errors.js';
import type { Reranker } from '../types.js';
import type { HubSettings } from './hub-settings.js';
import { truncateToChars } from './input-text.js';
import { inspectModelFolder } from './model-folder.js';
import type { ModelProgressListener } from './model-progress.js';
import { ensureModelFolder } from './model-pull.js';
import { findRerankerModel } from './model-registry.js';
import { type PaddedBatch, runInTokenBatches, type TokenizedText, truncateTokens } from './token-batches.js';
import { type LoadedModel, loadModelFolder, summarizeError } from './transformers-runtime.js';

export interface TransformersRerankerSettings {
  /** Registry id, or the absolute folder for a local model. */
  model: string;
  maxTokens: number;
  batchSize: number;
  /** Padded tokens per inference batch (pairs × longest pair); bounds attention memory for long pairs. */
  maxBatchTokens: number;
  maxInputChars: number;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export class TransformersReranker implements Reranker {
  readonly id: string;
  private readonly loaded: LoadedModel;
  private readonly settings: TransformersRerankerSettings;

  constructor(loaded: LoadedModel, settings: TransformersRerankerSettings) {
    this.loaded = loaded;
    this.settings = settings;
    this.id = `transformers:${settings.model}`;
  }

  /** Stages: tokenize the pairs → truncate each to maxTokens → batch by length under both budgets → score. */
  async score(query: string, passages: string[]): Promise<number[]> {
    const { batchSize, maxBatchTokens, maxInputChars, maxTokens } = this.settings;
    if (passages.length === 0) return [];
    const trimmedQuery = truncateToChars(query, maxInputChars);
    let pairs: TokenizedText[];
    try {
      pairs = this.loaded.encode(
        passages.map(() => trimmedQuery),
        passages.map((p) => truncateToChars(p, maxInputChars)),
      );
    } catch (error) {
      throw this.failure(passages.length, error);
    }
    const rows = pairs.map((pair) => truncateTokens(pair, maxTokens));
    return runInTokenBatches(
      rows,
      { maxItems: batchSize, maxTokens: maxBatchTokens, padId: this.loaded.padTokenId },
      (batch) => this.scoreBatch(batch),
    );
  }

  async close(): Promise<void> {
    await this.loaded.dispose();
  }

  private failure(count: number, error: unknown): GrooveError {
    return new GrooveError(
      'RERANK_FAILED',
      `Reranker "${this.settings.model}" failed on ${count} passages: ${summarizeError(error)}.`,
      { cause: error },
    );
  }

  private async scoreBatch(batch: PaddedBatch): Promise<number[]> {
    const count = batch.dims[0];
    let logits: ArrayLike<number>;
    let dims: number[];
    try {
      const tensor = (await this.loaded.run(batch)).logits;
      if (!tensor) throw new Error('the model has no "logits" output');
      logits = tensor.data as ArrayLike<number>;
      dims = tensor.dims;
    } catch (error) {
      throw this.failure(count, error);
    }
    // Single-logit heads (bge rerankers) give [B, 1]; two-class heads give [B, 2] — use the "relevant" column.
    const width = dims[1] ?? 1;
    const scores: number[] = [];
    for (let i = 0; i < count; i++) {
      const logit = logits[i * width + (width - 1)] as number;
      if (!Number.isFinite(logit)) {
        throw new GrooveError(
          'RERANK_FAILED',
          `Reranker "${this.settings.model}" returned a non-finite score.`,
        );
      }
      scores.push(sigmoid(logit));
    }
    return scores;
  }
}

export interface OpenTransformersRerankerOptions {
  /** Registry id or alias; ignored when `modelDir` is set. */
  model: string;
  modelDir?: string | null;
  cacheDir: string;
  offline: boolean;
  hubEndpoint?: string | null;
  hub?: HubSettings;
  batchSize: number;
  /** Padded tokens per inference batch. */
  maxBatchTokens: number;
  maxInputChars: number;
  threads: number;
  progress?: ModelProgressListener;
}

export async function openTransformersReranker(options: OpenTransformersRerankerOptions): Promise<Reranker> {
  const common = {
    batchSize: options.batchSize,
    maxBatchTokens: options.maxBatchTokens,
    maxInputChars: options.maxInputChars,
  };
  if (options.modelDir) {
    const info = inspectModelFolder(options.modelDir);
    const loaded = await loadModelFolder({
      folder: info.folder,
      task: 'reranker',
      dtype: info.dtype,
      threads: options.threads,
      externalData: info.externalData,
    });
    return new TransformersReranker(loaded, { ...common, model: info.folder, maxTokens: info.maxTokens });
  }
  const spec = findRerankerModel(options.model);
  const { folder } = await ensureModelFolder({
    spec,
    cacheDir: options.cacheDir,
    offline: options.offline,
    hubEndpoint: options.hubEndpoint ?? null,
    ...(options.hub ? { hub: options.hub } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  });
  const info = inspectModelFolder(folder, spec.dtype, spec.id);
  const loaded = await loadModelFolder({
    folder,
    task: 'reranker',
    dtype: spec.dtype,
    threads: options.threads,
    externalData: info.externalData,
    modelId: spec.id,
  });
  return new TransformersReranker(loaded, { ...common, model: spec.id, maxTokens: spec.maxTokens });
}
