// The document-level edges of the connection graph: the links written in the notes (Markdown links and
// wikilinks) from or to the start document, and those between documents already in the graph. The similarity
// edges are the node tree itself (`parentId`, `score`).
import type { LinkKind } from '../../types.js';
import type { SessionView } from '../search/index.js';

/** What an edge of `edges` stands for; similarity edges are the node tree, not listed here. */
export type GraphEdgeKind = LinkKind;

export interface GraphEdge {
  /** Path of the document the edge starts at (the note a link is written in). */
  source: string;
  /** Path of the document it points to. */
  target: string;
  kind: GraphEdgeKind;
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
  const kept = touchingStart.slice(0, input.maxStartEdges);
  return {
    edges: [...kept, ...between].map((edge) => ({
      source: edge.source,
      target: edge.target,
      kind: edge.kind,
    })),
    startEdgesCut: touchingStart.length > kept.length,
  };
}
