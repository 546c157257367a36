// Downloads of registered models against a loopback fake hub (real HTTP, real files, small fake model files with
// their own pins): the pinned revision is what is fetched, a broken connection resumes with Range, a hub that
// lies is MODEL_CHECKSUM with nothing left behind, slow and failing hubs are retried a bounded number of times,
// and HF_TOKEN reaches the hub but not a host it redirects to.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import type { HubSettings } from '../../src/models/hub-settings.js';
import type { ModelProgressEvent } from '../../src/models/model-progress.js';
import { type PullModelOptions, pullModel } from '../../src/models/model-pull.js';
import { type FakeHub, startFakeHub } from '../support/fake-hub.js';
import { FAKE_REVISION, fakeModelFiles, listFiles, pinOf } from '../support/fake-pins.js';

const REPO = 'Xenova/multilingual-e5-small';
const pinned = fakeModelFiles('pinned', 256 * 1024);
const moved = fakeModelFiles('main moved on', 256 * 1024);
const pin = pinOf(pinned);

let tmp: string;
let hub: FakeHub;
let cdn: FakeHub | null = null;

function folderOf(cacheDir: string): string {
  return path.join(cacheDir, 'Xenova', 'multilingual-e5-small');
}

function pull(overrides: Partial<PullModelOptions> = {}, hubSettings: HubSettings = {}) {
  return pullModel({
    id: 'multilingual-e5-small',
    cacheDir: path.join(tmp, 'cache'),
    offline: false,
    hubEndpoint: hub.url,
    hub: { pins: { 'multilingual-e5-small': pin }, idleTimeoutMs: 2000, retryBaseMs: 5, ...hubSettings },
    ...overrides,
  });
}

async function pullError(overrides: Partial<PullModelOptions> = {}, hubSettings: HubSettings = {}) {
  try {
    await pull(overrides, hubSettings);
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected the pull to fail');
}

function expectPinnedFilesOnly(cacheDir: string): void {
  const folder = folderOf(cacheDir);
  expect(listFiles(folder)).toEqual(Object.keys(pinned).sort());
  for (const [file, body] of Object.entries(pinned)) {
    expect(fs.readFileSync(path.join(folder, file)).equals(body), file).toBe(true);
  }
}

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-download-'));
  hub = await startFakeHub({ [REPO]: { [FAKE_REVISION]: pinned, main: moved } });
});

