// `groove index` with a local model on chunks longer than the model's 512-token limit, in-process and offline:
// the summary counts them (over the limit, truncated), and the vector leg finds a chunk by its tail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/main.js';
import { fillerText, TAIL_A, TAIL_B } from '../support/long-text.js';
import { ensureTinyModel } from '../support/test-models.js';

let workDir: string;
let kbPath: string;
let modelDir: string;

async function groove(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { GROOVE_OFFLINE: '1', GROOVE_MODEL_DIR: path.join(workDir, 'cache') },
    cwd: workDir,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-long-inputs-'));
  kbPath = path.join(workDir, 'kb');
  fs.mkdirSync(kbPath);
  const head = fillerText(550);
  fs.writeFileSync(path.join(kbPath, 'alpha.md'), `# Alpha\n\n${head} ${TAIL_A}\n`);
  fs.writeFileSync(path.join(kbPath, 'beta.md'), `# Beta\n\n${head} ${TAIL_B}\n`);
  fs.writeFileSync(path.join(kbPath, 'gamma.md'), '# Gamma\n\nA short note.\n');
  modelDir = ensureTinyModel('embed');
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

interface ExplainedHit {
  path: string;
  explain: { ranks: { vector?: number } };
}

describe('groove index on chunks longer than the model reads in one pass', () => {
  it('counts them in the summary: over the limit, and none truncated', async () => {
    const index = await groove(['index', '--kb-path', kbPath, '--model-dir', modelDir, '--format', 'json']);
    expect(index.code, index.stderr).toBe(0);
    const summary = JSON.parse(index.stdout);
    expect(summary).toMatchObject({
      chunks: 3,
      embedded_chunks: 3,
      over_limit_inputs: 2,
      truncated_inputs: 0,
    });
    fs.appendFileSync(path.join(kbPath, 'alpha.md'), '\nOne more line at the end.\n');
    const text = await groove(['index', '--kb-path', kbPath]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      "Embedding inputs over the model's limit: 1 of 1 (read whole in windows: 1, truncated: 0)",
    );
  });

  it('counts the inputs cut at [embedding] max_input_chars as truncated', async () => {
    const config = path.join(workDir, 'groove.toml');
    fs.writeFileSync(config, '[embedding]\nmax_input_chars = 3000\n');
    const args = ['index', '--kb-path', kbPath, '--model-dir', modelDir, '--force', '--format', 'json'];
    const index = await groove([...args, '--config', config]);
    fs.rmSync(config);
    expect(index.code, index.stderr).toBe(0);
    expect(JSON.parse(index.stdout)).toMatchObject({ over_limit_inputs: 2, truncated_inputs: 2 });
    expect((await groove(args)).code).toBe(0);
  });

  // The test model's weights are random, so only the two long chunks are compared: cut at the limit, they would
  // be the same text and get the same vector, and one of the two queries would find the other file.
  it('finds each long chunk by vector from a query for its tail alone', async () => {
    for (const [tail, expected] of [
      [TAIL_A, 'alpha.md'],
      [TAIL_B, 'beta.md'],
    ] as const) {
      const search = await groove(['search', tail, '--kb-path', kbPath, '--explain', '--limit', '3']);
      expect(search.code, search.stderr).toBe(0);
      const hits = JSON.parse(search.stdout).results as ExplainedHit[];
      const ranks = (file: string) => hits.find((hit) => hit.path === file)?.explain.ranks.vector;
      const other = expected === 'alpha.md' ? 'beta.md' : 'alpha.md';
      expect(ranks(expected)).toBeLessThan(ranks(other) ?? Number.POSITIVE_INFINITY);
    }
  });
});
