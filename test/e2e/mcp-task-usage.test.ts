// What agents did with served documents, over a real MCP client: search under a task_id records the served
// documents; get_document (with the task id) and a document resource read (counted for the task this session
// last served it to) mark them fetched; record_feedback makes them judged; status counts all three.
import fs from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusReportToJson } from '../../src/app/indexing/index.js';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { renderStatus } from '../../src/cli/render-index.js';
import { USAGE_FILE_NAME } from '../../src/store/usage-log.js';
import {
  type ConnectedClient,
  connectInMemory,
  createServeKb,
  openTestKb,
  type ServeKb,
} from '../support/mcp-fixture.js';

describe('task usage over MCP', () => {
  let serveKb: ServeKb;
  let kb: KnowledgeBase;
  let first: ConnectedClient;
  let second: ConnectedClient;

  beforeAll(async () => {
    serveKb = createServeKb({ model: 'none' });
    kb = openTestKb(serveKb, null);
    await kb.index();
    first = await connectInMemory(kb);
    second = await connectInMemory(kb);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await kb?.close();
    serveKb?.cleanup();
  });

  const search = async (client: ConnectedClient, args: Record<string, unknown>) => {
    const result = (await client.client.callTool({ name: 'search', arguments: args })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    return (result.structuredContent as { results: { path: string; uri?: string }[] }).results;
  };
  const getDocument = (client: ConnectedClient, args: Record<string, unknown>) =>
    client.client.callTool({ name: 'get_document', arguments: args }) as Promise<CallToolResult>;

  it('records nothing for searches without a task id', async () => {
    await search(first, { query: 'restorealpha' });
    expect(kb.status().usage).toEqual({ tasks: 0, served: 0, fetched: 0, judged: 0 });
  });

  it('counts served, fetched and judged documents per task', async () => {
    const password = await search(first, { query: 'passwordalpha', task_id: 'T-1', limit: 3 });
    const backup = await search(first, { query: 'backupalpha', task_id: 'T-1', limit: 3 });
    const served = new Set([...password, ...backup].map((hit) => hit.path));
    expect(served.has('guides/password-reset.md')).toBe(true);
    expect(served.has('ops/backup.md')).toBe(true);
    expect(served.has('readme.md')).toBe(false);

    // Fetched with the task id; a document never served to the task does not count.
    expect((await getDocument(first, { path: 'ops/backup.md', task_id: 'T-1' })).isError).toBeFalsy();
    expect((await getDocument(first, { path: 'readme.md', task_id: 'T-1' })).isError).toBeFalsy();
    // A resource read carries no task id: it counts for the task this session served the document to…
    const uri = password.find((hit) => hit.path === 'guides/password-reset.md')!.uri!;
    await first.client.readResource({ uri });
    // …and never for another session's task.
    const backupUri = backup.find((hit) => hit.path === 'ops/backup.md')!.uri!;
    await second.client.readResource({ uri: backupUri });

    const feedback = (await first.client.callTool({
      name: 'record_feedback',
      arguments: {
        task_id: 'T-1',
        query: 'passwordalpha',
        items: [{ path: 'guides/password-reset.md', verdict: 'helped' }],
      },
    })) as CallToolResult;
    expect(feedback.isError).toBeFalsy();

    const usage = { tasks: 1, served: served.size, fetched: 2, judged: 1 };
    expect(kb.status().usage).toEqual(usage);
    expect((await kb.describe()).usage).toEqual(usage);
    expect(statusReportToJson(kb.status()).usage).toEqual(usage);
    expect(renderStatus(kb.status())).toContain(
      `Agent usage:   ${served.size} documents served to 1 task; 2 fetched, 1 judged`,
    );
  });

  it('refuses a malformed task id and keeps the file out of the knowledge base', async () => {
    const result = await getDocument(first, { path: 'readme.md', task_id: '' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('task_id must not be empty');
    const inKb = fs.readdirSync(serveKb.kbPath, { recursive: true }).map(String);
    expect(inKb.some((name) => name.endsWith(USAGE_FILE_NAME))).toBe(false);
    expect(fs.existsSync(path.join(serveKb.root, USAGE_FILE_NAME))).toBe(false);
  });
});
