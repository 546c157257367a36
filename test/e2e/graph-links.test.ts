// The links written in the notes in get_connection_graph (real SDK client over the in-memory transport) and
// `groove graph` (the CLI in-process): edges from, to and among the graph's documents, each with its kind, next to
// the similarity tree; the same JSON on both surfaces; filters, the link budget, and the drawings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import {
  connectInMemory,
  createServeKb,
  note,
  openTestKb,
  type ServeKb,
  textOf,
} from '../support/mcp-fixture.js';
import { runGroove } from '../support/run-cli.js';

const LINKED_NOTES: Record<string, string> = {
  'guides/setup/install.md': `${note('install')}\nNext: [configure](configure.md), then [[password-reset|reset a password]].\n`,
  'guides/setup/configure.md': `${note('configure')}\nBack to [install](./install.md#more-on-install).\n`,
  'guides/password-reset.md': `${note('password')}\nSee [[readme]] and \`[[not a link]]\`.\n`,
  'ops/backup.md': `${note('backup')}\n[restore](../ops/restore.md) and [[Missing]].\n`,
  'ops/restore.md': note('restore'),
  'readme.md': note('readme'),
};

const START = 'guides/setup/install.md';

interface GraphJson {
  start_path: string;
  nodes: { node_id: number; parent_id: number | null; path: string }[];
  edges: { source: string; target: string; kind: string }[];
  truncated: boolean;
  truncation: { reason: string; limit: number }[];
  stats: { total_edges: number; duration_ms: number };
}

async function callGraph(kb: KnowledgeBase, args: Record<string, unknown>): Promise<GraphJson> {
  const connected = await connectInMemory(kb);
  try {
    const result = await connected.client.callTool({ name: 'get_connection_graph', arguments: args });
    expect(result.isError, textOf(result)).toBeFalsy();
    return JSON.parse(textOf(result)) as GraphJson;
  } finally {
    await connected.close();
  }
}

const edgeList = (graph: GraphJson) => graph.edges.map((e) => `${e.source} -${e.kind}-> ${e.target}`);

describe('get_connection_graph on a hybrid index', () => {
  let serveKb: ServeKb;
  let kb: KnowledgeBase;
  beforeAll(async () => {
    serveKb = createServeKb({ files: LINKED_NOTES });
    kb = openTestKb(serveKb);
    await kb.index();
  });
  afterAll(async () => {
    await kb.close();
    serveKb.cleanup();
  });

  it('lists the note links from and to the start, and among the graph’s documents, beside the similarity tree', async () => {
    const graph = await callGraph(kb, {
      start: START,
      depth: 2,
      fan_out: 5,
      min_similarity: 0,
      max_nodes: 50,
    });
    expect(graph.nodes.some((node) => node.parent_id !== null)).toBe(true);
    const inGraph = new Set(graph.nodes.map((node) => node.path));
    expect(inGraph.has('readme.md') && inGraph.has('guides/password-reset.md')).toBe(true);
    expect(edgeList(graph)).toEqual(
      expect.arrayContaining([
        'guides/setup/configure.md -markdown-> guides/setup/install.md',
        'guides/setup/install.md -markdown-> guides/setup/configure.md',
        'guides/setup/install.md -wikilink-> guides/password-reset.md',
        // Between two documents of the graph, neither the start.
        'guides/password-reset.md -wikilink-> readme.md',
      ]),
    );
    for (const edge of graph.edges) {
      const touchesStart = edge.source === START || edge.target === START;
      expect(touchesStart || (inGraph.has(edge.source) && inGraph.has(edge.target))).toBe(true);
    }
    expect(graph.stats.total_edges).toBe(graph.edges.length);
  });
});

describe('groove graph and get_connection_graph on a lexical-only index', () => {
  let serveKb: ServeKb;
  let kb: KnowledgeBase;
  const graphArgs = (extra: string[] = []) => [
    'graph',
    START,
    '--kb-path',
    serveKb.kbPath,
    '--db-path',
    serveKb.dbPath,
    ...extra,
  ];
  beforeAll(async () => {
    serveKb = createServeKb({ files: LINKED_NOTES, model: 'none' });
    kb = openTestKb(serveKb);
    await kb.index();
  });
  afterAll(async () => {
    await kb.close();
    serveKb.cleanup();
  });

  it('answers with the seeds and the start’s links, the same JSON on both surfaces', async () => {
    const fromMcp = await callGraph(kb, { start: START });
    expect(edgeList(fromMcp)).toEqual([
      'guides/setup/configure.md -markdown-> guides/setup/install.md',
      'guides/setup/install.md -wikilink-> guides/password-reset.md',
      'guides/setup/install.md -markdown-> guides/setup/configure.md',
    ]);
    expect(fromMcp.truncation.map((cut) => cut.reason)).toEqual(['no_vectors']);
    const cli = await runGroove(graphArgs(), { cwd: serveKb.root });
    expect(cli.code, cli.stderr).toBe(0);
    const fromCli = JSON.parse(cli.stdout) as GraphJson;
    const untimed = (graph: GraphJson) => ({ ...graph, stats: { ...graph.stats, duration_ms: 0 } });
    expect(untimed(fromCli)).toEqual(untimed(fromMcp));
  });

  it('applies the neighbour filters to the other end and cuts the start’s links at max_nodes', async () => {
    const excluded = await callGraph(kb, { start: START, exclude_paths: ['guides/setup/'] });
    expect(edgeList(excluded)).toEqual(['guides/setup/install.md -wikilink-> guides/password-reset.md']);
    const cut = await callGraph(kb, { start: START, max_nodes: 1 });
    expect(cut.edges).toHaveLength(1);
    expect(cut.truncation).toContainEqual(expect.objectContaining({ reason: 'link_budget', limit: 1 }));
  });

  it('draws the links in text, DOT and Mermaid', async () => {
    const text = await runGroove(graphArgs(['--format', 'text']), { cwd: serveKb.root });
    expect(text.stdout).toContain('links:\n');
    expect(text.stdout).toContain('  → guides/setup/configure.md  (markdown)\n');
    expect(text.stdout).toContain('  → guides/password-reset.md  (wikilink)\n');
    expect(text.stdout).toContain('  ← guides/setup/configure.md  (markdown)\n');
    expect(text.stdout).toMatch(/, 3 link edges, /);
    const dot = await runGroove(graphArgs(['--format', 'dot']), { cwd: serveKb.root });
    expect(dot.stdout.match(/style=dashed/g)).toHaveLength(3);
    expect(dot.stdout).toContain('[label="guides/password-reset.md", shape=note];');
    const mermaid = await runGroove(graphArgs(['--format', 'mermaid']), { cwd: serveKb.root });
    expect(mermaid.stdout.match(/ -\.->\|(markdown|wikilink)\| /g)).toHaveLength(3);
  });
});
