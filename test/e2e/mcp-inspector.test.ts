// A third-party MCP client against the real `groove serve` over stdio: the MCP Inspector's CLI lists the tools,
// the prompts and the resources, and reads a document resource.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/mcp-fixture.js';
import { runBin } from '../support/run-bin.js';

const inspector = path.join(repoRoot, 'node_modules/.bin/mcp-inspector');
const bin = path.join(repoRoot, 'bin/groove.js');
let workDir: string;
let kbPath: string;

/** Run one Inspector CLI method against `groove serve` and parse its JSON answer. */
function inspect(method: string, extra: string[] = []): Record<string, unknown> {
  const result = spawnSync(
    inspector,
    [
      '--cli',
      process.execPath,
      bin,
      'serve',
      '--kb-path',
      kbPath,
      '--no-watch',
      '--method',
      method,
      ...extra,
    ],
    { cwd: workDir, encoding: 'utf8', env: { ...process.env, GROOVE_OFFLINE: '1' }, timeout: 60_000 },
  );
  expect(result.status, `${result.stderr}\n${result.stdout}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-inspector-'));
  kbPath = path.join(workDir, 'kb');
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kbPath, { recursive: true });
  const indexed = runBin(['index', '--kb-path', kbPath, '--model', 'none', '--quiet'], workDir);
  expect(indexed.code, indexed.stderr).toBe(0);
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('the MCP Inspector CLI against groove serve', () => {
  it('lists tools, prompts and resources', () => {
    const tools = (inspect('tools/list').tools as { name: string }[]).map((t) => t.name).sort();
    expect(tools).toEqual([
      'get_connection_graph',
      'get_document',
      'list_topics',
      'rebuild_index',
      'record_feedback',
      'search',
    ]);
    const prompts = (inspect('prompts/list').prompts as { name: string }[]).map((p) => p.name).sort();
    expect(prompts).toEqual(['deep_dive', 'find_gaps', 'summarize_topic', 'whats_new']);
    const resources = (inspect('resources/list').resources as { uri: string }[]).map((r) => r.uri);
    expect(resources).toEqual(expect.arrayContaining(['kb://topic/', 'kb://topic/guides', 'kb://topic/ops']));
  });

  it('reads a document resource', () => {
    const read = inspect('resources/read', ['--uri', 'kb://doc/guides%2Fpassword-reset.md']);
    const [content] = read.contents as { text: string; mimeType: string }[];
    expect(content!.mimeType).toBe('text/markdown');
    expect(content!.text).toBe(fs.readFileSync(path.join(kbPath, 'guides/password-reset.md'), 'utf8'));
  });
});
