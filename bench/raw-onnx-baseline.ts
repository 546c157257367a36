// The raw onnxruntime baseline the embedding benchmarks compare groove against: the same token batches groove
// plans (an input over the limit as its windows, longest first, ≤ batch items, ≤ the padded-token budget),
// tokenised and padded before any clock starts, so a timed run is session.run alone.
import path from 'node:path';
import { DEFAULT_MAX_BATCH_TOKENS } from '../src/models/create-embedder.js';
import { padTokenBatch, planTokenBatches } from '../src/models/token-batches.js';
import { frameOf, windowTokens } from '../src/models/token-windows.js';

export const MAX_TOKENS = 512;

export interface RawBaseline {
  /** Run every planned batch once. */
  run(): Promise<void>;
  /** Run the longest batch once (allocator and thread-pool warm-up). */
  warmUp(): Promise<void>;
  release(): Promise<void>;
  inputs: number;
  tokens: number;
  paddedTokens: number;
  batches: number;
}

export interface RawBaselineOptions {
  modelDir: string;
  onnxFile: string;
  texts: string[];
  batchSize: number;
  threads: number;
}

export async function prepareRawBaseline(options: RawBaselineOptions): Promise<RawBaseline> {
  const ort = await import('onnxruntime-node');
  const { AutoTokenizer, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  const tokenizer = await AutoTokenizer.from_pretrained(options.modelDir, { local_files_only: true });
  const encode = (texts: string[]) =>
    (
      tokenizer(texts, { padding: false, truncation: false, return_tensor: false }) as unknown as {
        input_ids: number[][];
      }
    ).input_ids;
  const [empty] = encode(['']);
  const rows = encode(options.texts).flatMap((ids) =>
    windowTokens({ inputIds: ids, tokenTypeIds: null }, frameOf(ids, empty ?? []), MAX_TOKENS),
  );
  const plan = planTokenBatches(
    rows.map((r) => r.inputIds.length),
    { maxItems: options.batchSize, maxTokens: DEFAULT_MAX_BATCH_TOKENS },
  );
  const padId = tokenizer.pad_token_id ?? 0;
  const session = await ort.InferenceSession.create(path.join(options.modelDir, options.onnxFile), {
    intraOpNumThreads: options.threads,
    interOpNumThreads: 1,
  });
  // XLM-R graphs take no token_type_ids; BERT graphs get zeros, as the library feeds them.
  const withTypes = session.inputNames.includes('token_type_ids');
  const feeds = plan.map((batch) => {
    const padded = padTokenBatch(
      batch.map((i) => rows[i]!),
      padId,
    );
    const types = new ort.Tensor('int64', new BigInt64Array(padded.inputIds.length), padded.dims);
    return {
      input_ids: new ort.Tensor('int64', padded.inputIds, padded.dims),
      attention_mask: new ort.Tensor('int64', padded.attentionMask, padded.dims),
      ...(withTypes ? { token_type_ids: types } : {}),
    };
  });
  return {
    async run() {
      for (const feed of feeds) await session.run(feed);
    },
    async warmUp() {
      if (feeds.length > 0) await session.run(feeds[feeds.length - 1]!);
    },
    release: () => session.release(),
    inputs: rows.length,
    tokens: rows.reduce((n, r) => n + r.inputIds.length, 0),
    paddedTokens: feeds.reduce((n, f) => n + f.input_ids.data.length, 0),
    batches: plan.length,
  };
}
