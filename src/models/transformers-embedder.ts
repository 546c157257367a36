// The `transformers` embedding provider: local ONNX inference through transformers.js + onnxruntime-node.
// Texts are tokenized, cut into windows when longer than the model's token limit, batched by similar length,
// run, pooled, checked, and each text's windows averaged into its one unit vector.

import { GrooveError } from '../errors.js';
import type { Embedder, EmbeddingSetup, InputFitTally, Pooling } from '../types.js';
import { NOTHING_GIVEN, resolveFolderSetup, type SetupRequest } from './folder-setup.js';
import type { HubSettings } from './hub-settings.js';
import { prepareInputs } from './input-text.js';
import { inspectModelFolder } from './model-folder.js';
import type { ModelProgressListener } from './model-progress.js';
import { ensureModelFolder } from './model-pull.js';
import { findEmbeddingModel } from './model-registry.js';
import { poolHiddenStates } from './pool-hidden-states.js';
import { type PaddedBatch, runInTokenBatches, type TokenizedText } from './token-batches.js';
import { averageUnitVectors, frameOf, windowTokens } from './token-windows.js';
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
  private readonly prefixIds = new Map<string, number[]>();

  constructor(loaded: LoadedModel, settings: TransformersEmbedderSettings) {
    this.loaded = loaded;
    this.settings = settings;
    this.id = `transformers:${settings.model}`;
    this.dimension = settings.dimension;
    this.setup = settings.setup;
  }

  async embedDocuments(texts: string[], fit?: InputFitTally): Promise<Float32Array[]> {
    const { maxInputChars } = this.settings;
    const { passagePrefix } = this.settings.setup;
    const { vectors, overTokens } = await this.embedAll(
      prepareInputs(texts, passagePrefix, maxInputChars),
      passagePrefix,
    );
    if (fit) {
      // An input cut at the character cap is over the limit whatever its token count; it counts once.
      const capped = texts.map((t) => t.length > maxInputChars);
      fit.overLimit += overTokens.filter((over, i) => over || capped[i]).length;
      fit.truncated += capped.filter(Boolean).length;
    }
    return vectors;
  }

  async passagesOverLimit(texts: string[]): Promise<boolean[]> {
    const { maxInputChars, maxTokens } = this.settings;
    const { passagePrefix } = this.settings.setup;
    if (texts.length === 0) return [];
    const inputs = prepareInputs(texts, passagePrefix, maxInputChars);
    const tokenized = this.guard(inputs.length, () => this.loaded.encode(inputs));
    return tokenized.map(
      (t, i) => t.inputIds.length > maxTokens || (texts[i] as string).length > maxInputChars,
    );
  }

  async countTokens(texts: string[]): Promise<number[]> {
    if (texts.length === 0) return [];
    const [empty, ...tokenized] = this.guard(texts.length + 1, () => this.loaded.encode(['', ...texts]));
    // The special tokens an empty text still encodes to are the model's frame, not the text.
    const frame = empty!.inputIds.length;
    return tokenized.map((t) => Math.max(0, t.inputIds.length - frame));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const { maxInputChars } = this.settings;
    const { queryPrefix } = this.settings.setup;
    const { vectors } = await this.embedAll(prepareInputs([text], queryPrefix, maxInputChars), queryPrefix);
    return vectors[0] as Float32Array;
  }

  async close(): Promise<void> {
    await this.loaded.dispose();
  }

  /**
   * Stages: tokenize all → cut inputs over maxTokens into windows → plan batches of windows by token length →
   * per batch pad, run, pool, check → average each input's windows. `overTokens[i]`: input i had more tokens
   * than the model reads in one pass.
   */
  private async embedAll(
    inputs: string[],
    prefix: string,
  ): Promise<{ vectors: Float32Array[]; overTokens: boolean[] }> {
    if (inputs.length === 0) return { vectors: [], overTokens: [] };
    const { maxTokens } = this.settings;
    const tokenized = this.guard(inputs.length, () => this.loaded.encode(inputs));
    const prefixAlone = this.prefixTokens(prefix);
    const windows: TokenizedText[] = [];
    const owners: number[] = [];
    for (const [owner, text] of tokenized.entries()) {
      for (const window of windowTokens(text, frameOf(text.inputIds, prefixAlone), maxTokens)) {
        windows.push(window);
        owners.push(owner);
      }
    }
    const windowVectors = await this.embedWindows(windows);
    const grouped = inputs.map((): Float32Array[] => []);
    windowVectors.forEach((vector, k) => {
      grouped[owners[k] as number]?.push(vector);
    });
    return {
      vectors: grouped.map((group) => averageUnitVectors(group)),
      overTokens: tokenized.map((t) => t.inputIds.length > maxTokens),
    };
  }

  /** One unit vector per window, in order; batches hold at most batchSize windows and maxBatchTokens tokens. */
  private embedWindows(windows: TokenizedText[]): Promise<Float32Array[]> {
    const { batchSize, maxBatchTokens } = this.settings;
    return runInTokenBatches(
      windows,
      { maxItems: batchSize, maxTokens: maxBatchTokens, padId: this.loaded.padTokenId },
      (batch) => this.embedBatch(batch),
    );
  }

  /** The model's prefix alone as the tokenizer frames it (special tokens around it), once per prefix. */
  private prefixTokens(prefix: string): number[] {
    let ids = this.prefixIds.get(prefix);
    if (!ids) {
      ids = this.guard(1, () => this.loaded.encode([prefix]))[0]?.inputIds ?? [];
      this.prefixIds.set(prefix, ids);
    }
    return ids;
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
