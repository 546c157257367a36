// The MCP server over one KnowledgeBase: seven tools (search, get_document, list_topics, rebuild_index,
// get_connection_graph, record_feedback, get_best_practice), four prompts and the kb:// resources. Every tool
// failure becomes an `isError` result saying how to fix the call.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { IndexRunner, KnowledgeBase } from '../app/index.js';
import {
  connectionGraphToJson,
  indexSummaryToJson,
  isServedExtension,
  searchResponseToJson,
  topicListingToJson,
} from '../app/index.js';
import { describeError, isGrooveError } from '../errors.js';
import { docUri } from './kb-uri.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerBestPracticeTool } from './tool-best-practice.js';
import { registerRecordFeedbackTool } from './tool-record-feedback.js';
import {
  connectionGraphInput,
  getDocumentInput,
  listTopicsInput,
  rebuildIndexInput,
  searchInput,
  toGraphRequest,
  toSearchRequest,
} from './tool-schemas.js';

export interface GrooveServerOptions {
  kb: KnowledgeBase;
  runner: IndexRunner;
  version: string;
  /** One line to stderr (never stdout: under stdio that is the protocol). */
  log: (line: string) => void;
}

/** What the server tells agents; `get_best_practice` is named only when it is configured (and so offered). */
function instructions(bestPractice: boolean): string {
  return (
    'groove searches a local knowledge base of Markdown/text notes. Start with `search` (hybrid keyword + ' +
    'semantic); cite results by their `path`; when `low_confidence` is true or results look off, say the ' +
    'knowledge base may not cover the question. Use `get_document` to read a whole file found by search, ' +
    '`list_topics` to see what the knowledge base covers, ' +
    (bestPractice
      ? '`get_connection_graph` to find related notes, and `get_best_practice` for the best-practice document ' +
        'kept for a target. '
      : 'and `get_connection_graph` to find related notes. ') +
    'Documents are also resources (kb://doc/…).'
  );
}

