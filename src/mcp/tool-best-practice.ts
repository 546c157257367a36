// The MCP tool `get_best_practice`: the document the configured `[best_practice] path_templates` name for a
// target, or one `## section` of it.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { KnowledgeBase } from '../app/index.js';

export const bestPracticeInput = z.strictObject({
  target: z
    .string()
    .min(1, 'target must not be empty')
    .describe('What the best practice is for (a name such as a language, tool or service; not a path).'),
  category: z
    .string()
    .min(1)
    .optional()
    .describe('Return only this `## section` of the document (case-insensitive).'),
});

interface ToolContext {
  kb: KnowledgeBase;
  guard(tool: string, work: () => Promise<CallToolResult>): Promise<CallToolResult>;
}

export function registerBestPracticeTool(server: McpServer, { kb, guard }: ToolContext): void {
  server.registerTool(
    'get_best_practice',
    {
      title: 'Best practice for a target',
      description:
        'The best-practice document the server is configured to keep for a target (`[best_practice] ' +
        'path_templates` in groove.toml), or one `## section` of it. Returns {target, category?, path, ' +
        'content}.',
      inputSchema: bestPracticeInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guard('get_best_practice', async () => {
        const result = await kb.getBestPractice({ target: input.target, category: input.category });
        if (!result.ok)
          return { content: [{ type: 'text', text: `get_best_practice: ${result.message}` }], isError: true };
        const payload: Record<string, unknown> = { ...result.practice };
        return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
      }),
  );
}
