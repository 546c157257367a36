// The graph hop: which documents connected to the top hits are pulled into the results, and where they go.
// Edges are undirected (a note, the notes it links to and the notes linking to it; co-helpful pairs), and
// come from a port, so the rule does not care whether they were written in the notes or learned.
//
//   pulled score = weight × parent score × edge weight   (0 ≤ weight ≤ 1, 0 < edge weight ≤ 1)
//
// A pulled-in document never outscores its parent, and at an equal score it is placed after every hit a leg
// found. In ranks: fused scores are ~1/(rrf_k + rank), so a factor f = weight × edge weight puts a document
// pulled in from the rank-r hit where a single leg's rank (rrf_k + r) / f − rrf_k would (from the top hit with
// rrf_k 60: f = 1 right behind it, 0.91 about six ranks lower, 0.5 about sixty).
//
// Every (parent, neighbour) pair is scored; best first, each neighbour is credited to the parent that scores it
// highest, and a parent adds at most `maxAddedPerHit`. A document already in the results, or one that cannot be
// served (filtered out, no chunk left after the quality floor and exclusions), is never pulled in. Hop h + 1
// starts from the documents hop h pulled in.

/** One edge between two documents (KB-relative paths). `link`: written in a note; `co_helpful`: learned. */
export interface GraphEdge {
  source: string;
  target: string;
  kind: 'link' | 'co_helpful';
  /** In (0, 1]: links weigh 1; co-helpful edges see co-helpful-edges.ts. */
  weight: number;
}

/** Every edge touching any of `paths`, in either direction. */
export type EdgesFor = (paths: readonly string[]) => GraphEdge[];

/** [search.graph] without its switch. */
export interface GraphParams {
  /** 1 – 3 hops. */
  hops: number;
  /** 1 – 20 documents per parent. */
  maxAddedPerHit: number;
  /** 0 – 1. */
  weight: number;
  /** Follow links written in the notes. */
  links: boolean;
  /** Follow documents judged helped in the same task. */
  coHelpful: boolean;
}

export interface HopParent {
  path: string;
  heading: string | null;
  score: number;
}

export interface PulledDocument {
  path: string;
  /** The chunk served for it (the resolver's choice). */
  chunkId: number;
  heading: string | null;
  score: number;
  hop: number;
  from: { path: string; heading: string | null };
  kind: GraphEdge['kind'];
  edgeWeight: number;
  parentScore: number;
}

export interface GraphHopOptions {
  hops: number;
  maxAddedPerHit: number;
  weight: number;
  /** Documents already in the results: never pulled in. */
  present: ReadonlySet<string>;
  /** The chunk to serve for a document, or null when it cannot be served. */
  resolve: (path: string) => { chunkId: number; heading: string | null } | null;
}

interface Candidate {
  parent: HopParent;
  parentIndex: number;
  neighbour: string;
  edge: GraphEdge;
  score: number;
}

/** Pull in documents connected to `parents` (best first), hop by hop. */
export function planGraphHop(
  parents: readonly HopParent[],
  edgesFor: EdgesFor,
  options: GraphHopOptions,
): PulledDocument[] {
  const taken = new Set(options.present);
  const unservable = new Set<string>();
  const pulled: PulledDocument[] = [];
  let frontier: readonly HopParent[] = parents;
  for (let hop = 1; hop <= options.hops && frontier.length > 0; hop++) {
    const candidates = scoreCandidates(frontier, edgesFor(frontier.map((p) => p.path)), options.weight);
    const added = new Map<number, number>();
    const next: HopParent[] = [];
    for (const c of candidates) {
      if (taken.has(c.neighbour) || unservable.has(c.neighbour)) continue;
      if ((added.get(c.parentIndex) ?? 0) >= options.maxAddedPerHit) continue;
      const served = options.resolve(c.neighbour);
      if (!served) {
        unservable.add(c.neighbour);
        continue;
      }
      taken.add(c.neighbour);
      added.set(c.parentIndex, (added.get(c.parentIndex) ?? 0) + 1);
      pulled.push({
        path: c.neighbour,
        chunkId: served.chunkId,
        heading: served.heading,
        score: c.score,
        hop,
        from: { path: c.parent.path, heading: c.parent.heading },
        kind: c.edge.kind,
        edgeWeight: c.edge.weight,
        parentScore: c.parent.score,
      });
      next.push({ path: c.neighbour, heading: served.heading, score: c.score });
    }
    frontier = next;
  }
  return pulled;
}

/**
 * Each parent's neighbours with the strongest edge to them (a link before a co-helpful edge of equal weight),
 * scored, best first; ties by parent rank, then path.
 */
function scoreCandidates(frontier: readonly HopParent[], edges: readonly GraphEdge[], weight: number) {
  const index = new Map(frontier.map((p, i) => [p.path, i]));
  const best = new Map<string, Candidate>();
  for (const edge of edges) {
    for (const [from, to] of [
      [edge.source, edge.target],
      [edge.target, edge.source],
    ] as const) {
      const parentIndex = index.get(from);
      if (parentIndex === undefined || from === to || !(edge.weight > 0)) continue;
      const key = `${parentIndex}\u0000${to}`;
      const current = best.get(key);
      if (current && !isStronger(edge, current.edge)) continue;
      const parent = frontier[parentIndex]!;
      best.set(key, { parent, parentIndex, neighbour: to, edge, score: weight * parent.score * edge.weight });
    }
  }
  return [...best.values()].sort(
    (a, b) =>
      b.score - a.score ||
      a.parentIndex - b.parentIndex ||
      (a.neighbour < b.neighbour ? -1 : a.neighbour > b.neighbour ? 1 : 0),
  );
}

function isStronger(edge: GraphEdge, than: GraphEdge): boolean {
  if (edge.weight !== than.weight) return edge.weight > than.weight;
  return edge.kind === 'link' && than.kind !== 'link';
}
