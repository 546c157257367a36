// The hybrid path end to end and offline: `groove index --model-dir <generated ONNX model>` then `groove search`,
// through runCli in-process with GROOVE_OFFLINE=1 (nothing may touch the network).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runGroove } from '../support/run-cli.js';
import { ensureTinyModel } from '../support/test-models.js';

const sampleKb = path.resolve(import.meta.dirname, '../../examples/sample-kb');
let workDir: string;
let kbPath: string;
let modelDir: string;

function groove(args: string[]): Promise<CliRun> {
  return runGroove(args, { cwd: workDir });
}

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-local-model-'));
  kbPath = path.join(workDir, 'kb');
  fs.cpSync(sampleKb, kbPath, { recursive: true });
  modelDir = ensureTinyModel('embed');
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('index and search with a local model folder, offline', () => {
  it('builds a hybrid index whose vector leg answers searches', async () => {
    const index = await groove(['index', '--kb-path', kbPath, '--model-dir', modelDir, '--format', 'json']);
    expect(index.code, index.stderr).toBe(0);
    const summary = JSON.parse(index.stdout);
    expect(summary.lexical_only).toBe(false);
    expect(summary.embedded_chunks).toBe(summary.chunks);

    const status = JSON.parse((await groove(['status', '--kb-path', kbPath, '--format', 'json'])).stdout);
    expect(status.vectors).toBe(status.chunks);
    expect(status.dimension).toBeGreaterThan(0);
    expect(status.long_inputs).toBe('windows');
    const statusText = (await groove(['status', '--kb-path', kbPath])).stdout;
    expect(statusText).toContain('Long inputs:   read whole, in windows');

    // No --model-dir here: search adopts the model the index records.
    const search = await groove(['search', 'password recovery', '--kb-path', kbPath, '--explain']);
    expect(search.code, search.stderr).toBe(0);
    const response = JSON.parse(search.stdout);
    expect(response.legs).toMatchObject({ lexical: { status: 'ok' }, vector: { status: 'ok' } });
    expect(response.results[0].path).toBe('guides/password-reset.md');
    expect(
      response.results.some(
        (hit: { explain: { ranks: Record<string, number> } }) => hit.explain.ranks.vector,
      ),
    ).toBe(true);
  });

  it('refuses a lexical-only run against the hybrid index with a --force hint', async () => {
    const run = await groove(['index', '--kb-path', kbPath, '--model', 'none']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--force/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
