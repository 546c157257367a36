// get_connection_graph: a breadth-first walk over vector neighbours from one document's chunks, bounded by depth,
// fan-out and a node budget, plus the note links from, to and among its documents (graph-links.ts), reporting
// every place where something was cut off and how to see more.
import * as z from 'zod';
import { resolveNoteLink } from '../../document/resolve-note-link.js';
import { GrooveError } from '../../errors.js';
import type { VectorIndex } from '../../store/vector-index.js';
import type { ChunkRecord, DocumentFacts } from '../../types.js';
import type { SessionView } from '../search/index.js';
import { collectGraphLinks, type GraphEdge } from './graph-links.js';

const MAX_LIST_ENTRIES = 64;
const MAX_ENTRY_BYTES = 1024;
const SNIPPET_CHARS = 200;

/** The request schema, built on first use (constructing it costs milliseconds a search does not need). */
function buildGraphRequestSchema() {
  return z.strictObject({
    start: z.string().min(1),
    depth: z.number().int().min(1).max(3).default(2),
    fanOut: z.number().int().min(1).max(20).default(5),
    minSimilarity: z.number().refine(Number.isFinite, 'must be finite').min(0).max(1).default(0.5),
    maxNodes: z.number().int().min(1).max(500).default(50),
    dedupByPath: z.boolean().default(true),
    excludePaths: z
      .array(z.string().refine((s) => Buffer.byteLength(s) <= MAX_ENTRY_BYTES, 'entry over 1 KiB'))
      .max(MAX_LIST_ENTRIES)
      .default([]),
    seedStrategy: z.enum(['all_chunks', 'all-chunks', 'centroid']).default('all_chunks'),
    maxSeedChunks: z.number().int().min(1).max(64).default(8),
    category: z.string().min(1).optional(),
    topic: z.string().min(1).optional(),
  });
}

let graphRequestSchema: ReturnType<typeof buildGraphRequestSchema> | null = null;

export type GraphRequest = z.input<ReturnType<typeof buildGraphRequestSchema>>;
type ValidGraphRequest = z.output<ReturnType<typeof buildGraphRequestSchema>>;

export interface GraphNode {
  nodeId: number;
  /** The node whose neighbour this is; null for seeds. */
  parentId: number | null;
  depth: number;
  /** null for the centroid seed, which is an average rather than a stored chunk. */
  chunkId: number | null;
  /** Similarity to the parent in [0, 1] (1 for seeds). */
  score: number;
  path: string;
  heading: string | null;
  title: string;
  topic: string | null;
  snippet: string;
}

export interface GraphTruncation {
  /**
   * `seed_chunks`: the start has more chunks than seeds; `node_budget`: `max_nodes` reached; `link_budget`: the
   * start has more link edges than `max_nodes`; `no_vectors`: the index has no vectors, so no similarity
   * neighbours were looked for (`limit` 0).
   */
  reason: 'seed_chunks' | 'node_budget' | 'link_budget' | 'no_vectors';
  limit: number;
  remedy: string;
}

export interface ConnectionGraph {
  startPath: string;
  truncated: boolean;
  truncation: GraphTruncation[];
  nodes: GraphNode[];
  /** Document-level edges written in the notes, each with its kind (see graph-links.ts). */
  edges: GraphEdge[];
  stats: {
    totalNodes: number;
    totalEdges: number;
    maxDepthReached: number;
    knnQueries: number;
    durationMs: number;
    seedsUsed: number;
  };
}

export type GraphResult =
  | { ok: true; graph: ConnectionGraph }
  | { ok: false; reason: 'not-found' | 'no-vectors'; message: string };

const NO_VECTORS_REMEDY =
  'the index has no vectors (lexical-only, built with model "none"), so only the note links are shown; ' +
  're-index with an embedding model (`groove index --force --model <id>`) to follow vector similarity too';
const NOT_EMBEDDED_REMEDY =
  'the index has no vectors yet, so only the note links are shown; run rebuild_index (or let the running ' +
  'index finish) and ask again';

