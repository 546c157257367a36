// The `transformers` embedding provider: local ONNX inference through transformers.js + onnxruntime-node.
// Texts are batched by similar length, tokenized, run, pooled, and returned as checked unit vectors.

import { GrooveError } from '../errors.js';
import type { Embedder, EmbeddingSetup, Pooling } from '../types.js';
import { NOTHING_GIVEN, resolveFolderSetup, type SetupRequest } from './folder-setup.js';
import type { HubSettings } from './hub-settings.js';
import { prepareInputs } from './input-text.js';
import { inspectModelFolder } from './model-folder.js';
import type { ModelProgressListener } from './model-progress.js';
import { ensureModelFolder } from './model-pull.js';
import { findEmbeddingModel } from './model-registry.js';
import { poolHiddenStates } from './pool-hidden-states.js';
import {
  type PaddedBatch,
  padTokenBatch,
  planTokenBatches,
  type TokenizedText,
  truncateTokens,
} from './token-batches.js';
import {
  type LoadedModel,
  loadModelFolder,
  summarizeError,
  type TensorLike,
} from './transformers-runtime.js';
import { validateVectors } from './validate-vectors.js';

export interface TransformersEmbedderSettings {
  /** The model identity recorded in the index: registry id, or the absolute folder for a local model. */
  model: string;
  dimension: number;
  setup: EmbeddingSetup & { pooling: Pooling };
  maxTokens: number;
  batchSize: number;
  /** Padded tokens per inference batch; bounds attention memory for long inputs. */
  maxBatchTokens: number;
  maxInputChars: number;
}

export class TransformersEmbedder implements Embedder {
  readonly provider = 'transformers';
  readonly id: string;
  readonly dimension: number;
  readonly setup: EmbeddingSetup;
  private readonly settings: TransformersEmbedderSettings;
  private readonly loaded: LoadedModel;

  constructor(loaded: LoadedModel, settings: TransformersEmbedderSettings) {
    this.loaded = loaded;
    this.settings = settings;
    this.id = `transformers:${settings.model}`;
    this.dimension = settings.dimension;
    this.setup = settings.setup;
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return this.embedAll(
      prepareInputs(texts, this.settings.setup.passagePrefix, this.settings.maxInputChars),
    );
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await this.embedAll(
      prepareInputs([text], this.settings.setup.queryPrefix, this.settings.maxInputChars),
    );
    return vector as Float32Array;
  }

  async close(): Promise<void> {
    await this.loaded.dispose();
  }

  /** Stages: tokenize all → truncate → plan batches by token length → per batch pad, run, pool, check. */
  private async embedAll(inputs: string[]): Promise<Float32Array[]> {
    if (inputs.length === 0) return [];
    const tokenized = this.guard(inputs.length, () => this.loaded.encode(inputs)).map((t) =>
      truncateTokens(t, this.settings.maxTokens),
    );
    const plan = planTokenBatches(
      tokenized.map((t) => t.inputIds.length),
      { maxItems: this.settings.batchSize, maxTokens: this.settings.maxBatchTokens },
    );
    const result = new Array<Float32Array>(inputs.length);
    for (const batch of plan) {
      const padded = padTokenBatch(
        batch.map((i) => tokenized[i] as TokenizedText),
        this.loaded.padTokenId,
      );
      const vectors = await this.embedBatch(padded);
      batch.forEach((original, k) => {
        result[original] = vectors[k] as Float32Array;
      });
    }
    return result;
  }

