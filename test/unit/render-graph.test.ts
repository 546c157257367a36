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
  stats: { totalNodes: 2, maxDepthReached: 1, knnQueries: 1, durationMs: 1, seedsUsed: 1 },
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
    expect(lines[2]).toBe('2 nodes, depth 1, 1 neighbour queries, 1 ms');
  });
});
