// MCP resources: folder groups (`kb://topic/…`, listed) and documents (`kb://doc/…`, a template, not listed).
// A document read is get_document with the same refusals; a group read is a Markdown list of its documents with
// their addresses. Nothing outside the index is ever offered or read.
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { KnowledgeBase } from '../app/index.js';
import { describeError, isGrooveError } from '../errors.js';
import { decodeComponent, docPrefix, docUri, mimeTypeOf, topicPrefix, topicUri } from './kb-uri.js';
import type { SessionTaskUsage } from './task-usage.js';

/** Our errors become a JSON-RPC error saying how to fix the request; anything else is logged as a bug. */
async function guarded<T>(what: string, work: () => Promise<T>, log: (line: string) => void): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (!isGrooveError(error)) log(`${what}: unexpected error: ${describeError(error)}`);
    throw new McpError(ErrorCode.InternalError, `${what} failed: ${describeError(error)}`);
  }
}

function groupName(prefix: string): string {
  return prefix === '' ? 'all documents' : `${prefix}/`;
}

async function readGroup(
  kb: KnowledgeBase,
  uri: string,
  prefix: string,
  name?: string,
): Promise<ReadResourceResult> {
  const found = await kb.groupMembers(prefix);
  if (!found) throw new McpError(ErrorCode.InvalidParams, `no indexed documents under "${prefix}/"`);
  const lines = [`# ${groupName(prefix)}`, ''];
  for (const member of found.members)
    lines.push(
      `- [${member.title.replace(/[[\]]/g, '\\$&')}](${docUri(member.path, name)}) — ${member.path}`,
    );
  if (found.more > 0)
    lines.push(`- … and ${found.more} more; search with a path_globs filter to narrow them`);
  return { contents: [{ uri, mimeType: 'text/markdown', text: `${lines.join('\n')}\n` }] };
}

/**
 * Register one KB's resources. `name` is given when the server serves several KBs: the addresses and resource
 * names then carry it (kb-uri.ts).
 */
export function registerResources(
  server: McpServer,
  kb: KnowledgeBase,
  options: { log: (line: string) => void; usage: SessionTaskUsage; name?: string },
): void {
  const { log, usage, name } = options;
  const suffix = name === undefined ? '' : `-${name}`;
  const ofKb = name === undefined ? '' : ` of KB ${name}`;
  server.registerResource(
    `all-documents${suffix}`,
    topicPrefix(name),
    {
      title: `All documents${ofKb}`,
      description: `Every indexed document${ofKb}, as a list of ${docPrefix(name)} addresses.`,
      mimeType: 'text/markdown',
    },
    (uri) => guarded('resources/read', () => readGroup(kb, uri.href, '', name), log),
  );
  server.registerResource(
    `folder${suffix}`,
    new ResourceTemplate(`${topicPrefix(name)}{prefix}`, {
      list: () =>
        guarded(
          'resources/list',
          async () => ({
            resources: (await kb.documentGroups())
              .filter((group) => group.prefix !== '')
              .map((group) => ({
                uri: topicUri(group.prefix, name),
                name: `${group.prefix}/`,
                title: `Documents in ${group.prefix}/`,
                description: `${group.fileCount} documents`,
                mimeType: 'text/markdown',
              })),
          }),
          log,
        ),
    }),
    {
      title: `Documents in a folder${ofKb}`,
      description: `The documents beneath one folder${ofKb}, one or two levels deep.`,
      mimeType: 'text/markdown',
    },
    (uri, variables) =>
      guarded(
        'resources/read',
        async () => {
          const prefix = decodeComponent(String(variables.prefix ?? ''));
          if (prefix === null)
            throw new McpError(
              ErrorCode.InvalidParams,
              `"${uri.href}" is not a valid ${topicPrefix(name)} address`,
            );
          return readGroup(kb, uri.href, prefix, name);
        },
        log,
      ),
  );
  server.registerResource(
    `document${suffix}`,
    new ResourceTemplate(`${docPrefix(name)}{path}`, { list: undefined }),
    {
      title: `One document${ofKb}`,
      description: `The text of one indexed document${ofKb} (as get_document returns it).`,
    },
    (uri, variables) =>
      guarded(
        'resources/read',
        async () => {
          const path = decodeComponent(String(variables.path ?? ''));
          if (path === null)
            throw new McpError(
              ErrorCode.InvalidParams,
              `"${uri.href}" is not a valid ${docPrefix(name)} address`,
            );
          const result = await kb.getDocument(path);
          if (!result.ok) throw new McpError(ErrorCode.InvalidParams, result.message);
          usage.fetched(kb, undefined, path);
          return { contents: [{ uri: uri.href, mimeType: mimeTypeOf(path), text: result.document.content }] };
        },
        log,
      ),
  );
}
