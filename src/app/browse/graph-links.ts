// The document-level edges of the connection graph: the links written in the notes (Markdown links and
// wikilinks) and the co-helpful pairs learned from judgments (documents judged helped in the same task), each
// from or to the start document, or between documents already in the graph. The similarity edges are the node
// tree itself (`parentId`, `score`).
import type { LinkKind } from '../../types.js';
import type { SessionView } from '../search/index.js';

/** What an edge of `edges` stands for; similarity edges are the node tree, not listed here. */
export type GraphEdgeKind = LinkKind | 'co_helpful';

export interface GraphEdge {
  /** Path of the document the edge starts at (the note a link is written in; for co_helpful, either one). */
  source: string;
  /** Path of the document it points to. */
  target: string;
  kind: GraphEdgeKind;
  /** co_helpful only: the learned weight C / (C + 0.1), C the decayed count of tasks judging both helped. */
  weight?: number;
}

export interface GraphLinksInput {
  startPath: string;
  /** Paths of the documents the graph's nodes belong to (the start included). */
  nodePaths: ReadonlySet<string>;
  /** Whether a document may appear as a neighbour (the request's filters and exclusions). */
  isAllowed(path: string): boolean;
  /** At most this many edges touching the start document (the rest are counted as cut). */
  maxStartEdges: number;
}

/**
 * Edges touching the start document whose other end is an allowed neighbour (at most `maxStartEdges`, in the
 * order readLinkEdges gives), then every edge between two documents of the graph. One store read.
 */
export function collectGraphLinks(
  view: SessionView,
  input: GraphLinksInput,
): { edges: GraphEdge[]; startEdgesCut: boolean } {
  const { startPath, nodePaths } = input;
  const all = view.reader.readLinkEdges([...new Set([startPath, ...nodePaths])]);
  const touchingStart = all.filter((edge) => {
    if (edge.source !== startPath && edge.target !== startPath) return false;
    return input.isAllowed(edge.source === startPath ? edge.target : edge.source);
  });
  const between = all.filter(
    (edge) =>
      edge.source !== startPath &&
      edge.target !== startPath &&
      nodePaths.has(edge.source) &&
      nodePaths.has(edge.target),
  );
  const learned = coHelpfulEdges(view, input);
  const fromStart = [...touchingStart.map(asLinkEdge), ...learned.touchingStart];
  const kept = fromStart.slice(0, input.maxStartEdges);
  return {
    edges: [...kept, ...between.map(asLinkEdge), ...learned.between],
    startEdgesCut: fromStart.length > kept.length,
  };
}

function asLinkEdge(edge: { source: string; target: string; kind: LinkKind }): GraphEdge {
  return { source: edge.source, target: edge.target, kind: edge.kind };
}

/** The co-helpful pairs touching the start (other end allowed) and those within the graph, each pair once. */
function coHelpfulEdges(view: SessionView, input: GraphLinksInput) {
  const { startPath, nodePaths } = input;
  const seen = new Set<string>();
  const touchingStart: GraphEdge[] = [];
  const between: GraphEdge[] = [];
  for (const edge of view.learned().coHelpful.edgesFor([startPath, ...nodePaths])) {
    const pair = [edge.source, edge.target].sort().join('\u0000');
    if (seen.has(pair)) continue;
    const entry: GraphEdge = {
      source: edge.source,
      target: edge.target,
      kind: 'co_helpful',
      weight: edge.weight,
    };
    if (edge.source === startPath || edge.target === startPath) {
      if (!input.isAllowed(edge.source === startPath ? edge.target : edge.source)) continue;
      touchingStart.push(entry);
    } else if (nodePaths.has(edge.source) && nodePaths.has(edge.target)) {
      between.push(entry);
    } else continue;
    seen.add(pair);
  }
  return { touchingStart, between };
}
