// A server started while the hub is out of reach (a loopback port that refuses) answers an MCP client by keyword,
// with the vector leg failed and why; it keeps trying the model in the background, and once a hub appears on
// that port (a fake hub serving a generated multilingual-e5-small, pinned to its bytes) it loads the model,
// embeds the chunks that waited, and the same client's searches use the vectors. Real HTTP, real SQLite, the
// real model runtime and the MCP SDK client.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeTestModel } from '../../scripts/test-model/write-test-model.js';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { type ModelRetryHandle, retryModelInBackground } from '../../src/app/serve/model-retry.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import { type FakeHub, refusingPort, startFakeHub } from '../support/fake-hub.js';
import { FAKE_REVISION, pinOfFolder } from '../support/fake-pins.js';
import {
  type ConnectedClient,
  connectInMemory,
  createServeKb,
  type ServeKb,
  textOf,
  waitFor,
} from '../support/mcp-fixture.js';

const REPO = 'Xenova/multilingual-e5-small';
const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];

let serveKb: ServeKb;
let kb: KnowledgeBase;
let connected: ConnectedClient | null = null;
let retry: ModelRetryHandle | null = null;
let hub: FakeHub | null = null;

interface Legs {
  vector: { status: string; error?: string };
  lexical: { status: string };
}

async function search(query: string): Promise<{ results: { path: string }[]; legs: Legs }> {
  const result = await connected!.client.callTool({ name: 'search', arguments: { query, limit: 3 } });
  return JSON.parse(textOf(result));
}

beforeEach(() => {
  serveKb = createServeKb();
});

afterEach(async () => {
  await retry?.close();
  await connected?.close();
  await kb?.close();
  await hub?.close();
  retry = null;
  connected = null;
  hub = null;
  serveKb.cleanup();
});

describe('serve with the embedding model out of reach', () => {
  it('answers by keyword, retries with backoff, and uses the vectors once a hub appears', async () => {
    // The model the hub will serve: a small generated network of multilingual-e5-small's shape.
    const served = path.join(serveKb.root, 'served-model');
    writeTestModel({
      kind: 'embed',
      shape: 'tiny',
      family: 'xlmr',
      hidden: 384,
      dtype: 'q8',
      outDir: served,
    });
    const files = Object.fromEntries(
      FILES.map((f) => [f, fs.readFileSync(path.join(served, ...f.split('/')))]),
    );
    const port = await refusingPort();
    const config = resolveConfig({
      cwd: serveKb.root,
      env: {
        HF_ENDPOINT: `http://127.0.0.1:${port}`,
        GROOVE_MODEL_DIR: path.join(serveKb.root, 'model-cache'),
      },
      overrides: { kbPath: serveKb.kbPath, dbPath: serveKb.dbPath },
    });
    const hubSettings = {
      pins: { 'multilingual-e5-small': pinOfFolder(served) },
      hubCacheDir: null,
      maxRetries: 0,
    };
    kb = openKnowledgeBase({ ...config, hub: { ...config.hub, ...hubSettings } });

    // The first index writes the text and fails on the model; the server then starts anyway.
    await expect(kb.index()).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    const unavailable = await kb.warmUp();
    expect(unavailable?.code).toBe('MODEL_UNAVAILABLE');
    connected = await connectInMemory(kb);
    const logs: string[] = [];
    retry = retryModelInBackground({
      target: kb,
      embedWaiting: () => connected!.runner.sync(),
      log: (line) => logs.push(line),
      firstDelayMs: 20,
      maxDelayMs: 200,
    });

    const offline = await search('backupalpha');
    expect(offline.results[0]?.path).toBe('ops/backup.md');
    expect(offline.legs.lexical.status).toBe('ok');
    expect(offline.legs.vector.status).toBe('failed');
    expect(offline.legs.vector.error).toMatch(/could not be downloaded: .*ECONNREFUSED/);
    await waitFor(() => logs.length >= 2, 5_000, 'two failed tries');
    expect(logs[0]).toMatch(/still not available .*next try in 0 s/);
    expect(retry.state()).toBe('retrying');
    const waiting = kb.status();
    expect(waiting).toMatchObject({
      modelPending: true,
      model: 'transformers:multilingual-e5-small',
      vectors: 0,
    });
    expect(waiting.pendingEmbeddings).toBe(waiting.chunks);
    expect(waiting.lastIndexedAt).not.toBeNull();

    hub = await startFakeHub({ [REPO]: { [FAKE_REVISION]: files } }, {}, undefined, port);
    await waitFor(() => retry?.state() === 'loaded', 60_000, 'the model to load');
    await waitFor(() => kb.status().pendingEmbeddings === 0, 60_000, 'the waiting chunks to be embedded');
    expect(logs.some((line) => line.startsWith('the embedding model loaded'))).toBe(true);
    const ready = kb.status();
    expect(ready).toMatchObject({
      modelPending: false,
      model: 'transformers:multilingual-e5-small',
      dimension: 384,
    });
    expect(ready.vectors).toBe(ready.chunks);

    const online = await search('backupalpha');
    expect(online.legs.vector.status).toBe('ok');
    expect(online.results[0]?.path).toBe('ops/backup.md');
    expect(hub.requests.length).toBeGreaterThanOrEqual(FILES.length);
  }, 120_000);
});
