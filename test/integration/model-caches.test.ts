// Where a registered model is found without the network: groove's model cache (every file verified against its
// pin, once per change), and a Hugging Face hub cache folder laid out as the hub's own tools write it (read in
// place, never written). Leftover temporary files of dead downloads are swept on the next start.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import { listModels } from '../../src/models/model-cache.js';
import { pinFor } from '../../src/models/model-pins.js';
import { type EnsureModelFolderOptions, ensureModelFolder } from '../../src/models/model-pull.js';
import { findEmbeddingModel } from '../../src/models/model-registry.js';
import { type FakeHub, startFakeHub } from '../support/fake-hub.js';
import { FAKE_REVISION, fakeModelFiles, listFiles, pinOf, writeFiles } from '../support/fake-pins.js';

const spec = findEmbeddingModel('multilingual-e5-small');
const files = fakeModelFiles('pinned');
const pin = pinOf(files);
const OTHER_COMMIT = 'abcdef0000000000000000000000000000000002';

let tmp: string;
let hub: FakeHub;
let cacheDir: string;
let hubCacheDir: string;

function ensure(overrides: Partial<EnsureModelFolderOptions> = {}) {
  return ensureModelFolder({
    spec,
    cacheDir,
    offline: true,
    hubEndpoint: hub.url,
    hub: { pins: { [spec.id]: pin }, hubCacheDir, retryBaseMs: 5 },
    ...overrides,
  });
}

async function ensureError(overrides: Partial<EnsureModelFolderOptions> = {}): Promise<GrooveError> {
  try {
    await ensure(overrides);
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected ensureModelFolder to fail');
}

/** A hub-cache snapshot of `commit` holding `content`: blobs named by SHA-256, snapshot entries linking to them. */
function writeHubSnapshot(commit: string, content: Record<string, Buffer>, main: string | null): string {
  const repo = path.join(hubCacheDir, 'models--Xenova--multilingual-e5-small');
  const snapshot = path.join(repo, 'snapshots', commit);
  for (const [file, body] of Object.entries(content)) {
    const blob = path.join(repo, 'blobs', crypto.createHash('sha256').update(body).digest('hex'));
    fs.mkdirSync(path.dirname(blob), { recursive: true });
    fs.writeFileSync(blob, body);
    const link = path.join(snapshot, ...file.split('/'));
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.relative(path.dirname(link), blob), link);
  }
  if (main) {
    fs.mkdirSync(path.join(repo, 'refs'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'refs', 'main'), main);
  }
  return snapshot;
}

function snapshotState(): string {
  const entries = fs.readdirSync(hubCacheDir, { recursive: true, withFileTypes: true }) as fs.Dirent[];
  return entries
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      return `${path.relative(hubCacheDir, full)} ${fs.lstatSync(full).mtimeMs}`;
    })
    .sort()
    .join('\n');
}

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-caches-'));
  cacheDir = path.join(tmp, 'cache');
  hubCacheDir = path.join(tmp, 'hf', 'hub');
  fs.mkdirSync(hubCacheDir, { recursive: true });
  hub = await startFakeHub({ 'Xenova/multilingual-e5-small': { [FAKE_REVISION]: files } });
});