/** A new McpServer with groove's tools (one per client session; they all share the one KnowledgeBase). */
export function createGrooveServer(options: GrooveServerOptions): McpServer {
  const { kb, runner } = options;
  // A tool that could only answer "not configured" is not offered.
  const bestPractice = kb.config.bestPractice.pathTemplates.length > 0;
  const server = new McpServer(
    { name: 'groove', version: options.version },
    { instructions: instructions(bestPractice) },
  );
  const guard = (tool: string, work: () => Promise<CallToolResult>) => runTool(tool, work, options.log);

  server.registerTool(
    'search',
    {
      title: 'Search the knowledge base',
      description:
        'Hybrid search (word-level BM25 + vector similarity, fused by RRF) over the indexed notes. Returns ' +
        '{results:[{score,path,title,heading,line_start,line_end,topic,date,tags,content,match_spans}], ' +
        'low_confidence, filter_applied, legs}. `content` is the matching chunk, at lines line_start–line_end ' +
        'of its file (null when unknown); `match_spans` are UTF-8 byte offsets of the ' +
        'words in it that match the query terms. `legs` gives each leg {status: ok|empty|partial|failed|disabled, candidates, error?} ' +
        '("disabled" vector = no embedding model; "partial"/"failed" = that leg broke, results are incomplete; ' +
        'a vector leg "partial" with coverage {embedded, chunks} = the index is still embedding, keyword results are complete). ' +
        'Filters narrow the documents before ranking, so a filtered search still fills `limit` when it can. ' +
        'No results but `hidden_by_quality: {count, min_quality, hint}` = the quality filter hid that many keyword ' +
        'matches; search again with include_low_quality: true to see them. ' +
        '`boost` raises documents agents judged helped (record_feedback); `graph` pulls in documents linked ' +
        'to a top hit or judged helped in the same task, each with `expanded_from: {kind: link|co_helpful, ' +
        'path, heading?}` naming that hit. `fold` (section|document) keeps one hit per section or document, ' +
        "refilling the list; a kept hit's `folded` counts the lower hits it stands for.",
      inputSchema: searchInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guard('search', async () => {
        const response = await kb.search(toSearchRequest(input));
        return jsonResult(withDocumentUris(searchResponseToJson(response), kb.config.parsers.extensions));
      }),
  );

  server.registerTool(
    'get_document',
    {
      title: 'Read one document',
      description:
        'The full text of one indexed document, by the exact `path` a search result or graph node gave. ' +
        'Returns {path,title,date,topic,tags,content,extracted,truncated}; for a PDF or Office file content is ' +
        'the extracted text (extracted: true, a "#" line per page, sheet or slide). Only indexed files are ' +
        'served: no absolute paths, "..", symbolic or hard links, and nothing over 1 MiB of text.',
      inputSchema: getDocumentInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guard('get_document', async () => {
        const result = await kb.getDocument(input.path);
        return result.ok
          ? jsonResult({ ...result.document })
          : errorResult(`get_document: ${result.message}`);
      }),
  );

  server.registerTool(
    'list_topics',
    {
      title: 'List topics',
      description:
        'What the knowledge base covers: groups of documents by category (first folder) and topic, each with ' +
        'file_count, last_updated (latest frontmatter date), up to 20 titles and the folders below it. Use ' +
        'the category or topic names as search filters.',
      inputSchema: listTopicsInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => guard('list_topics', async () => jsonResult(topicListingToJson(await kb.listTopics()))),
  );

  server.registerTool(
    'rebuild_index',
    {
      title: 'Rebuild the index',
      description:
        'Bring the index up to date with the files on disk and return counts (documents, chunks, updated, ' +
        'renamed, deleted, skipped, duration_ms). Rarely needed: the server already follows file changes ' +
        'unless started with --no-watch. One rebuild at a time; a second call is refused while one runs. ' +
        'Searches keep answering during a rebuild.',
      inputSchema: rebuildIndexInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (input) =>
      guard('rebuild_index', async () => {
        const summary = await runner.rebuild({ force: input.force });
        options.log(`rebuild_index: done in ${summary.durationMs} ms (${summary.documents} documents)`);
        return jsonResult(indexSummaryToJson(summary));
      }),
  );

  server.registerTool(
    'get_connection_graph',
    {
      title: 'Related-notes graph',
      description:
        'Notes related to one document, found by following vector similarity breadth-first: the start ' +
        'document’s chunks are seeds; each node’s nearest neighbours (similarity ≥ min_similarity, at most ' +
        'fan_out) become its children, up to `depth` hops and `max_nodes` nodes. `edges` lists the links ' +
        'written in the notes (Markdown links and [[wikilinks]]) from and to the start document and between ' +
        'the graph’s documents, by path, each with its `kind`. Returns {start_path, nodes:[{node_id,parent_id,' +
        'depth,score,path,heading,title,snippet}], edges:[{source,target,kind}], truncated, truncation:[{reason,' +
        'limit,remedy}], stats}. On an index without vectors only the seeds and the links are returned.',
      inputSchema: connectionGraphInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guard('get_connection_graph', async () => {
        const result = await kb.connectionGraph(toGraphRequest(input));
        return result.ok
          ? jsonResult(connectionGraphToJson(result.graph))
          : errorResult(`get_connection_graph: ${result.message}`);
      }),
  );

  registerRecordFeedbackTool(server, { kb, guard });
  if (bestPractice) registerBestPracticeTool(server, { kb, guard });
  registerPrompts(server);
  registerResources(server, kb, options.log);
  return server;
}

async function runTool(
  tool: string,
  work: () => Promise<CallToolResult>,
  log: (line: string) => void,
): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    // Our own errors carry a hint on how to fix the call; anything else is a bug worth a log line.
    // One line; the stack only when asked for with GROOVE_DEBUG=1.
    if (!isGrooveError(error)) {
      const stack = process.env.GROOVE_DEBUG && error instanceof Error ? `\n${error.stack}` : '';
      log(`${tool}: unexpected error: ${describeError(error)}${stack}`);
    }
    return errorResult(`${tool} failed: ${describeError(error)}`);
  }
}

/** MCP search hits carry the kb://doc/ address of their document when it is still served. */
function withDocumentUris(
  json: Record<string, unknown>,
  enabled: readonly string[],
): Record<string, unknown> {
  const results = (json.results as { path: string }[]).map((hit) =>
    isServedExtension(hit.path, enabled) ? { ...hit, uri: docUri(hit.path) } : hit,
  );
  return { ...json, results };
}

function jsonResult(payload: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
