// The browse feature's public surface: other features and the facade import only this file.

export {
  type BestPractice,
  type BestPracticeRequest,
  type BestPracticeResult,
  getBestPractice,
} from './best-practice.js';
export { connectionGraphToJson, topicListingToJson } from './browse-json.js';
export {
  buildConnectionGraph,
  type ConnectionGraph,
  type GraphNode,
  type GraphRequest,
  type GraphResult,
} from './connection-graph.js';
export { type DocumentGroup, type GroupMember, listDocumentGroups, membersOf } from './document-groups.js';
export { type GetDocumentResult, getDocument, isServedExtension } from './get-document.js';
export type { GraphEdge, GraphEdgeKind } from './graph-links.js';
export { listTopics, type TopicListing } from './list-topics.js';
