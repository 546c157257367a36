// The MCP server over several knowledge bases (`groove serve --kb a --kb b …`): the one-KB server's tools, each
// taking an optional `kb`, plus `list_kbs`. `search` ranks the chosen KBs as one corpus and every hit names its
// KB; a path-addressed tool finds the KB holding the path, or needs `kb` when several hold it. Each KB's
// resources carry its name (`kb://doc/<kb>/…`, kb-uri.ts). get_best_practice is a one-KB tool: not offered here.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import {
  connectionGraphToJson,
  indexSummaryToJson,
  isServedExtension,
  type ServedKbs,
  type ServingKb,
  searchResponseToJson,
  topicListingToJson,
} from '../app/index.js';
import { docUri } from './kb-uri.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { errorResult, jsonResult, runTool } from './server.js';
import { SessionTaskUsage } from './task-usage.js';
import {
  CONNECTION_GRAPH_TOOL,
  GET_DOCUMENT_TOOL,
  LIST_TOPICS_TOOL,
  REBUILD_INDEX_TOOL,
  SEARCH_TOOL,
} from './tool-descriptions.js';
import {
  RECORD_FEEDBACK_ANNOTATIONS,
  RECORD_FEEDBACK_TOOL,
  recordFeedbackInput,
  recordFeedbackOf,
} from './tool-record-feedback.js';
import {
  connectionGraphInput,
  getDocumentInput,
  listTopicsInput,
  manySearchInput,
  rebuildIndexInput,
  type SearchInput,
  toGraphRequest,
  toSearchRequest,
  withKb,
} from './tool-schemas.js';

export interface ManyKbServerOptions {
  served: ServedKbs;
  version: string;
  log: (line: string) => void;
}

/** The resource listing the served KBs (list_kbs as a resource). */
export const KBS_URI = 'kb://kbs';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

function instructions(names: readonly string[]): string {
  return (
    `groove searches ${names.length} local knowledge bases of Markdown/text notes (${names.join(', ')}). ` +
    'Start with `search` (hybrid keyword + semantic; every KB unless you pass `kb`); cite results by their ' +
    "`kb` and `path`; `confidence` (0–1) is the share of the query's distinctive words the top hit holds: " +
    'when `low_confidence` is true, say the knowledge bases may not answer the question. `list_kbs` shows what each KB holds. Use `get_document` to read a whole file found by search ' +
    '(pass the hit’s `kb`), `list_topics` to see what the KBs cover, and `get_connection_graph` to find ' +
    'related notes. Documents are also resources (kb://doc/<kb>/…).'
  );
}

