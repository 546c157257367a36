// Ctrl-C in the middle of a model file: a real second process downloads from a slow loopback hub, gets SIGINT
// (or SIGTERM) while its temporary file grows, ends by that signal, and leaves no partial file behind.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeHub, startFakeHub } from '../support/fake-hub.js';
import { FAKE_REVISION, fakeModelFiles, listFiles, pinOf } from '../support/fake-pins.js';

const REPO = 'Xenova/multilingual-e5-small';
const files = fakeModelFiles('interrupted', 512 * 1024);

let tmp: string;
let hub: FakeHub;

function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (check()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error('timed out waiting'));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-interrupt-'));
  hub = await startFakeHub({ [REPO]: { [FAKE_REVISION]: files, main: files } });
});

afterEach(async () => {
  await hub.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('an interrupted download', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'removes its temporary file on %s and ends by it',
    async (signal) => {
      const cacheDir = path.join(tmp, 'cache');
      const folder = path.join(cacheDir, 'Xenova', 'multilingual-e5-small');
      const options = {
        id: 'multilingual-e5-small',
        cacheDir,
        offline: false,
        hubEndpoint: hub.url,
        hub: { pins: { 'multilingual-e5-small': pinOf(files) }, hubCacheDir: null },
      };
      // Small files at once, the ONNX file slowly: the signal arrives while it is being written.
      hub.behaviour = { pieceBytes: 4096, pieceDelayMs: 50 };
      const script = path.join(import.meta.dirname, '../support/pull-child.ts');
      const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(options)], {
        env: { PATH: process.env.PATH ?? '', HOME: tmp },
        stdio: 'ignore',
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_c, s) => resolve(s)));
      const partial = () =>
        listFiles(folder).filter((f) => f.startsWith(path.join('onnx', 'model_quantized.onnx.tmp.')));
      await waitFor(() => partial().some((f) => fs.statSync(path.join(folder, f)).size > 8192), 20_000);
      child.kill(signal);
      expect(await exited).toBe(signal);
      expect(partial()).toEqual([]);
      expect(listFiles(folder).filter((f) => f.includes('.tmp.'))).toEqual([]);
    },
  );
});
