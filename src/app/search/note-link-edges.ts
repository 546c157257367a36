// The graph hop's written edges: links between indexed notes (Markdown links and [[wikilinks]]) as graph edges
// of kind `link`, weight 1. The edge is followed both ways: a hit pulls in the notes it links to and the notes
// that link to it.
import type { GraphEdge } from '../../rank/graph-hop.js';
import type { SearchReader } from '../../store/chunk-search.js';

/**
 * Every stored link touching any of `paths`, resolved to indexed documents when read (a Markdown link and a
 * wikilink between the same two notes are one edge).
 */
export function noteLinkEdgesFor(reader: SearchReader, paths: readonly string[]): GraphEdge[] {
  const seen = new Set<string>();
  const edges: GraphEdge[] = [];
  for (const link of reader.readLinkEdges(paths)) {
    const key = `${link.source}\u0000${link.target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push({ source: link.source, target: link.target, kind: 'link', weight: 1 });
  }
  return edges;
}
