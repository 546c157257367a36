// `groove graph`: the connection graph from the command line, on a hybrid index built with a generated ONNX
// model. Its JSON is the MCP tool's answer to the same arguments; text, DOT and Mermaid draw the same nodes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/index.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import { connectInMemory, textOf } from '../support/mcp-fixture.js';
import { type CliRun, offlineEnv, runGroove } from '../support/run-cli.js';
import { ensureTinyModel } from '../support/test-models.js';

const sampleKb = path.resolve(import.meta.dirname, '../../examples/sample-kb');
let workDir: string;
let kbPath: string;
let lexicalDb: string;

function groove(args: string[]): Promise<CliRun> {
  return runGroove(args, { cwd: workDir });
}

/** The graph JSON without its timing, which differs from run to run. */
function withoutTiming(json: { stats: Record<string, unknown> }): unknown {
  return { ...json, stats: { ...json.stats, duration_ms: 0 } };
}

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-graph-'));
  kbPath = path.join(workDir, 'kb');
  lexicalDb = path.join(workDir, 'lexical.db');
  fs.cpSync(sampleKb, kbPath, { recursive: true });
  const modelDir = ensureTinyModel('embed');
  const index = await groove(['index', '--kb-path', kbPath, '--model-dir', modelDir, '--quiet']);
  expect(index.code, index.stderr).toBe(0);
  const lexical = await groove([
    'index',
    '--kb-path',
    kbPath,
    '--db-path',
    lexicalDb,
    '--model',
    'none',
    '--quiet',
  ]);
  expect(lexical.code, lexical.stderr).toBe(0);
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

const START = 'guides/password-reset.md';
const GRAPH_ARGS = ['--depth', '2', '--fan-out', '3', '--min-similarity', '0', '--max-nodes', '12'];

describe('groove graph', () => {
  it('answers with the same JSON as the MCP tool get_connection_graph', async () => {
    const cli = await groove(['graph', START, '--kb-path', kbPath, ...GRAPH_ARGS]);
    expect(cli.code, cli.stderr).toBe(0);
    const fromCli = JSON.parse(cli.stdout);
    expect(fromCli.start_path).toBe(START);
    expect(fromCli.nodes.length).toBeGreaterThan(1);

    const kb = openKnowledgeBase(
      resolveConfig({ cwd: workDir, env: offlineEnv(workDir), overrides: { kbPath } }),
    );
    const connected = await connectInMemory(kb);
    try {
      const result = await connected.client.callTool({
        name: 'get_connection_graph',
        arguments: { start: START, depth: 2, fan_out: 3, min_similarity: 0, max_nodes: 12 },
      });
      expect(result.isError).toBeFalsy();
      expect(withoutTiming(fromCli)).toEqual(withoutTiming(JSON.parse(textOf(result))));
    } finally {
      await connected.close();
      await kb.close();
    }
  });

  it('draws the same nodes and edges as text, DOT and Mermaid', async () => {
    const json = JSON.parse((await groove(['graph', START, '--kb-path', kbPath, ...GRAPH_ARGS])).stdout);
    const edges = json.nodes.filter((node: { parent_id: number | null }) => node.parent_id !== null).length;

    const dot = await groove(['graph', START, '--kb-path', kbPath, ...GRAPH_ARGS, '--format', 'dot']);
    expect(dot.code, dot.stderr).toBe(0);
    expect(dot.stdout.startsWith('digraph ')).toBe(true);
    expect(dot.stdout.match(/^ {2}n\d+ \[label=/gm)?.length).toBe(json.nodes.length);
    expect(dot.stdout.match(/^ {2}n\d+ -> n\d+/gm)?.length).toBe(edges);

    const mermaid = await groove(['graph', START, '--kb-path', kbPath, ...GRAPH_ARGS, '--format', 'mermaid']);
    expect(mermaid.stdout.split('\n')[0]).toBe('flowchart LR');
    expect(mermaid.stdout.match(/^ {2}n\d+\["/gm)?.length).toBe(json.nodes.length);
    expect(mermaid.stdout.match(/^ {2}n\d+ -->\|/gm)?.length).toBe(edges);

    const text = await groove(['graph', START, '--kb-path', kbPath, ...GRAPH_ARGS, '--format', 'text']);
    expect(text.stdout.split('\n')[0]).toContain(START);
    expect(text.stdout).toContain(`${json.stats.total_nodes} nodes`);
  });

  it('refuses an unknown start and an out-of-range flag, each with its own exit', async () => {
    const unknown = await groove(['graph', 'nope.md', '--kb-path', kbPath]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"nope.md" is not an indexed document');
    // A note's name, as Obsidian users write it, finds the same start as its path.
    for (const name of [
      'password-reset',
      'Password-Reset.md',
      '[[password-reset]]',
      'guides/password-reset',
    ]) {
      const named = await groove([
        'graph',
        name,
        '--kb-path',
        kbPath,
        '--db-path',
        lexicalDb,
        '--format',
        'json',
      ]);
      expect(named.code, `${name}: ${named.stderr}`).toBe(0);
      expect(JSON.parse(named.stdout).start_path, name).toBe(START);
    }
    const deep = await groove(['graph', START, '--kb-path', kbPath, '--depth', '4']);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toContain('--depth "4" must be a whole number from 1 to 3');
    expect(`${unknown.stderr}${deep.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('on a lexical-only index answers with the seeds alone and says why there are no neighbours', async () => {
    const lexical = await groove(['graph', START, '--kb-path', kbPath, '--db-path', lexicalDb]);
    expect(lexical.code, lexical.stderr).toBe(0);
    const json = JSON.parse(lexical.stdout);
    expect(json.nodes.length).toBeGreaterThan(0);
    expect(json.nodes.every((node: { parent_id: number | null }) => node.parent_id === null)).toBe(true);
    expect(json.truncated).toBe(true);
    expect(json.truncation).toContainEqual(
      expect.objectContaining({ reason: 'no_vectors', limit: 0, remedy: expect.stringContaining('--model') }),
    );
    expect(json.stats).toMatchObject({ knn_queries: 0, total_edges: 0 });
    expect(json.edges).toEqual([]);
  });
});
