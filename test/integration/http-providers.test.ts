// The openai-compatible and ollama providers against a real loopback HTTP server that misbehaves on cue:
// bad counts, indexes, dimensions, NaN/Infinity, zero vectors, garbage, 413, 429, 5xx, timeouts and 401.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import util from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import { type CreateEmbedderOptions, createEmbedder } from '../../src/models/create-embedder.js';
import type { Embedder } from '../../src/types.js';

const DIM = 4;
const API_KEY = 'sk-test-SECRET-123456';

interface Recorded {
  path: string;
  body: { model?: string; input?: string[] };
  authorization: string | undefined;
}
interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON value, or a raw string sent as is. */
  body?: unknown;
  raw?: string;
  delayMs?: number;
}
type Responder = (req: Recorded) => Reply;

let server: http.Server;
let base: string;
let requests: Recorded[];
let script: Responder[];

/** A deterministic, non-zero vector per text so order can be checked after normalisation. */
function vectorFor(text: string): number[] {
  return [text.length, 1, text.charCodeAt(0) || 0, 2];
}
const openAiReply: Responder = (req) => ({
  body: {
    data: (req.body.input ?? []).map((t, index) => ({ object: 'embedding', index, embedding: vectorFor(t) })),
  },
});
const ollamaReply: Responder = (req) => ({ body: { embeddings: (req.body.input ?? []).map(vectorFor) } });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => {
      const recorded: Recorded = {
        path: req.url ?? '',
        body: JSON.parse(data || '{}'),
        authorization: req.headers.authorization,
      };
      requests.push(recorded);
      const fallback = recorded.path.startsWith('/api/embed') ? ollamaReply : openAiReply;
      const reply = (script.shift() ?? fallback)(recorded);
      const send = () => {
        if (res.destroyed) return;
        const text = reply.raw ?? JSON.stringify(reply.body ?? {});
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(text);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
  script = [];
});

function options(overrides: Partial<CreateEmbedderOptions> = {}): CreateEmbedderOptions {
  return {
    provider: 'openai-compatible',
    model: 'test-embed',
    endpoint: `${base}/v1/embeddings`,
    apiKey: API_KEY,
    dimension: DIM,
    cacheDir: '/nonexistent',
    offline: false,
    timeoutSeconds: 5,
    maxRetries: 3,
    batchSize: 3,
    maxInputChars: 8000,
    retryBaseMs: 5,
    ...overrides,
  };
}

async function open(overrides: Partial<CreateEmbedderOptions> = {}): Promise<Embedder> {
  return (await createEmbedder(options(overrides))) as Embedder;
}

async function catchError(work: () => Promise<unknown>): Promise<GrooveError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected a GrooveError');
}

function expectUnit(v: Float32Array): void {
  expect(Math.hypot(...v)).toBeCloseTo(1, 5);
}

