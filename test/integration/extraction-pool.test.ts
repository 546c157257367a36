// The extraction process: a parser that hangs is stopped at the deadline, one that kills its process or throws
// refuses only its own file, and the next file gets a fresh process. Uses a stand-in extractor module.
import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractionLimits } from '../../src/fs/extract/extract-job.js';
import { ExtractionPool } from '../../src/fs/extract/extraction-pool.js';

const hostile = new URL('../fixtures/extractors/hostile-extractor.mjs', import.meta.url).href;
const limits: ExtractionLimits = {
  timeoutMs: 1500,
  maxMemoryBytes: 768 * 1024 * 1024,
  maxDecompressedBytes: 1024 * 1024,
  maxZipEntries: 100,
  maxPages: 10,
  maxSheets: 10,
  maxCellsPerSheet: 100,
  maxSlides: 10,
  maxTextChars: 10_000,
  chunkBytes: 4000,
  maxHeadingLevel: 3,
};
const job = (text: string) => ({ format: 'pdf' as const, bytes: new TextEncoder().encode(text), limits });

let pool: ExtractionPool;
afterEach(() => pool.close());

describe('the extraction process', () => {
  it('stops a parser that hangs at the deadline, then serves the next file from a new process', async () => {
    pool = new ExtractionPool({ extractorModule: hostile });
    const startedAt = Date.now();
    const hung = await pool.extract(job('hang'));
    expect(hung).toEqual({
      ok: false,
      reason: 'timeout',
      detail: 'extraction took longer than 1500 ms and was stopped',
    });
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    const next = await pool.extract(job('fine'));
    expect(next).toMatchObject({ ok: true, extraction: { sections: [{ text: 'fine' }] } });
    expect(pool.processesStarted).toBe(2);
  }, 30_000);

  it('refuses the file whose parser kills its process or throws, and goes on', async () => {
    pool = new ExtractionPool({ extractorModule: hostile });
    const [crashed, thrown, fine] = await Promise.all([
      pool.extract(job('crash')),
      pool.extract(job('throw')),
      pool.extract(job('fine')),
    ]);
    expect(crashed).toMatchObject({ ok: false, reason: 'crashed' });
    expect(crashed.ok === false && crashed.detail).toMatch(/exit code 70/);
    expect(thrown).toMatchObject({
      ok: false,
      reason: 'crashed',
      detail: expect.stringContaining('library bug'),
    });
    expect(fine).toMatchObject({ ok: true });
  }, 30_000);

  it('runs the real extractors in the process', async () => {
    pool = new ExtractionPool();
    const outcome = await pool.extract({
      format: 'code',
      text: 'fn main() {\n    println!("hi");\n}\n',
      grammar: 'rust',
      language: 'rust',
      limits,
    });
    expect(outcome.ok && outcome.extraction.sections.map((s) => s.heading)).toEqual(['function main', null]);
  }, 30_000);
});
