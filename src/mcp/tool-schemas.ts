// The MCP tools' input schemas (zod, strict: a misspelt argument is an error, not silently dropped) with the
// descriptions an LLM caller reads, and the mapping from the snake_case wire names to the app's requests.
import { z } from 'zod';

const filterList = (what: string) =>
  z
    .array(z.string().min(1, `${what} entries must not be empty`))
    .max(64, `${what} takes at most 64 entries`)
    .describe(`${what}; at most 64 entries of at most 1 KiB each`);

const unit = (name: string) =>
  z.number().min(0, `${name} must be between 0 and 1`).max(1, `${name} must be between 0 and 1`);

export const searchInput = z.strictObject({
  query: z
    .string()
    .min(1, 'query must not be empty')
    .describe(
      'What to look for, in natural language or keywords (at most 1024 bytes). "quoted phrases" must match ' +
        'verbatim; -word or -"phrase" excludes chunks containing it. Works for Japanese and other CJK text.',
    ),
  limit: z
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 1000')
    .max(1000, 'limit must be between 1 and 1000')
    .optional()
    .describe('How many results to return (1-1000, default 5). Ask for more only when the first ones miss.'),
  category: z.string().min(1).optional().describe('Only documents whose first folder is exactly this.'),
  topic: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Only documents with this topic (frontmatter `topic`, else the second folder); see list_topics.',
    ),
  path_globs: filterList('Path globs')
    .min(1, 'path_globs must list at least one glob when given (omit it to search everything)')
    .optional()
    .describe(
      'Only paths matching any of these globs, e.g. ["guides/**"]; prefix ! to exclude, e.g. ["!drafts/**"].',
    ),
  tags_any: filterList('Tags').optional().describe('Only documents carrying at least one of these tags.'),
  tags_all: filterList('Tags').optional().describe('Only documents carrying all of these tags.'),
  date_from: z
    .string()
    .optional()
    .describe(
      'Only documents whose frontmatter date is on or after this (YYYY-MM-DD); undated ones drop out.',
    ),
  date_to: z.string().optional().describe('Only documents dated on or before this (YYYY-MM-DD).'),
  min_quality: unit('min_quality')
    .optional()
    .describe('Hide chunks whose quality score is below this (0-1, default 0.3).'),
  include_low_quality: z
    .boolean()
    .optional()
    .describe('Also return low-quality chunks (same as min_quality 0).'),
  rerank: z
    .boolean()
    .optional()
    .describe('Rerank with the cross-encoder when the server has one (default: server setting).'),
  mmr: z
    .boolean()
    .optional()
    .describe('Diversify results (maximal marginal relevance) so one document does not fill them.'),
  mmr_lambda: unit('mmr_lambda')
    .optional()
    .describe('MMR relevance weight, 0-1 (default 0.7; lower = more diverse).'),
  mmr_same_doc_penalty: unit('mmr_same_doc_penalty')
    .optional()
    .describe('MMR penalty for a second chunk of the same document, 0-1 (default 0).'),
  parent_retriever: z
    .boolean()
    .optional()
    .describe('Expand short hits to their neighbouring chunks or the whole short document.'),
  min_confidence_ratio: z
    .number()
    .min(0, 'min_confidence_ratio must be 0 or more (0 turns the flag off)')
    .optional()
    .describe('low_confidence is set when top score / mean score is below this (default 1.5; 0 disables).'),
  explain: z.boolean().optional().describe('Add each hit’s ranks per retrieval leg (for debugging ranking).'),
});

export type SearchInput = z.infer<typeof searchInput>;

/** The app's search request (camelCase) from the tool arguments. */
export function toSearchRequest(input: SearchInput): Record<string, unknown> {
  return {
    query: input.query,
    limit: input.limit,
    category: input.category,
    topic: input.topic,
    pathGlobs: input.path_globs,
    tagsAny: input.tags_any,
    tagsAll: input.tags_all,
    dateFrom: input.date_from,
    dateTo: input.date_to,
    minQuality: input.min_quality,
    includeLowQuality: input.include_low_quality,
    rerank: input.rerank,
    mmr: input.mmr,
    mmrLambda: input.mmr_lambda,
    mmrSameDocPenalty: input.mmr_same_doc_penalty,
    parentRetriever: input.parent_retriever,
    minConfidenceRatio: input.min_confidence_ratio,
    explain: input.explain,
  };
}

export const getDocumentInput = z.strictObject({
  path: z
    .string()
    .min(1, 'path must not be empty')
    .describe(
      'The document path exactly as a search result or graph node spells it (relative to the knowledge base, ' +
        '"/" between folders, case-sensitive), e.g. "guides/password-reset.md".',
    ),
});

export const listTopicsInput = z.strictObject({});

export const rebuildIndexInput = z.strictObject({
  force: z
    .boolean()
    .default(false)
    .describe(
      'false (default): incremental, only changed files are re-read. true: rebuild from scratch into a new ' +
        'file that replaces the index when complete (needed after changing the model or chunking).',
    ),
});

export const connectionGraphInput = z.strictObject({
  start: z
    .string()
    .min(1, 'start must not be empty')
    .describe('Path of the document to start from (as search returns it).'),
  depth: z
    .number()
    .int()
    .min(1, 'depth must be 1, 2 or 3')
    .max(3, 'depth must be 1, 2 or 3')
    .optional()
    .describe('Hops from the start document (1-3, default 2).'),
  fan_out: z
    .number()
    .int()
    .min(1, 'fan_out must be between 1 and 20')
    .max(20, 'fan_out must be between 1 and 20')
    .optional()
    .describe('Neighbours kept per node (1-20, default 5).'),
  min_similarity: unit('min_similarity')
    .optional()
    .describe('Cosine similarity a neighbour needs (0-1, default 0.5).'),
  max_nodes: z
    .number()
    .int()
    .min(1, 'max_nodes must be between 1 and 500')
    .max(500, 'max_nodes must be between 1 and 500')
    .optional()
    .describe('Node budget for the whole graph (1-500, default 50); `truncation` says when it was reached.'),
  dedup_by_path: z.boolean().optional().describe('Keep one node per document (default true).'),
  exclude_paths: z
    .array(z.string().min(1))
    .max(64, 'exclude_paths takes at most 64 entries')
    .optional()
    .describe('Documents never to include: exact paths, or folders written with a trailing "/".'),
  seed_strategy: z
    .enum(['all_chunks', 'all-chunks', 'centroid'])
    .optional()
    .describe(
      '"all_chunks" (default): each of the start document’s first chunks is a seed; "centroid": their average.',
    ),
  max_seed_chunks: z
    .number()
    .int()
    .min(1, 'max_seed_chunks must be between 1 and 64')
    .max(64, 'max_seed_chunks must be between 1 and 64')
    .optional()
    .describe('How many of the start document’s chunks seed the walk (1-64, default 8).'),
  category: z.string().min(1).optional().describe('Only neighbours in this category (first folder).'),
  topic: z.string().min(1).optional().describe('Only neighbours with this topic.'),
});

export type ConnectionGraphInput = z.infer<typeof connectionGraphInput>;

/** The app's graph request (camelCase) from the tool arguments. */
export function toGraphRequest(input: ConnectionGraphInput) {
  return {
    start: input.start,
    depth: input.depth,
    fanOut: input.fan_out,
    minSimilarity: input.min_similarity,
    maxNodes: input.max_nodes,
    dedupByPath: input.dedup_by_path,
    excludePaths: input.exclude_paths,
    seedStrategy: input.seed_strategy,
    maxSeedChunks: input.max_seed_chunks,
    category: input.category,
    topic: input.topic,
  };
}
