// `groove graph` output: the connection graph as an indented tree (text), Graphviz DOT or a Mermaid flowchart.
// Every label is escaped for its format, so a path or heading cannot break out of its node.
import { type ConnectionGraph, displayLine, type GraphNode } from '../app/index.js';

function labelOf(node: GraphNode): string {
  return node.heading ? `${node.path} › ${node.heading}` : node.path;
}

/** One line per node, children indented under their parent, with the similarity to the parent. */
export function renderGraphText(graph: ConnectionGraph): string {
  const children = childrenByParent(graph.nodes);
  const lines: string[] = [];
  const visit = (node: GraphNode, indent: string) => {
    const score = node.parentId === null ? 'seed' : node.score.toFixed(3);
    lines.push(`${indent}${displayLine(labelOf(node))}  (${score})`);
    for (const child of children.get(node.nodeId) ?? []) visit(child, `${indent}  `);
  };
  for (const root of children.get(null) ?? []) visit(root, '');
  const { stats } = graph;
  lines.push(
    `${stats.totalNodes} nodes, depth ${stats.maxDepthReached}, ${stats.knnQueries} neighbour queries, ${stats.durationMs.toFixed(0)} ms`,
  );
  for (const cut of graph.truncation)
    lines.push(`truncated (${cut.reason}, limit ${cut.limit}): ${cut.remedy}`);
  return `${lines.join('\n')}\n`;
}

/** A DOT string literal: backslash, quote and line breaks escaped. */
function dotString(text: string): string {
  return `"${text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r?\n|\r/g, '\\n')}"`;
}

export function renderGraphDot(graph: ConnectionGraph): string {
  const lines = [
    `digraph ${dotString(`related to ${graph.startPath}`)} {`,
    '  rankdir=LR;',
    '  node [shape=box];',
  ];
  for (const node of graph.nodes) lines.push(`  n${node.nodeId} [label=${dotString(labelOf(node))}];`);
  for (const node of graph.nodes) {
    if (node.parentId !== null)
      lines.push(`  n${node.parentId} -> n${node.nodeId} [label=${dotString(node.score.toFixed(3))}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** A Mermaid label: quotes and markup characters as entity codes, line breaks as spaces. */
function mermaidLabel(text: string): string {
  const escaped = text.replace(/\r?\n|\r/g, ' ').replace(/[&"<>#[\]{}|`]/g, (ch) => `#${ch.codePointAt(0)};`);
  return `"${escaped}"`;
}

export function renderGraphMermaid(graph: ConnectionGraph): string {
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) lines.push(`  n${node.nodeId}[${mermaidLabel(labelOf(node))}]`);
  for (const node of graph.nodes) {
    if (node.parentId !== null)
      lines.push(`  n${node.parentId} -->|${node.score.toFixed(3)}| n${node.nodeId}`);
  }
  return `${lines.join('\n')}\n`;
}

function childrenByParent(nodes: readonly GraphNode[]): Map<number | null, GraphNode[]> {
  const byParent = new Map<number | null, GraphNode[]>();
  for (const node of nodes) {
    const list = byParent.get(node.parentId) ?? [];
    list.push(node);
    byParent.set(node.parentId, list);
  }
  return byParent;
}
