// The MCP tools' input schemas (zod, strict: a misspelt argument is an error, not silently dropped) with the
// descriptions an LLM caller reads, and the mapping from the snake_case wire names to the app's requests.
import * as z from 'zod';
import { searchWireSchema } from '../app/index.js';
import { fromWireKeys, type SearchWireRequest } from '../config/search-params.js';
import { taskIdInput } from './task-usage.js';

const unit = (name: string) =>
  z.number().min(0, `${name} must be between 0 and 1`).max(1, `${name} must be between 0 and 1`);

/** The arguments the `search` tool takes beyond the search parameter table: the server's, not the search's. */
export const SEARCH_SERVER_ARGUMENTS = ['task_id'] as const;

/**
 * The `search` tool's input: generated from the search parameter table (snake_case, strict, described), plus
 * the `task_id` the served documents are counted under.
 */
export const searchInput = (searchWireSchema() as unknown as z.ZodObject<z.ZodRawShape>).extend({
  task_id: taskIdInput,
} satisfies Record<(typeof SEARCH_SERVER_ARGUMENTS)[number], unknown>) as unknown as z.ZodType<SearchInput>;

export type SearchInput = SearchWireRequest & { task_id?: string };

/** The app's search request (camelCase) from the tool arguments; `task_id` is the server's, not the search's. */
export function toSearchRequest(input: SearchInput): Record<string, unknown> {
  const { task_id: _taskId, ...request } = input;
  return fromWireKeys(request);
}

export const getDocumentInput = z.strictObject({
  path: z
    .string()
    .min(1, 'path must not be empty')
    .describe(
      'The document path exactly as a search result or graph node spells it (relative to the knowledge base, ' +
        '"/" between folders, case-sensitive), e.g. "guides/password-reset.md".',
    ),
  task_id: taskIdInput,
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
    .describe(
      'Node budget for the whole graph (1-500, default 50), and the most link edges kept from and to the start; ' +
        '`truncation` says when either was reached.',
    ),
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

/** `kb` on a tool of a server that serves several KBs: one served KB's name. */
function oneKb(names: readonly string[]) {
  return z
    .string()
    .min(1, 'kb must not be empty')
    .optional()
    .describe(
      `The served KB the path belongs to (${names.join(', ')}); needed only when the path exists in more than one.`,
    );
}

/** A tool's schema with the `kb` argument a server of several KBs adds (the schema stays strict). */
export function withKb<T extends z.ZodRawShape>(schema: z.ZodObject<T>, names: readonly string[]) {
  return schema.extend({ kb: oneKb(names) });
}

/** The `search` tool's input on a server of several KBs: the generated schema plus `kb` (a name or a list). */
export function manySearchInput(names: readonly string[]) {
  const name = z.string().min(1, 'kb must not be empty');
  const kb = z
    .union([
      name,
      z.array(name).min(1, 'kb must list at least one KB when given (omit it to search every KB)'),
    ])
    .optional()
    .describe(
      `Which served KB or KBs to search (${names.join(', ')}): a name or a list of names; default every one. ` +
        'Several are ranked as one corpus; each hit carries `kb`.',
    );
  return (searchInput as unknown as z.ZodObject<z.ZodRawShape>).extend({ kb });
}