  private guard<T>(count: number, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw new GrooveError(
        'EMBEDDING_FAILED',
        `Model "${this.settings.model}" failed to embed ${count} texts: ${summarizeError(error)}.`,
        { cause: error },
      );
    }
  }

  private async embedBatch(batch: PaddedBatch): Promise<Float32Array[]> {
    let output: Record<string, TensorLike>;
    try {
      output = await this.loaded.run(batch);
    } catch (error) {
      throw new GrooveError(
        'EMBEDDING_FAILED',
        `Model "${this.settings.model}" failed on a batch of ${batch.dims[0]} texts: ${summarizeError(error)}.`,
        { cause: error },
      );
    }
    const hidden = output.last_hidden_state ?? Object.values(output)[0];
    if (hidden?.dims.length !== 3) {
      throw new GrooveError(
        'EMBEDDING_FAILED',
        `Model "${this.settings.model}" returned no [batch, tokens, hidden] output; is it a feature-extraction model?`,
      );
    }
    const pooled = poolHiddenStates({
      hidden: hidden.data as ArrayLike<number>,
      dims: hidden.dims,
      attentionMask: batch.attentionMask,
      pooling: this.settings.setup.pooling,
    });
    return validateVectors(pooled, {
      expectedCount: batch.dims[0],
      dimension: this.dimension,
      source: `model "${this.settings.model}"`,
      code: 'EMBEDDING_FAILED',
    });
  }
}

export interface OpenTransformersEmbedderOptions {
  /** Registry id or alias; ignored when `modelDir` is set. */
  model: string;
  /** A local transformers.js model folder; read as is, never downloaded. */
  modelDir?: string | null;
  /** `modelDir` only: the setup given and the one the followed index records (see folder-setup.ts). */
  setup?: SetupRequest;
  cacheDir: string;
  offline: boolean;
  hubEndpoint?: string | null;
  /** Token, proxies, the Hugging Face cache and pins for the download (hub-settings.ts). */
  hub?: HubSettings;
  batchSize: number;
  /** Padded tokens per inference batch. */
  maxBatchTokens: number;
  maxInputChars: number;
  /** onnxruntime intra-op threads. */
  threads: number;
  progress?: ModelProgressListener;
}

/** Resolve the model (registry + cache, or local folder), load it, and wrap it as an Embedder. */
export async function openTransformersEmbedder(options: OpenTransformersEmbedderOptions): Promise<Embedder> {
  const common = {
    batchSize: options.batchSize,
    maxBatchTokens: options.maxBatchTokens,
    maxInputChars: options.maxInputChars,
  };
  if (options.modelDir) {
    const info = inspectModelFolder(options.modelDir);
    const { setup, maxTokens } = resolveFolderSetup(
      { ...info, tokenizerMaxTokens: info.maxTokens },
      options.setup ?? { given: NOTHING_GIVEN, recorded: null },
    );
    const loaded = await loadModelFolder({
      folder: info.folder,
      task: 'embedding',
      dtype: info.dtype,
      threads: options.threads,
      externalData: info.externalData,
    });
    return new TransformersEmbedder(loaded, {
      ...common,
      model: info.folder,
      dimension: info.dimension,
      setup,
      maxTokens,
    });
  }
  const spec = findEmbeddingModel(options.model);
  const { folder } = await ensureModelFolder({
    spec,
    cacheDir: options.cacheDir,
    offline: options.offline,
    hubEndpoint: options.hubEndpoint ?? null,
    ...(options.hub ? { hub: options.hub } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  });
  const info = inspectModelFolder(folder, spec.dtype, spec.id);
  if (info.dimension !== spec.dimension) {
    throw new GrooveError(
      'MODEL_CORRUPT',
      `Model folder "${folder}" does not hold "${spec.id}": its config.json says hidden_size ${info.dimension}, ` +
        `but "${spec.id}" has ${spec.dimension} dimensions.`,
      { hint: `delete "${folder}" and run groove models pull ${spec.id}` },
    );
  }
  const loaded = await loadModelFolder({
    folder,
    task: 'embedding',
    dtype: spec.dtype,
    threads: options.threads,
    externalData: info.externalData,
    modelId: spec.id,
  });
  return new TransformersEmbedder(loaded, {
    ...common,
    model: spec.id,
    dimension: spec.dimension,
    setup: {
      pooling: spec.pooling,
      queryPrefix: spec.queryPrefix,
      passagePrefix: spec.passagePrefix,
      source: `registered model ${spec.id}`,
    },
    maxTokens: spec.maxTokens,
  });
}
