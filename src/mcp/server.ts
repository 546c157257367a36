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
import { SessionTaskUsage } from './task-usage.js';
import { registerBestPracticeTool } from './tool-best-practice.js';
import {
  CONNECTION_GRAPH_TOOL,
  GET_DOCUMENT_TOOL,
  LIST_TOPICS_TOOL,
  REBUILD_INDEX_TOOL,
  SEARCH_TOOL,
} from './tool-descriptions.js';
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
    "semantic); cite results by their `path`; `confidence` (0–1) is the share of the query's distinctive " +
    'words the top hit holds: when `low_confidence` is true, say the knowledge base may not answer the ' +
    'question, and check the results before using them. Use `get_document` to read a whole file found by search, ' +
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
  const usage = new SessionTaskUsage();

  server.registerTool(
    'search',
    {
      ...SEARCH_TOOL,
      inputSchema: searchInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guard('search', async () => {
        const response = await kb.search(toSearchRequest(input));
        usage.served(
          kb,
          input.task_id,
          response.results.map((hit) => hit.path),
        );
        return jsonResult(withDocumentUris(searchResponseToJson(response), kb.config.parsers.extensions));
      }),
  );

  server.registerTool(
    'get_document',
    {
      ...GET_DOCUMENT_TOOL,
      inputSchema: getDocumentInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guard('get_document', async () => {
        const result = await kb.getDocument(input.path);
        if (result.ok) usage.fetched(kb, input.task_id, input.path);
        return result.ok
          ? jsonResult({ ...result.document })
          : errorResult(`get_document: ${result.message}`);
      }),
  );

  server.registerTool(
    'list_topics',
    {
      ...LIST_TOPICS_TOOL,
      inputSchema: listTopicsInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => guard('list_topics', async () => jsonResult(topicListingToJson(await kb.listTopics()))),
  );

  server.registerTool(
    'rebuild_index',
    {
      ...REBUILD_INDEX_TOOL,
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
      ...CONNECTION_GRAPH_TOOL,
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
  registerResources(server, kb, { log: options.log, usage });
  return server;
}

export async function runTool(
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

export function jsonResult(payload: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
