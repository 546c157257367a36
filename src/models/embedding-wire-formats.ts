// Request and response shapes of the two HTTP embedding APIs: OpenAI-compatible `POST /v1/embeddings`
// (`{data:[{embedding,index}]}`) and Ollama `POST /api/embed` (`{embeddings:[[…]]}`).

import { GrooveError } from '../errors.js';

export type HttpProvider = 'openai-compatible' | 'ollama';

export interface WireFormat {
  provider: HttpProvider;
  /** Used when `[embedding] endpoint` is not set; null means the endpoint is required. */
  defaultEndpoint: string | null;
  buildBody(model: string, inputs: string[]): unknown;
  /** Raw vectors in input order; throws ENDPOINT_FAILED when the shape is wrong. */
  readVectors(json: unknown, expectedCount: number, where: string): ArrayLike<unknown>[];
}

function badShape(where: string, problem: string): GrooveError {
  return new GrooveError(
    'ENDPOINT_FAILED',
    `Embedding endpoint "${where}" sent an unexpected response: ${problem}.`,
    {
      hint: 'check that [embedding] provider matches the server (openai-compatible or ollama)',
    },
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function readOpenAiVectors(json: unknown, expectedCount: number, where: string): ArrayLike<unknown>[] {
  if (!isRecord(json) || !Array.isArray(json.data)) throw badShape(where, 'no "data" array');
  const items = json.data as unknown[];
  if (items.length !== expectedCount) {
    throw badShape(where, `expected ${expectedCount} embeddings, got ${items.length}`);
  }
  const ordered = new Array<ArrayLike<unknown> | undefined>(expectedCount);
  items.forEach((item, position) => {
    if (!isRecord(item) || !Array.isArray(item.embedding)) {
      throw badShape(where, `data[${position}] has no "embedding" array`);
    }
    // OpenAI documents `index`; a server that omits it everywhere is taken to answer in order.
    const index = item.index === undefined ? position : item.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= expectedCount) {
      throw badShape(
        where,
        `data[${position}] has index ${JSON.stringify(index)}, outside 0..${expectedCount - 1}`,
      );
    }
    if (ordered[index] !== undefined) throw badShape(where, `index ${index} appears twice`);
    ordered[index] = item.embedding as unknown[];
  });
  return ordered as ArrayLike<unknown>[];
}

function readOllamaVectors(json: unknown, expectedCount: number, where: string): ArrayLike<unknown>[] {
  if (!isRecord(json) || !Array.isArray(json.embeddings)) throw badShape(where, 'no "embeddings" array');
  const vectors = json.embeddings as unknown[];
  if (vectors.length !== expectedCount) {
    throw badShape(where, `expected ${expectedCount} embeddings, got ${vectors.length}`);
  }
  return vectors.map((v, i) => {
    if (!Array.isArray(v)) throw badShape(where, `embeddings[${i}] is not an array`);
    return v;
  });
}

export const WIRE_FORMATS: Record<HttpProvider, WireFormat> = {
  'openai-compatible': {
    provider: 'openai-compatible',
    defaultEndpoint: null,
    buildBody: (model, inputs) => ({ model, input: inputs }),
    readVectors: readOpenAiVectors,
  },
  ollama: {
    provider: 'ollama',
    defaultEndpoint: 'http://127.0.0.1:11434/api/embed',
    // truncate:true lets Ollama cut inputs at the model's context instead of failing the whole batch.
    buildBody: (model, inputs) => ({ model, input: inputs, truncate: true }),
    readVectors: readOllamaVectors,
  },
};
