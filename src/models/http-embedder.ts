// The `openai-compatible` and `ollama` providers: batches texts to an HTTP endpoint, checks every vector and
// normalises it. A batch refused as too large (413) is split in halves; a single refused text is an error.

import { GrooveError } from '../errors.js';
import type { Embedder, EmbeddingSetup, InputFitTally } from '../types.js';
import { type HttpProvider, WIRE_FORMATS, type WireFormat } from './embedding-wire-formats.js';
import { postJsonWithRetry, redactUrl } from './http-retry.js';
import { countCutAtChars, prepareInputs } from './input-text.js';
import { validateVectors } from './validate-vectors.js';

export interface HttpEmbedderOptions {
  provider: HttpProvider;
  /** Full URL of the embeddings API; Ollama defaults to http://127.0.0.1:11434/api/embed. */
  endpoint?: string | null;
  /** Model name sent to the endpoint. */
  model: string;
  /** Expected vector length. Null: learn it from one probe request at open time. */
  dimension: number | null;
  /** Sent as `Authorization: Bearer …`; never logged or echoed. */
  apiKey?: string | null;
  timeoutSeconds: number;
  maxRetries: number;
  batchSize: number;
  maxInputChars: number;
  /** Optional model-specific markers (e.g. `query: ` / `passage: ` for e5 served by Ollama). */
  queryPrefix?: string;
  passagePrefix?: string;
  /** First backoff step. Default 1000 ms (tests shorten it). */
  retryBaseMs?: number;
}

/** The text the probe embeds; also used to learn an endpoint's dimension. */
export const PROBE_TEXT = 'groove endpoint probe';

interface ResolvedHttpSettings extends HttpEmbedderOptions {
  endpoint: string;
  format: WireFormat;
}

/** Send one request and return raw (unchecked) vectors, or 'rejected' with the status. */
async function requestVectors(
  settings: ResolvedHttpSettings,
  inputs: string[],
): Promise<ArrayLike<unknown>[] | { rejected: number }> {
  const headers: Record<string, string> = settings.apiKey
    ? { authorization: `Bearer ${settings.apiKey}` }
    : {};
  const result = await postJsonWithRetry({
    url: settings.endpoint,
    body: settings.format.buildBody(settings.model, inputs),
    headers,
    timeoutMs: settings.timeoutSeconds * 1000,
    maxRetries: settings.maxRetries,
    ...(settings.retryBaseMs === undefined ? {} : { baseDelayMs: settings.retryBaseMs }),
  });
  if (result.kind === 'rejected') return { rejected: result.status };
  return settings.format.readVectors(result.json, inputs.length, redactUrl(settings.endpoint));
}

export class HttpEmbedder implements Embedder {
  readonly id: string;
  readonly provider: string;
  readonly dimension: number;
  readonly setup: EmbeddingSetup;
  // A #private field: util.inspect / console.log of the embedder never shows the API key.
  readonly #settings: ResolvedHttpSettings;

  constructor(settings: ResolvedHttpSettings, dimension: number) {
    this.#settings = settings;
    this.provider = settings.provider;
    this.dimension = dimension;
    this.id = `${settings.provider}:${settings.model}`;
    this.setup = {
      pooling: null,
      queryPrefix: settings.queryPrefix ?? '',
      passagePrefix: settings.passagePrefix ?? '',
      source: 'the endpoint pools; prefixes from [embedding]',
    };
  }

  /** The endpoint's own token limit is not known here: only the character cap is counted, as over and cut. */
  async embedDocuments(texts: string[], fit?: InputFitTally): Promise<Float32Array[]> {
    if (fit) {
      const cut = countCutAtChars(texts, this.#settings.maxInputChars);
      fit.overLimit += cut;
      fit.truncated += cut;
    }
    const inputs = prepareInputs(texts, this.#settings.passagePrefix ?? '', this.#settings.maxInputChars);
    const out: Float32Array[] = [];
    for (let start = 0; start < inputs.length; start += this.#settings.batchSize) {
      out.push(...(await this.embedBatch(inputs.slice(start, start + this.#settings.batchSize))));
    }
    return out;
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const inputs = prepareInputs([text], this.#settings.queryPrefix ?? '', this.#settings.maxInputChars);
    const [vector] = await this.embedBatch(inputs);
    return vector as Float32Array;
  }

  async close(): Promise<void> {}

  private async embedBatch(inputs: string[]): Promise<Float32Array[]> {
    const raw = await requestVectors(this.#settings, inputs);
    if ('rejected' in raw) {
      if (raw.rejected === 413 && inputs.length > 1) {
        const half = Math.ceil(inputs.length / 2);
        return [
          ...(await this.embedBatch(inputs.slice(0, half))),
          ...(await this.embedBatch(inputs.slice(half))),
        ];
      }
      throw new GrooveError(
        'EMBEDDING_FAILED',
        `Embedding endpoint "${redactUrl(this.#settings.endpoint)}" refused ${
          inputs.length === 1 ? 'a text' : `a batch of ${inputs.length} texts`
        } with HTTP ${raw.rejected}.`,
        {
          hint: 'the input is skipped; lower [embedding] max_input_chars if texts are too long for the model',
        },
      );
    }
    return validateVectors(raw, {
      expectedCount: inputs.length,
      dimension: this.dimension,
      source: `Embedding endpoint "${redactUrl(this.#settings.endpoint)}"`,
      code: 'ENDPOINT_FAILED',
    });
  }
}

function resolveEndpoint(options: HttpEmbedderOptions, format: WireFormat): string {
  const endpoint = options.endpoint || format.defaultEndpoint;
  if (!endpoint) {
    throw new GrooveError('CONFIG_INVALID', `The ${options.provider} provider needs [embedding] endpoint.`, {
      hint: 'set [embedding] endpoint = "http://host:port/v1/embeddings"',
    });
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new GrooveError('CONFIG_INVALID', `[embedding] endpoint "${redactUrl(endpoint)}" is not a URL.`, {
      hint: 'use a full http:// or https:// URL',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GrooveError(
      'CONFIG_INVALID',
      `[embedding] endpoint must be http or https, got "${url.protocol}".`,
    );
  }
  return endpoint;
}

/** Build an HTTP embedder; when `dimension` is null, one probe request learns it. */
export async function openHttpEmbedder(options: HttpEmbedderOptions): Promise<HttpEmbedder> {
  const format = WIRE_FORMATS[options.provider];
  if (!options.model) {
    throw new GrooveError('CONFIG_INVALID', `The ${options.provider} provider needs [embedding] model.`, {
      hint: 'set [embedding] model to the model name the server knows',
    });
  }
  const settings: ResolvedHttpSettings = { ...options, endpoint: resolveEndpoint(options, format), format };
  if (options.dimension !== null) return new HttpEmbedder(settings, options.dimension);
  const raw = await requestVectors(settings, [PROBE_TEXT]);
  const first = 'rejected' in raw ? undefined : raw[0];
  if (!first || first.length === 0) {
    throw new GrooveError(
      'ENDPOINT_FAILED',
      `Could not learn the vector dimension from "${redactUrl(settings.endpoint)}".`,
      { hint: 'set [embedding] dimension explicitly' },
    );
  }
  const embedder = new HttpEmbedder(settings, first.length);
  // Validate the probe vector with the learned dimension (finite, non-zero).
  validateVectors([first], {
    expectedCount: 1,
    dimension: first.length,
    source: `Embedding endpoint "${redactUrl(settings.endpoint)}"`,
    code: 'ENDPOINT_FAILED',
  });
  return embedder;
}
