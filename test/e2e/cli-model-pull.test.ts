// `groove models pull` as a user runs it (`node bin/groove.js`, built into dist/), against a loopback fake hub
// named by HF_ENDPOINT and the registry's real pins: the Hugging Face offline variables forbid the download,
// a hub that serves other bytes is MODEL_CHECKSUM, Ctrl-C leaves no partial file, and the leftovers of a
// download killed outright are swept by the next start.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_PINS } from '../../src/models/model-pins.js';
import { type FakeHub, startFakeHub } from '../support/fake-hub.js';
import { listFiles } from '../support/fake-pins.js';
import { binPath } from '../support/run-bin.js';

const ID = 'multilingual-e5-small';
const REPO = 'Xenova/multilingual-e5-small';
const REVISION = MODEL_PINS[ID]?.revision as string;
const CONFIG_SIZE = MODEL_PINS[ID]?.files['config.json']?.size as number;

let tmp: string;
let hub: FakeHub;
/** Bytes of the pinned size that are not the pinned file. */
const wrongConfig = () => Buffer.alloc(CONFIG_SIZE, 0x7b);

function envFor(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: tmp,
    GROOVE_MODEL_DIR: path.join(tmp, 'cache'),
    HF_HUB_CACHE: path.join(tmp, 'hf-hub'),
    HF_ENDPOINT: hub.url,
    ...extra,
  };
}

/** Run the CLI without blocking this process, which serves the fake hub. */
function groove(args: string[], extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, [binPath, ...args], { cwd: tmp, env: envFor(extra) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

const modelFolder = () => path.join(tmp, 'cache', 'Xenova', 'multilingual-e5-small');

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
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-pull-cli-'));
  // `main` serves the same bytes, so a client that follows main instead of the pin gets as far.
  hub = await startFakeHub({
    [REPO]: { [REVISION]: { 'config.json': wrongConfig() }, main: { 'config.json': wrongConfig() } },
  });
});

afterEach(async () => {
  await hub.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('groove models pull', () => {
  it.each(['HF_HUB_OFFLINE', 'TRANSFORMERS_OFFLINE'])(
    '%s=1 forbids the download and names the fix',
    async (name) => {
      const run = await groove(['models', 'pull', ID], { [name]: '1' });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('offline');
      expect(run.stderr).toContain(`groove models pull ${ID}`);
      expect(hub.requests).toEqual([]);
    },
  );

  it('refuses a hub that serves other bytes than the pinned ones, keeping nothing', async () => {
    const run = await groove(['models', 'pull', ID]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('config.json');
    expect(run.stderr).toContain(MODEL_PINS[ID]?.files['config.json']?.sha256);
    expect(hub.requests.map((r) => r.path)).toEqual([`/${REPO}/resolve/${REVISION}/config.json`]);
    expect(listFiles(modelFolder())).toEqual([]);
  });

  it('removes the unfinished file on Ctrl-C and ends as interrupted', async () => {
    hub.behaviour = { pieceBytes: 8, pieceDelayMs: 100 };
    const child: ChildProcess = spawn(process.execPath, [binPath, 'models', 'pull', ID], {
      cwd: tmp,
      env: envFor(),
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await waitFor(() => listFiles(modelFolder()).some((f) => f.includes('.tmp.')), 15_000);
    child.kill('SIGINT');
    expect(await exited).toBe('SIGINT');
    expect(listFiles(modelFolder())).toEqual([]);
  });

  it('sweeps what a download killed outright left behind, on the next start', async () => {
    hub.behaviour = { pieceBytes: 8, pieceDelayMs: 100 };
    const child = spawn(process.execPath, [binPath, 'models', 'pull', ID], {
      cwd: tmp,
      env: envFor(),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await waitFor(() => listFiles(modelFolder()).some((f) => f.includes('.tmp.')), 15_000);
    child.kill('SIGKILL');
    await exited;
    expect(listFiles(modelFolder()).length).toBe(1);
    const next = await groove(['models', 'pull', ID], { HF_HUB_OFFLINE: '1' });
    expect(next.code).toBe(1);
    expect(listFiles(modelFolder())).toEqual([]);
  });
});
