// The extraction process's bounds, with a stand-in extractor module: memory filled anywhere (the JavaScript heap,
// Buffers, WebAssembly memory) stops the file at the memory bound; temp files are bounded and removed whenever a
// file is stopped; and the good files after a file stopped at the deadline are all extracted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExtractionLimits } from '../../src/fs/extract/extract-job.js';
import { ExtractionPool } from '../../src/fs/extract/extraction-pool.js';
import { canWatchProcesses, folderBytes, watchPeaks } from '../support/process-peak.js';

const MIB = 1024 * 1024;
const hostile = new URL('../fixtures/extractors/hostile-extractor.mjs', import.meta.url).href;
const limits: ExtractionLimits = {
  timeoutMs: 20_000,
  maxMemoryBytes: 256 * MIB,
  maxDecompressedBytes: 64 * MIB,
  maxZipEntries: 100,
  maxPages: 10,
  maxSheets: 10,
  maxCellsPerSheet: 100,
  maxSlides: 10,
  maxTextChars: 10_000,
  chunkBytes: 4000,
  maxHeadingLevel: 3,
};
const job = (text: string, overrides: Partial<ExtractionLimits> = {}) => ({
  format: 'pdf' as const,
  bytes: new TextEncoder().encode(text),
  limits: { ...limits, ...overrides },
});

let pool: ExtractionPool;
let tmp: string;
let savedTmp: string | undefined;
beforeEach(() => {
  // The extraction process makes its folder under os.tmpdir(): a private one shows what is left behind.
  savedTmp = process.env.TMPDIR;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-bounds-test-'));
  process.env.TMPDIR = tmp;
  pool = new ExtractionPool({ extractorModule: hostile });
});
afterEach(async () => {
  await pool.close();
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.runIf(canWatchProcesses)('the extraction process memory bound', () => {
  it.each(['oom', 'native-grow', 'wasm-grow'])(
    'stops a parser that fills memory (%s) at the bound and goes on',
    async (kind) => {
      const watch = watchPeaks(process.pid, tmp, 10);
      const startedAt = Date.now();
      const outcome = await pool.extract(job(kind));
      const peaks = watch.stop();
      expect(outcome).toEqual({
        ok: false,
        reason: 'too-much-memory',
        detail: 'extracting it took more than 256 MiB of memory and was stopped',
      });
      expect(Date.now() - startedAt).toBeLessThan(15_000);
      // The bound, loosely: what the watchdog lets pass between two samples, and this test process.
      expect(peaks.processRssBytes).toBeLessThan(256 * MIB + 192 * MIB);
      expect(fs.readdirSync(tmp)).toEqual([]);
      expect(await pool.extract(job('fine'))).toMatchObject({ ok: true });
    },
    30_000,
  );
});

describe('the extraction process temp files', () => {
  it('removes what a file stopped at the deadline wrote to temp', async () => {
    const outcome = await pool.extract(job('temp-hang', { timeoutMs: 1500 }));
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(await pool.extract(job('fine'))).toMatchObject({ ok: true });
  }, 30_000);

  it('stops a file whose temp files pass the bound, and removes them', async () => {
    const watch = watchPeaks(process.pid, tmp, 10);
    const outcome = await pool.extract(job('temp-grow', { maxDecompressedBytes: 32 * MIB }));
    const peaks = watch.stop();
    expect(outcome).toEqual({
      ok: false,
      reason: 'too-large-inflated',
      detail: `extracting it wrote more than the ${32 * MIB}-byte cap to temporary files and was stopped`,
    });
    expect(peaks.folderBytes).toBeLessThan(64 * MIB);
    expect(folderBytes(tmp)).toBe(0);
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 30_000);

  it('empties the temp folder after each file, leaving nothing when closed', async () => {
    expect(await pool.extract(job('fine'))).toMatchObject({ ok: true });
    await pool.close();
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 30_000);
});

describe('the file after a stopped one', () => {
  it('is extracted: a file stopped at the deadline, then ten good files, 20 trials', async () => {
    const lost: string[] = [];
    for (let trial = 0; trial < 20; trial++) {
      // Stuck in a native call at its deadline, as a parser library can be: it takes a while to stop.
      const stopped = pool.extract(job('hang-native', { timeoutMs: 200 }));
      const good = Array.from({ length: 10 }, (_, i) => pool.extract(job(`good ${trial}.${i}`)));
      const stop = await stopped;
      if (stop.ok || stop.reason !== 'timeout')
        lost.push(`trial ${trial} stopped file: ${JSON.stringify(stop)}`);
      for (const [i, outcome] of (await Promise.all(good)).entries()) {
        if (!outcome.ok) lost.push(`trial ${trial} file ${i}: ${outcome.detail}`);
      }
    }
    expect(lost).toEqual([]);
  }, 240_000);
});