interface Frontier {
  node: GraphNode;
  vector: Float32Array;
}

/**
 * Stages: validate → resolve the start document and the allowed neighbours (filters, exclusions, never the start)
 * → seeds (its first `max_seed_chunks` chunks, or their centroid) → BFS: one exact KNN per expanded node, keep
 * neighbours at or above `min_similarity`, at most `fan_out` each, until `depth` or `max_nodes` → the note links
 * from and to the start (at most `max_nodes`) and among the graph's documents. An index without vectors gets the
 * seeds and the links, and a `no_vectors` truncation saying why there are no neighbours.
 */
export function buildConnectionGraph(view: SessionView, input: GraphRequest): GraphResult {
  const startedAt = performance.now();
  const request = validateGraphRequest(input);
  const facts = view.reader.readDocumentFacts();
  const start = findStart(facts, request.start);
  if (!start) {
    return {
      ok: false,
      reason: 'not-found',
      message: `start "${request.start}" is not an indexed document; pass the "path" of a search result or a note's name`,
    };
  }
  const allowedDocs = facts.filter((doc) => isAllowedNeighbour(doc, start, request));
  const allowed = new Set(allowedDocs.map((d) => d.id));
  const truncation: GraphTruncation[] = [];
  const probe = view.reader.readDocumentChunks(start.id, request.maxSeedChunks + 1);
  if (probe.length > request.maxSeedChunks) {
    truncation.push({
      reason: 'seed_chunks',
      limit: request.maxSeedChunks,
      remedy: 'raise max_seed_chunks (up to 64), or use seed_strategy "centroid" to summarise them',
    });
  }
  const seedChunks = probe.slice(0, request.maxSeedChunks);
  const index = view.lexicalOnly ? null : view.vectors();
  const similarity = index
    ? walkSimilarity(view, { index, request, allowed, seedChunks, truncation })
    : seedsOnly(view, { request, seedChunks, truncation });
  if (!similarity) {
    return {
      ok: false,
      reason: 'no-vectors',
      message: `"${request.start}" has no embedded chunks yet; run rebuild_index and try again`,
    };
  }
  const { nodes } = similarity;
  const allowedPaths = new Set(allowedDocs.map((d) => d.path));
  const links = collectGraphLinks(view, {
    startPath: start.path,
    nodePaths: new Set(nodes.map((node) => node.path)),
    isAllowed: (path) => allowedPaths.has(path),
    maxStartEdges: request.maxNodes,
  });
  if (links.startEdgesCut) {
    truncation.push({
      reason: 'link_budget',
      limit: request.maxNodes,
      remedy:
        'raise max_nodes (up to 500) to see more of the start document’s links, or narrow them with exclude_paths, category or topic',
    });
  }
  return {
    ok: true,
    graph: {
      startPath: start.path,
      truncated: truncation.length > 0,
      truncation,
      nodes,
      edges: links.edges,
      stats: {
        totalNodes: nodes.length,
        totalEdges: links.edges.length,
        maxDepthReached: nodes.reduce((max, node) => Math.max(max, node.depth), 0),
        knnQueries: similarity.knnQueries,
        durationMs: Math.round(performance.now() - startedAt),
        seedsUsed: similarity.seedsUsed,
      },
    },
  };
}

interface SimilarityWalk {
  nodes: GraphNode[];
  knnQueries: number;
  seedsUsed: number;
}

