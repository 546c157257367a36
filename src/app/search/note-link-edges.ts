// The graph hop's written edges: links between indexed notes (Markdown links and [[wikilinks]]) as graph edges
// of kind `link`, weight 1. The edge is followed both ways: a hit pulls in the notes it links to and the notes
// that link to it.
import type { GraphEdge } from '../../core/graph-hop.js';
import type { SearchReader } from '../../store/chunk-search.js';

/**
 * Every stored link touching any of `paths`. Links are not parsed or stored yet, so there are none: INTEGRATION
 * POINT — when the store gains `readLinkEdges(paths) → {source, target, kind: 'markdown' | 'wikilink'}[]`, add it
 * to SearchReader and return
 * `reader.readLinkEdges(paths).map((e) => ({ source: e.source, target: e.target, kind: 'link', weight: 1 }))`.
 * Everything downstream ([search.graph] links, the hop, expanded_from, eval's graph rows) already uses it.
 */
export function noteLinkEdgesFor(_reader: SearchReader, _paths: readonly string[]): GraphEdge[] {
  return [];
}
