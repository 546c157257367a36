// One search over several knowledge bases, ranked as one corpus: the one search pipeline (searcher.ts) runs on
// the parts read as one index (combined-reader.ts). Lexical statistics are combined at query time; vector
// similarities of one model are comparable as they are, so a model's snapshots are searched as one; knowledge
// bases embedded by different models each get that model's vector leg, fused by rank (`legs.vectorByModel`).
// One part is the one-KB search itself, its hits labelled with their KB.

import type { LearnedSignals } from '../../rank/learned-signals.js';
import type { VectorHit, VectorSearchOptions } from '../../store/vector-index.js';
import { runBudgetedSearch } from './budgeted-search.js';
import type { VectorLegSource, VectorSnapshot } from './candidate-legs.js';
import { combineReads, PartIds } from './combined-reader.js';
import type { SessionView } from './search-session.js';
import type { ExpandedFrom, HitExplanation, SearchHit, SearchResponse } from './search-types.js';
import type { SearchContext, SearchOptions } from './searcher.js';

/** One knowledge base of a combined search: its label and its open search session's view. */
export interface SearchPart {
  /** What its hits carry as `kb`: the KB's name, or its root path when it has none. */
  kb: string;
  view: SessionView;
}

export interface CombinedHit extends SearchHit {
  /** The knowledge base the hit came from (its name, or its root path when unnamed). */
  kb: string;
}

export interface CombinedResponse extends Omit<SearchResponse, 'results'> {
  results: CombinedHit[];
}

/** The context the one pipeline searches one part with: exactly the session's own (SearchSession.search). */
function contextOf(view: SessionView): SearchContext {
  return {
    reader: view.reader,
    cache: view.cache,
    config: view.config,
    embedder: view.embedder,
    reranker: view.reranker,
    vectors: () => view.vectors(),
    pendingEmbeddings: () => view.pendingEmbeddings(),
    learned: () => view.learned(),
    linesOf: (record) => view.linesOf(record),
  };
}

/** Best first by similarity, equal similarities by global id; at most `k`. */
function bestHits(hits: VectorHit[], k: number): VectorHit[] {
  hits.sort((a, b) => b.similarity - a.similarity || a.id - b.id);
  return hits.slice(0, k);
}

/** The vector snapshots of the parts `members` (one model) searched as one, in global ids. */
function combineVectors(ids: PartIds, views: readonly SessionView[], members: readonly number[]) {
  return (): VectorSnapshot | null => {
    const snapshots = members.map((part) => ({ part, index: views[part]!.vectors() }));
    if (snapshots.every((s) => s.index === null)) return null;
    return {
      size: snapshots.reduce((sum, s) => sum + (s.index?.size ?? 0), 0),
      search(query: Float32Array, options: VectorSearchOptions): VectorHit[] {
        const filters = ids.splitFilter(options.documentIds ? [...options.documentIds] : null);
        const excluded = ids.split(options.excluded);
        const hits = snapshots.flatMap(({ part, index }) => {
          const documentIds = filters[part]!;
          if (!index || (documentIds !== null && documentIds.length === 0)) return [];
          const own = {
            ...options,
            documentIds: documentIds && new Set(documentIds),
            excluded: new Set(excluded[part]),
          };
          return index.search(query, own).map((hit) => ({ ...hit, id: ids.global(part, hit.id) }));
        });
        return bestHits(hits, Math.floor(options.k));
      },
      vectorOf(global: number): Float32Array | null {
        const entry = snapshots.find((s) => s.part === ids.partOf(global));
        return entry?.index?.vectorOf(ids.localOf(global)) ?? null;
      },
    };
  };
}

/** Each part's judgments, keyed by its qualified paths (boost and co-helpful edges stay within a KB). */
function combineLearned(ids: PartIds, views: readonly SessionView[]): () => LearnedSignals {
  return () => {
    const each = views.map((view) => view.learned());
    const sum = (pick: (signals: LearnedSignals) => number) =>
      each.reduce((total, signals) => total + pick(signals), 0);
    return {
      boost: {
        documents: sum((s) => s.boost.documents),
        evidenceFor: (qualified, heading) => {
          const { part, path } = ids.unqualify(qualified);
          return each[part]?.boost.evidenceFor(path, heading) ?? null;
        },
      },
      coHelpful: {
        edges: sum((s) => s.coHelpful.edges),
        edgesFor: (qualified) =>
          ids.splitPaths(qualified).flatMap((paths, part) =>
            paths.length === 0
              ? []
              : each[part]!.coHelpful.edgesFor(paths).map((edge) => ({
                  ...edge,
                  source: ids.qualify(part, edge.source),
                  target: ids.qualify(part, edge.target),
                })),
          ),
      },
      counts: {
        serves: sum((s) => s.counts.serves),
        items: sum((s) => s.counts.items),
        counted: sum((s) => s.counts.counted),
        alwaysServed: sum((s) => s.counts.alwaysServed),
        pastHorizon: sum((s) => s.counts.pastHorizon),
      },
    };
  };
}

