// record_feedback over MCP (SDK client, in-memory transport): the strict schema, the stored judgments, the
// not-indexed hint, errors as isError results — and the judgments surviving a forced rebuild_index.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { IndexRunner } from '../../src/app/serve/index-runner.js';
import { describeError } from '../../src/errors.js';
import { createGrooveServer } from '../../src/mcp/server.js';
import { registerRecordFeedbackTool } from '../../src/mcp/tool-record-feedback.js';
import { connectInMemory, createServeKb, openTestKb, type ServeKb, textOf } from '../support/mcp-fixture.js';

describe('record_feedback over MCP', () => {
  let serveKb: ServeKb;
  let kb: KnowledgeBase;
  let client: Client;
  let server: McpServer;

  beforeAll(async () => {
    serveKb = createServeKb({ model: 'none' });
    kb = openTestKb(serveKb, null);
    await kb.index();
    server = new McpServer({ name: 'groove-test', version: 'test' });
    const guard = async (tool: string, work: () => Promise<CallToolResult>): Promise<CallToolResult> => {
      try {
        return await work();
      } catch (error) {
        return {
          content: [{ type: 'text', text: `${tool} failed: ${describeError(error)}` }],
          isError: true,
        };
      }
    };
    registerRecordFeedbackTool(server, { kb, guard });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'groove-test', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await kb?.close();
    serveKb?.cleanup();
  });

  const call = (args: Record<string, unknown>) =>
    client.callTool({ name: 'record_feedback', arguments: args });

  it('describes itself with a strict schema', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'record_feedback')!;
    expect(tool.description).toMatch(/helped, noise or wrong/);
    expect(tool.inputSchema.required).toEqual(['task_id', 'query', 'items']);
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('stores the judgments and names entries that are not indexed', async () => {
    const result = (await call({
      task_id: 'ISSUE-42',
      query: 'how do I reset my password',
      items: [
        { path: 'guides/password-reset.md', verdict: 'helped' },
        { path: 'guides/password-reset.md', heading: 'More on password', verdict: 'helped' },
        { path: 'ops/backup.md', verdict: 'noise' },
        { path: 'rules/style.md', verdict: 'noise', always_served: true },
      ],
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      serve_id: 1,
      task_id: 'ISSUE-42',
      items: 4,
      helped: 2,
      not_indexed: ['rules/style.md'],
    });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('refuses a misspelt argument, a bad verdict and an unusable path with isError', async () => {
    const misspelt = (await call({
      task_id: 't',
      query: 'q words',
      items: [{ path: 'a.md', verdict: 'helped', alwaysServed: true }],
    })) as CallToolResult;
    expect(misspelt.isError).toBe(true);
    const verdict = (await call({
      task_id: 't',
      query: 'q words',
      items: [{ path: 'a.md', verdict: 'great' }],
    })) as CallToolResult;
    expect(verdict.isError).toBe(true);
    const absolute = (await call({
      task_id: 't',
      query: 'q words',
      items: [{ path: '/etc/passwd', verdict: 'helped' }],
    })) as CallToolResult;
    expect(absolute.isError).toBe(true);
    expect(textOf(absolute)).toContain('is not a knowledge-base path');
  });

  it('names the real problem of an over-long path or heading: its size and the limit', async () => {
    const longPath = (await call({
      task_id: 't',
      query: 'q words',
      items: [{ path: `${'d/'.repeat(2500)}x.md`, verdict: 'helped' }],
    })) as CallToolResult;
    expect(longPath.isError).toBe(true);
    expect(textOf(longPath)).toMatch(/items\[0\]\.path is 5004 bytes; a knowledge-base path is at most 4096/);
    expect(textOf(longPath)).not.toContain('must not be empty');
    const longHeading = (await call({
      task_id: 't',
      query: 'q words',
      items: [{ path: 'a.md', heading: 'h'.repeat(5000), verdict: 'helped' }],
    })) as CallToolResult;
    expect(longHeading.isError).toBe(true);
    expect(textOf(longHeading)).toMatch(/items\[0\]\.heading is over 4096 bytes/);
    const blank = (await call({
      task_id: 't',
      query: 'q words',
      items: [{ path: '  ', verdict: 'helped' }],
    })) as CallToolResult;
    expect(textOf(blank)).toContain('items[0].path must not be empty');
  });

  it('keeps the judgments when rebuild_index forces a new index file', async () => {
    const groove = createGrooveServer({
      kb,
      runner: new IndexRunner(kb),
      version: 'test',
      log: () => {},
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await groove.connect(serverSide);
    const other = new Client({ name: 'groove-test', version: '1.0.0' });
    await other.connect(clientSide);
    try {
      const rebuilt = (await other.callTool({
        name: 'rebuild_index',
        arguments: { force: true },
      })) as CallToolResult;
      expect(rebuilt.isError).toBeFalsy();
      const result = await kb.buildGolden({ out: `${serveKb.root}/from-feedback.yml` });
      expect(result.draft.input).toMatchObject({ queries: 1, items: 4 });
      expect(result.draft.queries).toEqual([
        {
          id: 'ISSUE-42',
          query: 'how do I reset my password',
          expected: [
            { path: 'guides/password-reset.md', heading: null },
            { path: 'guides/password-reset.md', heading: 'More on password' },
          ],
        },
      ]);
    } finally {
      await other.close();
      await groove.close();
    }
  });
  it('feeds the search tool: boost and graph per call, pulled-in hits with expanded_from', async () => {
    const groove = await connectInMemory(kb);
    try {
      const judged = (await groove.client.callTool({
        name: 'record_feedback',
        arguments: {
          task_id: 'ISSUE-7',
          query: 'restore after backup',
          items: [
            { path: 'ops/backup.md', verdict: 'helped' },
            { path: 'readme.md', verdict: 'helped' },
          ],
        },
      })) as CallToolResult;
      expect(judged.isError).toBeFalsy();
      const search = async (args: Record<string, unknown>) => {
        const result = (await groove.client.callTool({ name: 'search', arguments: args })) as CallToolResult;
        expect(result.isError, textOf(result)).toBeFalsy();
        return JSON.parse(textOf(result)) as { results: Record<string, unknown>[] };
      };
      const plain = await search({ query: 'backupalpha', limit: 5 });
      expect(plain.results.map((r) => r.path)).toEqual(['ops/backup.md']);
      const hopped = await search({
        query: 'backupalpha',
        limit: 5,
        graph: true,
        boost: true,
        explain: true,
      });
      expect(hopped.results.map((r) => r.path)).toEqual(['ops/backup.md', 'readme.md']);
      expect(hopped.results[1]).toMatchObject({
        expanded_from: { kind: 'co_helpful', path: 'ops/backup.md', heading: 'Note about backup' },
        // One shared task recorded moments ago: C ≈ 1, edge weight ≈ 1 / 1.1.
        explain: { graph: { kind: 'co_helpful', edge_weight: expect.closeTo(1 / 1.1, 6) } },
      });
      const refused = (await groove.client.callTool({
        name: 'search',
        arguments: { query: 'backupalpha', graph: 'yes' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
    } finally {
      await groove.close();
    }
  });
});