afterEach(async () => {
  await hub.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the Hugging Face hub cache', () => {
  it('is used in place, offline and read-only, when it holds the pinned revision', async () => {
    const snapshot = writeHubSnapshot(FAKE_REVISION, files, FAKE_REVISION);
    const before = snapshotState();
    const result = await ensure();
    expect(result).toEqual({ folder: snapshot, downloaded: false, source: 'hub-cache' });
    expect(hub.requests).toEqual([]);
    expect(snapshotState()).toBe(before);
    expect(listFiles(path.join(cacheDir, 'Xenova'))).toEqual([]);
  });

  it('counts for groove models list, which names the snapshot', () => {
    const snapshot = writeHubSnapshot(FAKE_REVISION, files, null);
    const listed = listModels(cacheDir, hubCacheDir).find((m) => m.id === spec.id);
    expect(listed).toMatchObject({ downloaded: false });
    fs.renameSync(snapshot, path.join(path.dirname(snapshot), pinFor(spec).revision));
    const again = listModels(cacheDir, hubCacheDir).find((m) => m.id === spec.id);
    expect(again).toMatchObject({
      downloaded: true,
      folder: path.join(path.dirname(snapshot), pinFor(spec).revision),
    });
  });

  it('is used when refs/main names another commit whose files are the pinned ones', async () => {
    const snapshot = writeHubSnapshot(OTHER_COMMIT, files, OTHER_COMMIT);
    expect(await ensure()).toMatchObject({ folder: snapshot, source: 'hub-cache' });
  });

  it('is passed over when its main snapshot holds other files, and the model is then unavailable offline', async () => {
    writeHubSnapshot(OTHER_COMMIT, fakeModelFiles('another model'), OTHER_COMMIT);
    const error = await ensureError();
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('offline');
    expect(error.message).toContain('groove models pull multilingual-e5-small');
  });

  it('names a damaged file of the pinned snapshot as MODEL_CHECKSUM, and changes nothing', async () => {
    const snapshot = writeHubSnapshot(
      FAKE_REVISION,
      { ...files, 'tokenizer.json': Buffer.alloc(3000, 7) },
      null,
    );
    const error = await ensureError({ offline: false });
    expect(error.code).toBe('MODEL_CHECKSUM');
    expect(error.message).toContain('tokenizer.json');
    expect(error.message).toContain(snapshot);
    expect(hub.requests).toEqual([]);
  });

  it("is ignored for a model it does not hold: the download goes to groove's cache", async () => {
    const result = await ensure({ offline: false });
    expect(result).toMatchObject({ downloaded: true, source: 'cache' });
    expect(listFiles(hubCacheDir)).toEqual([]);
  });
});

describe("groove's model cache", () => {
  const folder = () => path.join(cacheDir, 'Xenova', 'multilingual-e5-small');

  it('is verified without the network, and a file that differs from its pin is MODEL_CHECKSUM', async () => {
    writeFiles(folder(), { ...files, 'onnx/model_quantized.onnx': Buffer.alloc(64 * 1024, 1) });
    const error = await ensureError({ offline: false });
    expect(error.code).toBe('MODEL_CHECKSUM');
    expect(error.message).toContain('onnx/model_quantized.onnx');
    expect(error.hint).toContain(`delete "${folder()}"`);
    expect(hub.requests).toEqual([]);
    expect(fs.readFileSync(path.join(folder(), 'onnx', 'model_quantized.onnx'))[0]).toBe(1);
  });

  it('notices a verified file that changed later', async () => {
    writeFiles(folder(), files);
    expect(await ensure()).toMatchObject({ source: 'cache', downloaded: false });
    const onnx = path.join(folder(), 'onnx', 'model_quantized.onnx');
    const damaged = Buffer.from(files['onnx/model_quantized.onnx'] as Buffer);
    damaged[100] = (damaged[100] as number) ^ 1;
    fs.writeFileSync(onnx, damaged);
    expect((await ensureError()).code).toBe('MODEL_CHECKSUM');
  });

  it('completes a partly downloaded folder with the missing files only', async () => {
    writeFiles(folder(), { 'config.json': files['config.json'] as Buffer });
    expect(await ensure({ offline: false })).toMatchObject({ downloaded: true });
    expect(hub.requests.map((r) => r.path.split('/').slice(5).join('/')).sort()).toEqual(
      ['onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json'].sort(),
    );
  });
});

describe('temporary files of interrupted downloads', () => {
  it("are swept on the next start when their process is gone, and a live process's are kept", async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    const stale = path.join(folder(), 'onnx', `model_quantized.onnx.tmp.${dead}.k2x9`);
    const legacy = path.join(cacheDir, 'Xenova', 'bge-m3', `tokenizer.json.tmp.${dead}.-1b3z`);
    const live = path.join(folder(), `config.json.tmp.${process.pid}.abc123`);
    for (const file of [stale, legacy, live]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'partial');
    }
    await ensureError();
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(legacy)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
  });

  function folder(): string {
    return path.join(cacheDir, 'Xenova', 'multilingual-e5-small');
  }
});
