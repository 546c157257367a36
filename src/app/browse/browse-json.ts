// The wire forms of the browse answers (snake_case, as the MCP tools `list_topics` and `get_connection_graph`
// return them); the domain objects they come from are camelCase.
import type { ConnectionGraph, GraphNode } from './connection-graph.js';
import type { TopicEntry, TopicListing, TopicTreeNode } from './list-topics.js';

type Json = Record<string, unknown>;

export function topicListingToJson(listing: TopicListing): Json {
  return { total_documents: listing.totalDocuments, topics: listing.topics.map(topicEntryToJson) };
}

function topicEntryToJson(entry: TopicEntry): Json {
  return {
    category: entry.category,
    topic: entry.topic,
    file_count: entry.fileCount,
    last_updated: entry.lastUpdated,
    titles: entry.titles,
    more_titles: entry.moreTitles,
    children: entry.children.map(treeNodeToJson),
  };
}

function treeNodeToJson(node: TopicTreeNode): Json {
  return { segment: node.segment, file_count: node.fileCount, children: node.children.map(treeNodeToJson) };
}

export function connectionGraphToJson(graph: ConnectionGraph): Json {
  const { stats } = graph;
  return {
    start_path: graph.startPath,
    truncated: graph.truncated,
    truncation: graph.truncation.map((t) => ({ reason: t.reason, limit: t.limit, remedy: t.remedy })),
    nodes: graph.nodes.map(graphNodeToJson),
    edges: graph.edges.map((edge) => ({
      source: edge.source,
      target: edge.target,
      kind: edge.kind,
      ...(edge.weight === undefined ? {} : { weight: edge.weight }),
    })),
    stats: {
      total_nodes: stats.totalNodes,
      total_edges: stats.totalEdges,
      max_depth_reached: stats.maxDepthReached,
      knn_queries: stats.knnQueries,
      duration_ms: stats.durationMs,
      seeds_used: stats.seedsUsed,
    },
  };
}

function graphNodeToJson(node: GraphNode): Json {
  return {
    node_id: node.nodeId,
    parent_id: node.parentId,
    depth: node.depth,
    chunk_id: node.chunkId,
    score: node.score,
    path: node.path,
    heading: node.heading,
    title: node.title,
    topic: node.topic,
    snippet: node.snippet,
  };
}