/** Seeds and their vector neighbours; null when none of the seed chunks has a vector yet. */
function walkSimilarity(
  view: SessionView,
  input: {
    index: VectorIndex;
    request: ValidGraphRequest;
    allowed: Set<number>;
    seedChunks: ChunkRecord[];
    truncation: GraphTruncation[];
  },
): SimilarityWalk | null {
  const { index, request, allowed, truncation } = input;
  const seedChunks = input.seedChunks.flatMap((chunk) => {
    const vector = index.vectorOf(chunk.id);
    return vector ? [{ chunk, vector }] : [];
  });
  if (seedChunks.length === 0) return null;
  const nodes: GraphNode[] = [];
  const frontier = buildSeeds(seedChunks, request, nodes);
  const walk = walkNeighbours(view, { index, request, allowed, nodes, frontier });
  const seedsCut = request.seedStrategy !== 'centroid' && seedChunks.length > request.maxNodes;
  if (walk.budgetHit || seedsCut) {
    truncation.push({
      reason: 'node_budget',
      limit: request.maxNodes,
      remedy: 'raise max_nodes (up to 500), or lower depth or fan_out for a narrower graph',
    });
  }
  return { nodes, knnQueries: walk.knnQueries, seedsUsed: seedsCut ? request.maxNodes : seedChunks.length };
}

/** Without vectors: the seed nodes alone (the same ones a hybrid index would start from), and why. */
function seedsOnly(
  view: SessionView,
  input: { request: ValidGraphRequest; seedChunks: ChunkRecord[]; truncation: GraphTruncation[] },
): SimilarityWalk {
  const { request, truncation } = input;
  input.truncation.push({
    reason: 'no_vectors',
    limit: 0,
    remedy: view.lexicalOnly ? NO_VECTORS_REMEDY : NOT_EMBEDDED_REMEDY,
  });
  const nodes = input.seedChunks.length === 0 ? [] : seedNodes(input.seedChunks, request);
  if (request.seedStrategy !== 'centroid' && input.seedChunks.length > request.maxNodes) {
    truncation.push({
      reason: 'node_budget',
      limit: request.maxNodes,
      remedy: 'raise max_nodes (up to 500), or use seed_strategy "centroid" for one seed',
    });
  }
  return { nodes, knnQueries: 0, seedsUsed: Math.min(nodes.length, request.maxNodes) };
}

/** Validate a graph request or throw INVALID_ARGUMENT naming the field and its range. */
export function validateGraphRequest(input: unknown): ValidGraphRequest {
  graphRequestSchema ??= buildGraphRequestSchema();
  const parsed = graphRequestSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? 'request').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  throw new GrooveError('INVALID_ARGUMENT', `invalid get_connection_graph call: ${field} ${issue.message}`, {
    hint: 'depth 1-3, fan_out 1-20, min_similarity 0-1, max_nodes 1-500, max_seed_chunks 1-64',
  });
}

function isAllowedNeighbour(doc: DocumentFacts, start: DocumentFacts, request: ValidGraphRequest): boolean {
  if (doc.id === start.id) return false;
  if (request.category !== undefined && doc.category !== request.category) return false;
  if (request.topic !== undefined && doc.topic !== request.topic) return false;
  // An entry ending in "/" excludes a folder; any other entry one exact path.
  return !request.excludePaths.some((entry) =>
    entry.endsWith('/') ? doc.path.startsWith(entry) : doc.path === entry,
  );
}

function buildSeeds(
  seeds: { chunk: ChunkRecord; vector: Float32Array }[],
  request: ValidGraphRequest,
  nodes: GraphNode[],
): Frontier[] {
  const seedList = seedNodes(
    seeds.map((seed) => seed.chunk),
    request,
  );
  nodes.push(...seedList);
  if (request.seedStrategy === 'centroid')
    return [{ node: seedList[0]!, vector: averageUnit(seeds.map((s) => s.vector)) }];
  return seedList.map((node, i) => ({ node, vector: seeds[i]!.vector }));
}

/** The seed nodes: one per chunk (at most `max_nodes`), or one for the centroid (no chunk, no heading). */
function seedNodes(chunks: readonly ChunkRecord[], request: ValidGraphRequest): GraphNode[] {
  const seed = (chunk: ChunkRecord, nodeId: number) =>
    toNode(chunk, { nodeId, parentId: null, depth: 0, score: 1 });
  if (request.seedStrategy !== 'centroid') return chunks.slice(0, request.maxNodes).map(seed);
  const node = seed(chunks[0]!, 0);
  node.chunkId = null;
  node.heading = null;
  return [node];
}

