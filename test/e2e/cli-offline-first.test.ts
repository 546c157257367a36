// The README's first run on a machine that cannot reach the model hub (HF_ENDPOINT names a loopback port that
// refuses), through the built CLI (`node bin/groove.js`): `groove index` with the default model keeps the text,
// `groove search` answers by keyword with the vector leg failed and why, `groove status` tells one story (the
// model configured but not available, every chunk waiting, the text index's time), and `groove serve` answers
// an MCP SDK client by keyword while it tries the model again. Skipped when dist/ has not been built.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusingPort } from '../support/fake-hub.js';
import { repoRoot, textOf, waitFor } from '../support/mcp-fixture.js';
import { binPath } from '../support/run-bin.js';

const built = fs.existsSync(path.join(repoRoot, 'dist/src/cli/cmd-serve.js'));
let tmp: string;
let env: Record<string, string>;
const where = () => ['--kb-path', path.join(tmp, 'notes'), '--db-path', path.join(tmp, 'notes.groove.db')];

function groove(args: string[]) {
  const run = spawnSync(process.execPath, [binPath, ...args], {
    cwd: tmp,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-offline-first-')));
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), path.join(tmp, 'notes'), { recursive: true });
  env = {
    PATH: process.env.PATH ?? '',
    HOME: tmp,
    XDG_CACHE_HOME: path.join(tmp, 'xdg-cache'),
    XDG_RUNTIME_DIR: path.join(tmp, 'run'),
    GROOVE_MODEL_DIR: path.join(tmp, 'models'),
    HF_HUB_CACHE: path.join(tmp, 'hf-hub'),
    HF_ENDPOINT: `http://127.0.0.1:${await refusingPort()}`,
  };
  fs.mkdirSync(env.XDG_RUNTIME_DIR!, { mode: 0o700 });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!built)('the default model with the hub out of reach', () => {
  it('index keeps the text, search answers by keyword, status tells one story', () => {
    const index = groove(['index', ...where(), '--quiet']);
    expect(index.code).toBe(1);
    expect(index.stderr).toContain('every file is indexed and searchable by keyword');

    const search = groove(['search', 'how do I recover my account', ...where(), '--format', 'json']);
    expect(search.code, search.stderr).toBe(0);
    const response = JSON.parse(search.stdout);
    expect(response.results.map((hit: { path: string }) => hit.path)).toContain('guides/password-reset.md');
    expect(response.legs.lexical.status).toBe('ok');
    expect(response.legs.vector.status).toBe('failed');
    expect(response.legs.vector.error).toMatch(
      /^Model "multilingual-e5-small" .* could not be downloaded: .*ECONNREFUSED/,
    );

    const status = JSON.parse(groove(['status', ...where(), '--format', 'json']).stdout);
    expect(status).toMatchObject({
      model: 'transformers:multilingual-e5-small',
      model_pending: true,
      vectors: 0,
      pending_embeddings: status.chunks,
    });
    expect(status.chunks).toBeGreaterThan(0);
    expect(Date.parse(status.last_indexed_at)).not.toBeNaN();
    const text = groove(['status', ...where()]).stdout;
    expect(text).toMatch(/Model: +transformers:multilingual-e5-small \(configured, not available yet/);
    expect(text).not.toContain('lexical-only');
    expect(text).not.toMatch(/Last indexed: +never/);
  });

  it('serve answers an MCP client by keyword and keeps trying the model', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, 'serve', ...where(), '--no-watch'],
      env: { ...env, GROOVE_MODEL_RETRY_MS: '100' },
      cwd: tmp,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'groove-offline', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'search', arguments: { query: 'reset password' } });
      const response = JSON.parse(textOf(result));
      expect(response.results[0].path).toBe('guides/password-reset.md');
      expect(response.legs.vector.status).toBe('failed');
      expect(response.legs.vector.error).toContain('ECONNREFUSED');
      expect(stderr).toMatch(
        /the embedding model is not available \(.*\); answering by keyword, trying it again/,
      );
      await waitFor(() => /still not available .* next try in/.test(stderr), 10_000, 'a failed retry');
    } finally {
      await client.close();
    }
  });
});
