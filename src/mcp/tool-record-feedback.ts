// The MCP tool `record_feedback`: when an agent finishes a task it marks each item it was served as helped,
// noise or wrong. The marks are stored in the index file and later become the golden set groove measures
// itself with (`groove eval golden build --from-feedback`).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { KnowledgeBase } from '../app/index.js';

type JudgmentBudget = ReturnType<KnowledgeBase['newFeedbackBudget']>;

export const recordFeedbackInput = z.strictObject({
  task_id: z
    .string()
    .min(1, 'task_id must not be empty')
    .max(256, 'task_id is at most 256 characters')
    .describe(
      'Your stable id for the task (e.g. the issue or ticket id). Recording the same task again later, from ' +
        'another session, replaces nothing but counts once in the golden set.',
    ),
  query: z
    .string()
    .min(1, 'query must not be empty')
    .describe(
      'The search query the items were served for (at most 1024 bytes); it becomes the golden query.',
    ),
  items: z
    .array(
      z.strictObject({
        path: z.string().min(1, 'path must not be empty').describe('The `path` a search result gave.'),
        heading: z
          .string()
          .optional()
          .describe(
            'The result’s `heading`, when the judgment is about that section rather than the whole file.',
          ),
        verdict: z
          .enum(['helped', 'noise', 'wrong'])
          .describe('helped = you used it; noise = irrelevant; wrong = misleading or outdated.'),
        always_served: z
          .boolean()
          .optional()
          .describe('true for items injected into every task without search (rules, style guides).'),
      }),
    )
    .min(1, 'items must list at least one served item')
    .max(500, 'items takes at most 500 entries')
    .describe('Every item you were served for this task, each with your verdict.'),
});

export type RecordFeedbackInput = z.infer<typeof recordFeedbackInput>;

export const RECORD_FEEDBACK_TOOL = {
  title: 'Record how served items turned out',
  description:
    'Call once when you finish a task that used search results: list every item you were served with ' +
    'verdict helped, noise or wrong (always_served: true for items every task gets). Stored in the ' +
    'index, kept across re-indexing; groove builds its retrieval benchmark from these judgments. Returns ' +
    '{serve_id, task_id, items, helped, not_indexed}; `not_indexed` lists paths (or headings) that are ' +
    'not in the index — check them against the paths search returned. A client may record a limited ' +
    'number of items a minute and the index keeps a limited number in all; past either the call is ' +
    'refused and nothing is stored.',
};

export const RECORD_FEEDBACK_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** Store one task's judgments in `kb` and give the tool's answer. */
export async function recordFeedbackOf(
  kb: KnowledgeBase,
  input: RecordFeedbackInput,
  budget: JudgmentBudget,
): Promise<Record<string, unknown>> {
  const receipt = await kb.recordFeedback(
    {
      taskId: input.task_id,
      query: input.query,
      items: input.items.map((item) => ({
        path: item.path,
        heading: item.heading ?? null,
        verdict: item.verdict,
        alwaysServed: item.always_served === true,
      })),
    },
    { budget },
  );
  return {
    serve_id: receipt.serveId,
    task_id: receipt.taskId,
    items: receipt.items,
    helped: receipt.helped,
    not_indexed: receipt.notIndexed,
  };
}

export interface RecordFeedbackToolOptions {
  kb: KnowledgeBase;
  /** The server's error boundary: turns a thrown error into an isError result that says how to fix the call. */
  guard: (tool: string, work: () => Promise<CallToolResult>) => Promise<CallToolResult>;
}

/**
 * Register `record_feedback` on a groove MCP server. One server serves one client session, so the judgment
 * budget made here ([feedback] judgments_per_minute) is that client's.
 */
export function registerRecordFeedbackTool(server: McpServer, options: RecordFeedbackToolOptions): void {
  const { kb, guard } = options;
  const budget = kb.newFeedbackBudget();
  server.registerTool(
    'record_feedback',
    {
      ...RECORD_FEEDBACK_TOOL,
      inputSchema: recordFeedbackInput,
      annotations: RECORD_FEEDBACK_ANNOTATIONS,
    },
    (input) =>
      guard('record_feedback', async () => {
        const payload = await recordFeedbackOf(kb, input, budget);
        return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
      }),
  );
}
