// `groove graph` output: the connection graph as an indented tree (text), Graphviz DOT or a Mermaid flowchart.
// Similarity edges are the node tree (solid, labelled with the score); note links are dashed, labelled with their
// kind, between the first node of each document (a linked document outside the tree gets a node of its own).
// Every label is escaped for its format, so a path or heading cannot break out of its node.
import { type ConnectionGraph, displayLine, type GraphNode } from '../app/index.js';

function labelOf(node: GraphNode): string {
  return node.heading ? `${node.path} › ${node.heading}` : node.path;
}

/**
 * One line per node, children indented under their parent, with the similarity to the parent. Seed chunks that
 * read the same (several chunks of one section, or of a document without headings) share one seed line.
 */
export function renderGraphText(graph: ConnectionGraph): string {
  const children = childrenByParent(graph.nodes);
  const lines: string[] = [];
  const visit = (node: GraphNode, indent: string) => {
    lines.push(`${indent}${displayLine(labelOf(node))}  (${node.score.toFixed(3)})`);
    for (const child of children.get(node.nodeId) ?? []) visit(child, `${indent}  `);
  };
  const seedsByLabel = new Map<string, GraphNode[]>();
  for (const root of children.get(null) ?? []) {
    const label = labelOf(root);
    seedsByLabel.set(label, [...(seedsByLabel.get(label) ?? []), root]);
  }
  for (const [label, seeds] of seedsByLabel) {
    lines.push(`${displayLine(label)}  (seed)`);
    for (const seed of seeds) for (const child of children.get(seed.nodeId) ?? []) visit(child, '  ');
  }
  if (graph.edges.length > 0) lines.push('links:');
  for (const edge of graph.edges) {
    const kind = `  (${edge.kind})`;
    if (edge.source === graph.startPath) lines.push(`  → ${displayLine(edge.target)}${kind}`);
    else if (edge.target === graph.startPath) lines.push(`  ← ${displayLine(edge.source)}${kind}`);
    else lines.push(`  ${displayLine(edge.source)} → ${displayLine(edge.target)}${kind}`);
  }
  const { stats } = graph;
  lines.push(
    `${stats.totalNodes} nodes, ${stats.totalEdges} link edges, depth ${stats.maxDepthReached}, ${stats.knnQueries} neighbour queries, ${stats.durationMs.toFixed(0)} ms`,
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
  const ids = documentIds(graph);
  for (const [path, id] of ids.extra) lines.push(`  ${id} [label=${dotString(path)}, shape=note];`);
  for (const node of graph.nodes) {
    if (node.parentId !== null)
      lines.push(`  n${node.parentId} -> n${node.nodeId} [label=${dotString(node.score.toFixed(3))}];`);
  }
  for (const edge of graph.edges) {
    const [from, to] = [ids.of(edge.source), ids.of(edge.target)];
    lines.push(`  ${from} -> ${to} [label=${dotString(edge.kind)}, style=dashed];`);
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
  const ids = documentIds(graph);
  for (const [path, id] of ids.extra) lines.push(`  ${id}[${mermaidLabel(path)}]`);
  for (const node of graph.nodes) {
    if (node.parentId !== null)
      lines.push(`  n${node.parentId} -->|${node.score.toFixed(3)}| n${node.nodeId}`);
  }
  for (const edge of graph.edges)
    lines.push(`  ${ids.of(edge.source)} -.->|${edge.kind}| ${ids.of(edge.target)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The drawing id of each document a link edge names: its first node (`n<id>`), or a node of its own (`d<k>`,
 * in `extra`, in the order the edges name them) when the tree has none.
 */
function documentIds(graph: ConnectionGraph): { extra: Map<string, string>; of(path: string): string } {
  const first = new Map<string, string>();
  for (const node of graph.nodes) if (!first.has(node.path)) first.set(node.path, `n${node.nodeId}`);
  const extra = new Map<string, string>();
  for (const edge of graph.edges) {
    for (const path of [edge.source, edge.target])
      if (!first.has(path) && !extra.has(path)) extra.set(path, `d${extra.size}`);
  }
  return { extra, of: (path) => first.get(path) ?? extra.get(path)! };
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
