// The two stages after fusion that look past a query's text: the boost (documents judged before move by a
// bounded amount, rank/feedback-boost.ts) and the graph hop (documents connected to the top hits are pulled in,
// rank/graph-hop.ts). Both read judgments only through the LearnedSignals they are handed.

import type { BoostParams } from '../../rank/feedback-boost.js';
import { boostOf } from '../../rank/feedback-boost.js';
import { type EdgesFor, type GraphParams, planGraphHop } from '../../rank/graph-hop.js';
import type { LearnedSignals } from '../../rank/learned-signals.js';
import type { ChunkKey, SearchReader } from '../../store/chunk-search.js';
import { noteLinkEdgesFor } from './note-link-edges.js';
import type { HitExplanation } from './search-types.js';
import type { StageClock } from './stage-timings.js';

/** A candidate on its way through the pipeline: chunk id, current score, and why. */
export interface RankedEntry {
  id: number;
  score: number;
  explain: HitExplanation;
  /** Lower-ranked candidates of its section or document folded into it (rank/fold-hits.ts); absent for none. */
  folded?: number;
}

export interface LearnedStageOptions {
  boost: BoostParams | null;
  graph: GraphParams | null;
  /** Results the search returns: the graph hop starts from this many top hits. */
  limit: number;
  rrfK: number;
  minQuality: number;
  documentIds: readonly number[] | null;
  excluded: ReadonlySet<number>;
  /** The judgments' signals, built only when a stage needs them. */
  learned: () => LearnedSignals;
  /** Times each stage that runs (the response's timings_ms). */
  clock?: StageClock;
}

/** Boost, then graph hop, each only when on; with both off the ranking is returned as it came. */
export function applyLearnedStages(
  reader: SearchReader,
  ranked: RankedEntry[],
  options: LearnedStageOptions,
): RankedEntry[] {
  if (!options.boost && !options.graph) return ranked;
  const keys = new Map(reader.readChunkKeys(ranked.map((r) => r.id)).map((k) => [k.id, k]));
  const time = <T>(stage: 'boost' | 'graph', work: () => T): T =>
    options.clock ? options.clock.time(stage, work) : work();
  let out = ranked;
  const { boost, graph } = options;
  if (boost)
    out = time('boost', () =>
      applyBoost(out, keys, options.learned(), { params: boost, rrfK: options.rrfK }),
    );
  if (graph) {
    out = time('graph', () => {
      const edgesFor = graphEdgesFor(reader, graph, options.learned);
      return applyGraphHop(reader, out, keys, { ...options, graph, edgesFor });
    });
  }
  return out;
}

/**
 * score = rrfScore + boost for every candidate, then the same order rule as RRF (score, then chunk id); a
 * candidate nothing judged gets boost 0, so without judgments the order and the scores are unchanged.
 */
export function applyBoost(
  ranked: readonly RankedEntry[],
  keys: ReadonlyMap<number, ChunkKey>,
  learned: LearnedSignals,
  options: { params: BoostParams; rrfK: number },
): RankedEntry[] {
  const boosted = ranked.map((entry) => {
    const key = keys.get(entry.id);
    const evidence = key ? learned.boost.evidenceFor(key.path, key.heading) : null;
    const boost = boostOf(evidence, options.params, options.rrfK);
    return {
      ...entry,
      score: entry.explain.rrfScore + boost,
      explain: { ...entry.explain, boost, boostEvidence: evidence },
    };
  });
  return boosted.sort((a, b) => b.score - a.score || a.id - b.id);
}

/**
 * The graph hop's edges, from each source its switch turns on: links written in the notes, and co-helpful
 * edges from the judgments (built only when asked for).
 */
export function graphEdgesFor(
  reader: SearchReader,
  graph: GraphParams,
  learned: () => LearnedSignals,
): EdgesFor {
  return (paths) => [
    ...(graph.links ? noteLinkEdgesFor(reader, paths) : []),
    ...(graph.coHelpful ? learned().coHelpful.edgesFor(paths) : []),
  ];
}

/**
 * Pull in documents connected to the top `limit` hits and place them by score. The chunk served for a pulled-in
 * document is its best-ranked chunk among the candidates, else its first chunk in document order that passes
 * the quality floor, the request's filters and its exclusions; a document with none is not pulled in.
 */
function applyGraphHop(
  reader: SearchReader,
  ranked: readonly RankedEntry[],
  keys: ReadonlyMap<number, ChunkKey>,
  options: LearnedStageOptions & { graph: GraphParams; edgesFor: EdgesFor },
): RankedEntry[] {
  const top = ranked.slice(0, options.limit);
  const parents = top.flatMap((entry) => {
    const key = keys.get(entry.id);
    return key ? [{ path: key.path, heading: key.heading, score: entry.score }] : [];
  });
  const bestCandidate = new Map<string, RankedEntry>();
  for (const entry of ranked.slice(options.limit)) {
    const key = keys.get(entry.id);
    if (key && !bestCandidate.has(key.path)) bestCandidate.set(key.path, entry);
  }
  const allowed = options.documentIds === null ? null : new Set(options.documentIds);
  const resolve = (path: string) => {
    const candidate = bestCandidate.get(path);
    if (candidate) return { chunkId: candidate.id, heading: keys.get(candidate.id)!.heading };
    const first = reader
      .readDocumentChunkKeys(path, options.minQuality)
      .find((k) => !options.excluded.has(k.id) && (allowed === null || allowed.has(k.documentId)));
    return first ? { chunkId: first.id, heading: first.heading } : null;
  };
  const pulled = planGraphHop(parents, options.edgesFor, {
    hops: options.graph.hops,
    maxAddedPerHit: options.graph.maxAddedPerHit,
    weight: options.graph.weight,
    present: new Set(parents.map((p) => p.path)),
    resolve,
  });
  if (pulled.length === 0) return [...ranked];
  const replaced = new Set(pulled.map((p) => p.chunkId));
  const byId = new Map(ranked.map((r) => [r.id, r]));
  const added = pulled.map((p): RankedEntry => {
    const own = byId.get(p.chunkId);
    const graph = {
      from: p.from,
      kind: p.kind,
      hop: p.hop,
      weight: options.graph.weight,
      parentScore: p.parentScore,
      edgeWeight: p.edgeWeight,
      score: p.score,
    };
    const explain: HitExplanation = own
      ? { ...own.explain, graph }
      : { rrfScore: 0, ranks: {}, lexicalSource: null, graph };
    return { id: p.chunkId, score: p.score, explain };
  });
  // Equal scores: a hit a leg found before a pulled-in one, then chunk id.
  const pulledLast = (r: RankedEntry) => (r.explain.graph ? 1 : 0);
  return [...ranked.filter((r) => !replaced.has(r.id)), ...added].sort(
    (a, b) => b.score - a.score || pulledLast(a) - pulledLast(b) || a.id - b.id,
  );
}