/** The vector legs of the parts: one per embedding model, in the order the parts first name them. */
function vectorLegsOf(
  ids: PartIds,
  views: readonly SessionView[],
): { model: string; legs: VectorLegSource }[] {
  const members = new Map<string, number[]>();
  views.forEach((view, part) => {
    if (!view.embedder) return; // a lexical-only KB is found by the lexical leg alone
    const list = members.get(view.embedder.id) ?? [];
    list.push(part);
    members.set(view.embedder.id, list);
  });
  return [...members].map(([model, parts]) => ({
    model,
    legs: {
      embedder: views[parts[0]!]!.embedder,
      vectors: combineVectors(ids, views, parts),
      pendingEmbeddings: () => parts.reduce((sum, part) => sum + views[part]!.pendingEmbeddings(), 0),
    },
  }));
}

/** The parts as one index: combined reader, the first part's settings and reranker, one vector leg per model. */
function combinedContext(ids: PartIds, views: readonly SessionView[]): SearchContext {
  const [first, ...otherModels] = vectorLegsOf(ids, views);
  return {
    ...combineReads(views),
    config: views[0]!.config,
    reranker: views[0]!.reranker,
    embedder: first?.legs.embedder ?? null,
    vectors: first?.legs.vectors ?? (() => null),
    pendingEmbeddings: first?.legs.pendingEmbeddings,
    learned: combineLearned(ids, views),
    // A record in global terms is read back in its own KB's: its local id and its own path.
    linesOf: (record) =>
      views[ids.partOf(record.id)]!.linesOf({
        ...record,
        id: ids.localOf(record.id),
        path: ids.unqualify(record.path).path,
      }),
    ...(otherModels.length > 0 ? { otherModels } : {}),
  };
}

/** A hit in its own KB's terms: its own chunk id and paths, and which KB it came from. */
function labelHit(ids: PartIds, parts: readonly SearchPart[], hit: SearchHit): CombinedHit {
  const part = ids.partOf(hit.chunkId);
  const ownPath = (path: string) => ids.unqualify(path).path;
  const expandedFrom: ExpandedFrom | undefined =
    hit.expandedFrom && 'path' in hit.expandedFrom
      ? { ...hit.expandedFrom, path: ownPath(hit.expandedFrom.path) }
      : hit.expandedFrom;
  const graph = hit.explain?.graph;
  const explain: HitExplanation | undefined =
    hit.explain && graph
      ? { ...hit.explain, graph: { ...graph, from: { ...graph.from, path: ownPath(graph.from.path) } } }
      : hit.explain;
  return {
    ...hit,
    chunkId: ids.localOf(hit.chunkId),
    ...(expandedFrom ? { expandedFrom } : {}),
    ...(explain ? { explain } : {}),
    kb: parts[part]!.kb,
  };
}

/**
 * Search the parts as one corpus: what one knowledge base holding all their files would return (up to ties),
 * each hit labelled with its KB. One part is searched exactly as its own session searches.
 */
export async function searchParts(
  parts: readonly SearchPart[],
  request: unknown,
  options: SearchOptions = {},
): Promise<CombinedResponse> {
  const ids = new PartIds(parts.length);
  const views = parts.map((part) => part.view);
  const context = parts.length === 1 ? contextOf(views[0]!) : combinedContext(ids, views);
  // A hit's text is looked up in its own KB's file, by its own path.
  const find = views[0]!.newTextLineFinder();
  const firstLine = (hit: SearchHit, text: string) =>
    views[ids.partOf(hit.chunkId)]!.textFirstLine({ ...hit, path: ids.unqualify(hit.path).path }, text, find);
  const response = await runBudgetedSearch(context, request, options, firstLine);
  return { ...response, results: response.results.map((hit) => labelHit(ids, parts, hit)) };
}
