// The graph drawings escape every label for their format: a path or heading with quotes, brackets or line
// breaks stays inside its node.
import { describe, expect, it } from 'vitest';
import type { ConnectionGraph, GraphNode } from '../../src/app/index.js';
import { renderGraphDot, renderGraphMermaid, renderGraphText } from '../../src/cli/render-graph.js';

function node(nodeId: number, parentId: number | null, path: string, heading: string | null): GraphNode {
  return {
    nodeId,
    parentId,
    depth: parentId === null ? 0 : 1,
    chunkId: nodeId,
    score: 0.5,
    path,
    heading,
    title: path,
    topic: null,
    snippet: '',
  };
}

const hostile: ConnectionGraph = {
  startPath: 'a "b".md',
  truncated: false,
  truncation: [],
  nodes: [node(1, null, 'a "b".md', 'x\ny'), node(2, 1, 'c\\d].md', '[z] | #w <q>')],
  edges: [],
  stats: { totalNodes: 2, totalEdges: 0, maxDepthReached: 1, knnQueries: 1, durationMs: 1, seedsUsed: 1 },
};

/** The same tree with note links: to a node of the tree, to a document outside it, and into the start. */
const linked: ConnectionGraph = {
  ...hostile,
  edges: [
    { source: 'a "b".md', target: 'c\\d].md', kind: 'markdown' },
    { source: 'a "b".md', target: 'out"side\n.md', kind: 'wikilink' },
    { source: 'in[1].md', target: 'a "b".md', kind: 'wikilink' },
    { source: 'c\\d].md', target: 'out"side\n.md', kind: 'markdown' },
  ],
  stats: { ...hostile.stats, totalEdges: 4 },
};

describe('graph drawings', () => {
  it('DOT: quotes, backslashes and line breaks are escaped inside string literals', () => {
    const dot = renderGraphDot(hostile);
    expect(dot).toContain('n1 [label="a \\"b\\".md › x\\ny"];');
    expect(dot).toContain('n2 [label="c\\\\d].md › [z] | #w <q>"];');
    expect(dot).toContain('n1 -> n2 [label="0.500"];');
    expect(dot.split('\n').filter((line) => /^ {2}n\d/.test(line)).length).toBe(3);
  });

  it('Mermaid: markup characters become entity codes and line breaks spaces', () => {
    const mermaid = renderGraphMermaid(hostile);
    expect(mermaid).toContain('n1["a #34;b#34;.md › x y"]');
    expect(mermaid).toContain('n2["c\\d#93;.md › #91;z#93; #124; #35;w #60;q#62;"]');
    expect(mermaid).toContain('n1 -->|0.500| n2');
  });

  it('text: children are indented under their parent and control characters are shown, not written', () => {
    const lines = renderGraphText(hostile).split('\n');
    expect(lines[0]).toMatch(/^a "b"\.md › x.*y {2}\(seed\)$/);
    expect(lines[0]).not.toContain('\n');
    expect(lines[1]?.startsWith('  c\\d].md')).toBe(true);
    expect(lines[2]).toBe('2 nodes, 0 link edges, depth 1, 1 neighbour queries, 1 ms');
  });
});

describe('graph text with several seed chunks', () => {
  it('prints a seed line once for chunks that read the same, their neighbours under it', () => {
    const graph: ConnectionGraph = {
      ...hostile,
      startPath: 'notes/plain.txt',
      nodes: [
        node(1, null, 'notes/plain.txt', null),
        node(2, null, 'notes/plain.txt', null),
        node(3, null, 'notes/plain.txt', 'Part two'),
        node(4, 1, 'a.md', null),
        node(5, 2, 'b.md', 'B'),
        node(6, 3, 'c.md', null),
      ],
      stats: { ...hostile.stats, totalNodes: 6, seedsUsed: 3 },
    };
    expect(renderGraphText(graph).split('\n').slice(0, 6)).toEqual([
      'notes/plain.txt  (seed)',
      '  a.md  (0.500)',
      '  b.md › B  (0.500)',
      'notes/plain.txt › Part two  (seed)',
      '  c.md  (0.500)',
      '6 nodes, 0 link edges, depth 1, 1 neighbour queries, 1 ms',
    ]);
  });
});

describe('graph drawings with note links', () => {
  it('DOT: dashed edges between each document’s first node, a note-shaped node for a document outside the tree', () => {
    const dot = renderGraphDot(linked);
    expect(dot).toContain('d0 [label="out\\"side\\n.md", shape=note];');
    expect(dot).toContain('d1 [label="in[1].md", shape=note];');
    expect(dot).toContain('n1 -> n2 [label="markdown", style=dashed];');
    expect(dot).toContain('n1 -> d0 [label="wikilink", style=dashed];');
    expect(dot).toContain('d1 -> n1 [label="wikilink", style=dashed];');
    expect(dot).toContain('n2 -> d0 [label="markdown", style=dashed];');
    expect(dot).toContain('n1 -> n2 [label="0.500"];');
  });

  it('Mermaid: dotted arrows labelled with the kind, escaped labels for the extra documents', () => {
    const mermaid = renderGraphMermaid(linked);
    expect(mermaid).toContain('d0["out#34;side .md"]');
    expect(mermaid).toContain('d1["in#91;1#93;.md"]');
    expect(mermaid).toContain('n1 -.->|wikilink| d0');
    expect(mermaid).toContain('d1 -.->|wikilink| n1');
    expect(mermaid).toContain('n1 -->|0.500| n2');
  });

  it('text: links out of and into the start, then the others, each with its kind', () => {
    const lines = renderGraphText(linked).split('\n');
    expect(lines.slice(2, 7)).toEqual([
      'links:',
      '  → c\\d].md  (markdown)',
      expect.stringMatching(/^ {2}→ out"side.+\.md {2}\(wikilink\)$/),
      '  ← in[1].md  (wikilink)',
      expect.stringMatching(/^ {2}c\\d\]\.md → out"side.+\.md {2}\(markdown\)$/),
    ]);
    expect(lines.join('\n')).not.toContain('side\n.md');
    expect(lines[7]).toBe('2 nodes, 4 link edges, depth 1, 1 neighbour queries, 1 ms');
  });
});