afterEach(async () => {
  await hub.close();
  await cdn?.close();
  cdn = null;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('pinned downloads', () => {
  it('fetches the pinned revision while main has moved on, and verifies every file', async () => {
    const events: ModelProgressEvent[] = [];
    const result = await pull({ progress: (e) => events.push(e) });
    expect(result).toMatchObject({ downloaded: true, source: 'cache', revision: FAKE_REVISION });
    expectPinnedFilesOnly(path.join(tmp, 'cache'));
    const paths = hub.requests.map((r) => r.path);
    expect(paths.length).toBe(4);
    expect(paths.every((p) => p.startsWith(`/${REPO}/resolve/${FAKE_REVISION}/`))).toBe(true);
    const done = events.filter((e) => e.kind === 'download-done').map((e) => e.file);
    expect(done.sort()).toEqual(Object.keys(pinned).sort());

    const again = await pull();
    expect(again.downloaded).toBe(false);
    expect(hub.requests.length).toBe(4);
  });

  it('resumes a dropped connection with Range and keeps the bytes it already has', async () => {
    hub.behaviour = { dropAfterBytes: 100_000, drops: 2, pieceBytes: 16 * 1024, pieceDelayMs: 5 };
    const events: ModelProgressEvent[] = [];
    await pull({ progress: (e) => events.push(e) });
    expectPinnedFilesOnly(path.join(tmp, 'cache'));
    const onnx = hub.requests.filter((r) => r.path.endsWith('model_quantized.onnx'));
    // Dropped twice, each time after 100 000 bytes of the answer: each retry asks only for what is missing.
    expect(onnx.map((r) => r.range)).toEqual([
      undefined,
      expect.stringMatching(/^bytes=\d+-$/),
      expect.stringMatching(/^bytes=\d+-$/),
    ]);
    const [first, second] = onnx.slice(1).map((r) => Number(/\d+/.exec(r.range ?? '')?.[0]));
    expect(first).toBeGreaterThan(50_000);
    expect(second).toBeGreaterThan((first as number) + 50_000);
    expect(events.some((e) => e.kind === 'download-retry')).toBe(true);
  });

  it('starts the file over when the hub ignores the Range', async () => {
    hub.behaviour = {
      dropAfterBytes: 100_000,
      drops: 2,
      ignoreRange: true,
      pieceBytes: 16 * 1024,
      pieceDelayMs: 5,
    };
    await pull();
    expectPinnedFilesOnly(path.join(tmp, 'cache'));
  });

  it('refuses other bytes of the pinned size: MODEL_CHECKSUM, and nothing is kept', async () => {
    hub.behaviour = { corrupt: true };
    const error = await pullError();
    expect(error.code).toBe('MODEL_CHECKSUM');
    expect(error.message).toContain('config.json');
    expect(error.message).toContain(pin.files['config.json']?.sha256);
    expect(listFiles(folderOf(path.join(tmp, 'cache')))).toEqual([]);
  });

  it('refuses an announced size other than the pin before reading the body', async () => {
    hub.behaviour = { announceLength: 5 };
    const error = await pullError();
    expect(error.code).toBe('MODEL_CHECKSUM');
    expect(error.message).toMatch(/announced 5 bytes, the pin says \d+/);
    expect(listFiles(folderOf(path.join(tmp, 'cache')))).toEqual([]);
  });

  it('retries 5xx answers with backoff and then succeeds', async () => {
    hub.behaviour = { failStatus: 503, failTimes: 3 };
    await pull({}, { maxRetries: 3 });
    expectPinnedFilesOnly(path.join(tmp, 'cache'));
  });

  it('gives up after the bounded retries on a hub that stalls, naming the timeout', async () => {
    hub.behaviour = { stallAfterBytes: 10 };
    const started = Date.now();
    const error = await pullError({}, { idleTimeoutMs: 150, maxRetries: 2 });
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toMatch(/gave up after 3 attempts: .*received nothing for 150 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(listFiles(folderOf(path.join(tmp, 'cache')))).toEqual([]);
  });

  it('finishes a slow download whose bytes keep coming, however long it takes in total', async () => {
    hub.behaviour = { pieceBytes: 32 * 1024, pieceDelayMs: 60 };
    await pull({}, { idleTimeoutMs: 400 });
    expectPinnedFilesOnly(path.join(tmp, 'cache'));
  });

  it('fails at once, without retrying, when the hub cannot be reached at all', async () => {
    const url = hub.url;
    await hub.close();
    const started = Date.now();
    const error = await pullError({ hubEndpoint: url }, { retryBaseMs: 1000 });
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('ECONNREFUSED');
    expect(Date.now() - started).toBeLessThan(900);
    hub = await startFakeHub({});
  });

  it('stops at once on 404 and names the revision', async () => {
    const error = await pullError(
      {},
      { pins: { 'multilingual-e5-small': { ...pin, revision: 'f'.repeat(40) } } },
    );
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('at revision ffffffffffff (HTTP 404)');
    expect(hub.requests.length).toBe(1);
  });
});

describe('HF_TOKEN', () => {
  it('is sent to the hub, which then serves the files', async () => {
    hub.behaviour = { requireToken: 'hf_secret' };
    await pull({}, { token: 'hf_secret' });
    expectPinnedFilesOnly(path.join(tmp, 'cache'));
    expect(hub.requests.every((r) => r.authorization === 'Bearer hf_secret')).toBe(true);
  });

  it('without it a hub that needs one is MODEL_UNAVAILABLE naming HF_TOKEN, not retried', async () => {
    hub.behaviour = { requireToken: 'hf_secret' };
    const error = await pullError();
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('set HF_TOKEN');
    expect(hub.requests.length).toBe(1);
  });

  it('is not sent to another host the hub redirects to', async () => {
    cdn = await startFakeHub({ [REPO]: { [FAKE_REVISION]: pinned } });
    hub.behaviour = { requireToken: 'hf_secret', redirectTo: cdn.url };
    await pull({}, { token: 'hf_secret' });
    expectPinnedFilesOnly(path.join(tmp, 'cache'));
    expect(hub.requests.every((r) => r.authorization === 'Bearer hf_secret')).toBe(true);
    expect(cdn.requests.length).toBe(4);
    expect(cdn.requests.every((r) => r.authorization === undefined)).toBe(true);
  });
});