function walkNeighbours(
  view: SessionView,
  walk: {
    index: VectorIndex;
    request: ValidGraphRequest;
    allowed: Set<number>;
    nodes: GraphNode[];
    frontier: Frontier[];
  },
): { knnQueries: number; budgetHit: boolean } {
  const { index, request, allowed, nodes, frontier } = walk;
  const quality = view.config.qualityFilter;
  const minQuality = quality.enabled ? quality.threshold : 0;
  const seenChunks = new Set(nodes.flatMap((n) => (n.chunkId === null ? [] : [n.chunkId])));
  let knnQueries = 0;
  let budgetHit = false;
  // Several chunks of one document can fill a KNN page; ask for more when only one per document may stay.
  const k = request.dedupByPath ? request.fanOut * 4 : request.fanOut;
  for (let cursor = 0; cursor < frontier.length && !budgetHit; cursor++) {
    const { node, vector } = frontier[cursor]!;
    if (node.depth >= request.depth) continue;
    knnQueries++;
    const hits = index.search(vector, { k, minQuality, documentIds: allowed, excluded: seenChunks });
    const records = new Map(view.reader.readChunkRecords(hits.map((h) => h.id)).map((r) => [r.id, r]));
    let added = 0;
    for (const hit of hits) {
      // Vectors are unit length, so the dot product is 1 − d²/2; clamp rounding noise into [0, 1].
      const score = Math.min(1, Math.max(0, hit.similarity));
      if (added >= request.fanOut || score < request.minSimilarity) break;
      const record = records.get(hit.id);
      if (!record || (request.dedupByPath && !allowed.has(record.documentId))) continue;
      if (nodes.length >= request.maxNodes) {
        budgetHit = true;
        break;
      }
      const child = toNode(record, {
        nodeId: nodes.length,
        parentId: node.nodeId,
        depth: node.depth + 1,
        score,
      });
      nodes.push(child);
      seenChunks.add(record.id);
      if (request.dedupByPath) allowed.delete(record.documentId);
      const childVector = index.vectorOf(record.id);
      if (childVector) frontier.push({ node: child, vector: childVector });
      added++;
    }
  }
  return { knnQueries, budgetHit };
}

function toNode(
  record: ChunkRecord,
  place: { nodeId: number; parentId: number | null; depth: number; score: number },
): GraphNode {
  const flat = record.content.replace(/\s+/g, ' ').trim();
  return {
    nodeId: place.nodeId,
    parentId: place.parentId,
    depth: place.depth,
    chunkId: record.id,
    score: place.score,
    path: record.path,
    heading: record.heading,
    title: record.title,
    topic: record.topic,
    snippet: flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS - 1)}…` : flat,
  };
}

/** The mean of unit vectors, renormalised to unit length (the centroid seed). */
function averageUnit(vectors: Float32Array[]): Float32Array {
  const sum = new Float32Array(vectors[0]!.length);
  for (const vector of vectors) for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + vector[i]!;
  const norm = Math.hypot(...sum) || 1;
  for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! / norm;
  return sum;
}

/**
 * The start document: the exact path, else the note `start` names as an Obsidian link would (`Embed files`,
 * `Embed files.md`, `[[Embed files]]`, `guides/Embed files`): the same rules as a wikilink written at the KB root.
 */
function findStart(facts: readonly DocumentFacts[], start: string): DocumentFacts | undefined {
  const exact = facts.find((doc) => doc.path === start);
  if (exact) return exact;
  const name = /^\[\[(.+)\]\]$/.exec(start.trim())?.[1] ?? start.trim();
  const target = name.split('|')[0]!.split('#')[0]!.trim();
  if (target === '') return undefined;
  const path = resolveNoteLink(
    { source: '', kind: 'wikilink', target, anchored: false },
    facts.map((doc) => doc.path),
  );
  return path === null ? undefined : facts.find((doc) => doc.path === path);
}