describe('openai-compatible provider', () => {
  it('batches, authenticates, restores order by index and normalises', async () => {
    const embedder = await open();
    const texts = ['alpha', 'be', 'gamma ray', 'd', 'epsilon', 'zeta', 'eta'];
    // First batch answered in reverse order: the index field, not the position, decides.
    script.push((req) => {
      const reply = openAiReply(req).body as { data: unknown[] };
      return { body: { data: [...reply.data].reverse() } };
    });
    const vectors = await embedder.embedDocuments(texts);
    expect(requests.map((r) => r.body.input?.length)).toEqual([3, 3, 1]);
    expect(requests.every((r) => r.authorization === `Bearer ${API_KEY}`)).toBe(true);
    expect(requests[0]?.body.model).toBe('test-embed');
    for (const [i, text] of texts.entries()) {
      const v = vectors[i] as Float32Array;
      expectUnit(v);
      const raw = vectorFor(text);
      expect(v[0]! / v[1]!).toBeCloseTo(raw[0]! / raw[1]!, 4);
    }
    expect({ id: embedder.id, provider: embedder.provider, dimension: embedder.dimension }).toEqual({
      id: 'openai-compatible:test-embed',
      provider: 'openai-compatible',
      dimension: DIM,
    });
  });

  it('applies query and passage prefixes and truncates long inputs', async () => {
    const embedder = await open({ queryPrefix: 'query: ', passagePrefix: 'passage: ', maxInputChars: 5 });
    await embedder.embedQuery('hello world');
    await embedder.embedDocuments(['abcdefgh']);
    expect(requests.map((r) => r.body.input?.[0])).toEqual(['query: hello', 'passage: abcde']);
  });

  const broken: Array<[string, Responder, RegExp]> = [
    [
      'a wrong count',
      () => ({ body: { data: [{ index: 0, embedding: [1, 2, 3, 4] }] } }),
      /expected 3 embeddings, got 1/,
    ],
    [
      'a duplicate index',
      (req) => ({
        body: { data: (req.body.input ?? []).map(() => ({ index: 0, embedding: [1, 2, 3, 4] })) },
      }),
      /index 0 appears twice/,
    ],
    [
      'an index out of range',
      (req) => ({
        body: { data: (req.body.input ?? []).map((_, i) => ({ index: i + 5, embedding: [1, 2, 3, 4] })) },
      }),
      /outside 0\.\.2/,
    ],
    [
      'a wrong dimension',
      (req) => ({
        body: { data: (req.body.input ?? []).map((_, index) => ({ index, embedding: [1, 2, 3] })) },
      }),
      /3 dimensions, expected 4/,
    ],
    [
      'a null (NaN) value',
      (req) => ({
        body: { data: (req.body.input ?? []).map((_, index) => ({ index, embedding: [1, null, 3, 4] })) },
      }),
      /non-finite value/,
    ],
    [
      'an infinite value',
      () => ({
        raw: '{"data":[{"index":0,"embedding":[1e999,1,1,1]},{"index":1,"embedding":[1,1,1,1]},{"index":2,"embedding":[1,1,1,1]}]}',
      }),
      /non-finite value/,
    ],
    [
      'a zero vector',
      (req) => ({
        body: { data: (req.body.input ?? []).map((_, index) => ({ index, embedding: [0, 0, 0, 0] })) },
      }),
      /all zeros/,
    ],
    ['garbage JSON', () => ({ raw: '<html>Bad gateway page</html>' }), /not JSON/],
    ['a body without data', () => ({ body: { result: [] } }), /no "data" array/],
  ];
  for (const [name, responder, message] of broken) {
    it(`refuses ${name} without retrying`, async () => {
      const embedder = await open();
      script.push(responder);
      const error = await catchError(() => embedder.embedDocuments(['one', 'two', 'three']));
      expect(error.code).toBe('ENDPOINT_FAILED');
      expect(error.message).toMatch(message);
      expect(requests).toHaveLength(1);
    });
  }

  it('splits a batch refused with 413 and fails a single refused text as EMBEDDING_FAILED', async () => {
    const embedder = await open({ batchSize: 4 });
    const tooBig: Responder = (req) =>
      (req.body.input?.length ?? 0) > 1 ? { status: 413 } : openAiReply(req);
    script.push(...Array.from({ length: 7 }, () => tooBig));
    const vectors = await embedder.embedDocuments(['a', 'b', 'c', 'd']);
    expect(vectors).toHaveLength(4);
    expect(requests.map((r) => r.body.input?.length)).toEqual([4, 2, 1, 1, 2, 1, 1]);
    requests = [];
    script.push(() => ({ status: 413 }));
    const error = await catchError(() => embedder.embedDocuments(['only one']));
    expect(error.code).toBe('EMBEDDING_FAILED');
    expect(error.message).toContain('HTTP 413');
    expect(requests).toHaveLength(1);
  });

  it('waits for Retry-After on 429, then succeeds', async () => {
    const embedder = await open();
    script.push(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    const started = Date.now();
    const vectors = await embedder.embedDocuments(['x']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(vectors).toHaveLength(1);
    expect(requests).toHaveLength(2);
  });

  it('retries a 500 with backoff, then succeeds', async () => {
    const embedder = await open();
    script.push(
      () => ({ status: 500 }),
      () => ({ status: 503 }),
    );
    const vectors = await embedder.embedDocuments(['x', 'y']);
    expect(vectors).toHaveLength(2);
    expect(requests).toHaveLength(3);
  });

  it('gives up after max_retries with ENDPOINT_FAILED', async () => {
    const embedder = await open({ maxRetries: 2 });
    script.push(...Array.from({ length: 3 }, () => () => ({ status: 502 })));
    const error = await catchError(() => embedder.embedDocuments(['x']));
    expect(error.code).toBe('ENDPOINT_FAILED');
    expect(error.message).toMatch(/failed after 3 attempts \(last: HTTP 502\)/);
    expect(requests).toHaveLength(3);
  });

  it('retries a timeout, then succeeds; keeps failing timeouts as ENDPOINT_FAILED', async () => {
    const embedder = await open({ timeoutSeconds: 0.2, maxRetries: 1 });
    script.push((req) => ({ ...openAiReply(req), delayMs: 600 }));
    expect(await embedder.embedDocuments(['slow'])).toHaveLength(1);
    expect(requests).toHaveLength(2);
    script.push(
      (req) => ({ ...openAiReply(req), delayMs: 600 }),
      (req) => ({ ...openAiReply(req), delayMs: 600 }),
    );
    const error = await catchError(() => embedder.embedDocuments(['slower']));
    expect(error.code).toBe('ENDPOINT_FAILED');
    expect(error.message).toMatch(/timed out after 200 ms/);
  });

  it('does not retry 401 and never shows the key, even when the server echoes it', async () => {
    const embedder = await open();
    script.push(() => ({ status: 401, body: { error: `Incorrect API key provided: ${API_KEY}` } }));
    const error = await catchError(() => embedder.embedDocuments(['x']));
    expect(error.code).toBe('ENDPOINT_FAILED');
    expect(error.message).toContain('HTTP 401');
    expect(error.hint).toContain('GROOVE_EMBEDDING_API_KEY');
    expect(requests).toHaveLength(1);
    const everything = `${error.message} ${error.hint} ${util.inspect(error)} ${util.inspect(embedder)}`;
    expect(everything).not.toContain(API_KEY);
  });

  it('does not follow redirects', async () => {
    const embedder = await open();
    script.push(() => ({ status: 302, headers: { location: 'http://example.invalid/v1/embeddings' } }));
    const error = await catchError(() => embedder.embedDocuments(['x']));
    expect(error.code).toBe('ENDPOINT_FAILED');
    expect(error.message).toContain('HTTP 302');
    expect(requests).toHaveLength(1);
  });

  it('learns the dimension from one probe request when none is configured', async () => {
    script.push(() => ({ body: { data: [{ index: 0, embedding: [0.5, 0.5, 0.5, 0.5, 0.5, 0.5] }] } }));
    const embedder = await open({ dimension: null });
    expect(embedder.dimension).toBe(6);
    expect(requests[0]?.body.input).toEqual(['groove endpoint probe']);
  });

  it('needs an endpoint and a model', async () => {
    expect((await catchError(() => open({ endpoint: null }))).code).toBe('CONFIG_INVALID');
    expect((await catchError(() => open({ model: null }))).code).toBe('CONFIG_INVALID');
  });

  it('offline mode refuses a non-loopback endpoint but allows loopback', async () => {
    const error = await catchError(() =>
      open({ offline: true, endpoint: 'https://api.example.invalid/v1/embeddings' }),
    );
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('api.example.invalid');
    const local = await open({ offline: true });
    expect(await local.embedQuery('x')).toHaveLength(DIM);
  });
});