/** A new McpServer over every served KB (one per client session; they share the served KBs). */
export function createManyKbServer(options: ManyKbServerOptions): McpServer {
  const { served, log } = options;
  const names = served.names();
  const server = new McpServer(
    { name: 'groove', version: options.version },
    { instructions: instructions(names) },
  );
  const guard = (tool: string, work: () => Promise<CallToolResult>) => runTool(tool, work, log);
  const usage = new SessionTaskUsage();
  const note = ` Several KBs are served (${names.join(', ')}); pass \`kb\` to choose one.`;

  server.registerTool(
    'list_kbs',
    {
      title: 'List the served knowledge bases',
      description:
        'The knowledge bases this server serves: {kbs:[{name, kb_path, health, problem, documents, chunks, model, ' +
        'last_indexed_at}]}. health "folder missing" = its folder was missing or unreadable when the server ' +
        'started: it is not searched, its index is kept. health "removed" = it was removed from the KB registry ' +
        'while served: it is not searched, its index is closed.',
      inputSchema: z.strictObject({}),
      annotations: READ_ONLY,
    },
    () => guard('list_kbs', async () => jsonResult({ kbs: await served.summaries() })),
  );
  server.registerResource(
    'knowledge-bases',
    KBS_URI,
    {
      title: 'The served knowledge bases',
      description: 'What list_kbs answers: every served KB with its folder, health and counts, as JSON.',
      mimeType: 'application/json',
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ kbs: await served.summaries() }),
        },
      ],
    }),
  );

  server.registerTool(
    'search',
    {
      ...SEARCH_TOOL,
      description: `${SEARCH_TOOL.description} Every hit carries \`kb\`, the KB it came from; \`skipped\` lists served KBs that could not be searched (folder missing, or removed from the registry).`,
      inputSchema: manySearchInput(names),
      annotations: READ_ONLY,
    },
    (input) =>
      guard('search', async () => {
        const { kb: selector, ...request } = input as SearchInput & { kb?: string | string[] };
        const { response, skipped } = await served.search(selector, toSearchRequest(request));
        for (const entry of served.serving()) {
          const paths = response.results.filter((hit) => hit.kb === entry.name).map((hit) => hit.path);
          usage.served(entry.kb, request.task_id, paths);
        }
        const json = withDocumentUris(searchResponseToJson(response), served.serving());
        if (skipped.length === 0) return jsonResult(json);
        return jsonResult({ ...json, skipped: skipped.map((kb) => ({ kb: kb.name, problem: kb.problem })) });
      }),
  );

  server.registerTool(
    'get_document',
    {
      ...GET_DOCUMENT_TOOL,
      description: `${GET_DOCUMENT_TOOL.description} The answer carries \`kb\`.${note}`,
      inputSchema: withKb(getDocumentInput, names),
      annotations: READ_ONLY,
    },
    (input) =>
      guard('get_document', async () => {
        const holds = async (entry: ServingKb) => (await entry.kb.getDocument(input.path)).ok;
        const [entry] = await served.resolve(input.kb, holds);
        if (!entry)
          return errorResult(`get_document: no served KB (${names.join(', ')}) holds "${input.path}"`);
        const result = await entry.kb.getDocument(input.path);
        if (result.ok) usage.fetched(entry.kb, input.task_id, input.path);
        return result.ok
          ? jsonResult({ kb: entry.name, ...result.document })
          : errorResult(`get_document: ${result.message}`);
      }),
  );

  server.registerTool(
    'list_topics',
    {
      ...LIST_TOPICS_TOOL,
      description: `${LIST_TOPICS_TOOL.description} Returns {kbs:[{kb, categories…}]}, one per served KB (or the one named by \`kb\`).`,
      inputSchema: withKb(listTopicsInput, names),
      annotations: READ_ONLY,
    },
    (input) =>
      guard('list_topics', async () => {
        const chosen = input.kb === undefined ? served.serving() : [served.one(input.kb)];
        const kbs = [];
        for (const entry of chosen)
          kbs.push({ kb: entry.name, ...topicListingToJson(await entry.kb.listTopics()) });
        return jsonResult({ kbs });
      }),
  );

  server.registerTool(
    'rebuild_index',
    {
      ...REBUILD_INDEX_TOOL,
      description: `${REBUILD_INDEX_TOOL.description} Returns {kbs:[{kb, …counts}]}: every served KB, or the one named by \`kb\`.`,
      inputSchema: withKb(rebuildIndexInput, names),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (input) =>
      guard('rebuild_index', async () => {
        const chosen = input.kb === undefined ? served.serving() : [served.one(input.kb)];
        const kbs = [];
        for (const entry of chosen) {
          const summary = await entry.runner.rebuild({ force: input.force });
          log(
            `rebuild_index: ${entry.name} done in ${summary.durationMs} ms (${summary.documents} documents)`,
          );
          kbs.push({ kb: entry.name, ...indexSummaryToJson(summary) });
        }
        return jsonResult({ kbs });
      }),
  );

  server.registerTool(
    'get_connection_graph',
    {
      ...CONNECTION_GRAPH_TOOL,
      description: `${CONNECTION_GRAPH_TOOL.description} The graph stays within the start document’s KB, named in \`kb\`.${note}`,
      inputSchema: withKb(connectionGraphInput, names),
      annotations: READ_ONLY,
    },
    (input) =>
      guard('get_connection_graph', async () => {
        const holds = async (entry: ServingKb) => (await entry.kb.getDocument(input.start)).ok;
        const [entry] = await served.resolve(input.kb, holds);
        if (!entry)
          return errorResult(
            `get_connection_graph: no served KB (${names.join(', ')}) holds "${input.start}"`,
          );
        const result = await entry.kb.connectionGraph(toGraphRequest(input));
        return result.ok
          ? jsonResult({ kb: entry.name, ...connectionGraphToJson(result.graph) })
          : errorResult(`get_connection_graph: ${result.message}`);
      }),
  );

  const budgets = new Map(served.serving().map((entry) => [entry.name, entry.kb.newFeedbackBudget()]));
  server.registerTool(
    'record_feedback',
    {
      ...RECORD_FEEDBACK_TOOL,
      description: `${RECORD_FEEDBACK_TOOL.description} The judgments are stored in one KB: the one named by \`kb\`, else the only served KB holding the first item's path.${note}`,
      inputSchema: withKb(recordFeedbackInput, names),
      annotations: RECORD_FEEDBACK_ANNOTATIONS,
    },
    (input) =>
      guard('record_feedback', async () => {
        const first = input.items[0]!.path;
        const holds = async (entry: ServingKb) => (await entry.kb.getDocument(first)).ok;
        const [entry] = await served.resolve(input.kb, holds);
        if (!entry)
          return errorResult(`record_feedback: no served KB (${names.join(', ')}) holds "${first}"; pass kb`);
        const payload = await recordFeedbackOf(entry.kb, input, budgets.get(entry.name)!);
        return jsonResult({ kb: entry.name, ...payload });
      }),
  );

  registerPrompts(server, undefined, names);
  for (const entry of served.serving()) registerResources(server, entry.kb, { log, usage, name: entry.name });
  return server;
}

/** Hits carry the kb://doc/<kb>/ address of their document when its KB still serves that extension. */
function withDocumentUris(
  json: Record<string, unknown>,
  serving: readonly ServingKb[],
): Record<string, unknown> {
  const extensions = new Map(serving.map((entry) => [entry.name, entry.kb.config.parsers.extensions]));
  const results = (json.results as { path: string; kb: string }[]).map((hit) =>
    isServedExtension(hit.path, extensions.get(hit.kb) ?? [])
      ? { ...hit, uri: docUri(hit.path, hit.kb) }
      : hit,
  );
  return { ...json, results };
}
