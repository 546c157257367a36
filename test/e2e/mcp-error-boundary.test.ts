// The MCP error boundary: a failure that is not a GrooveError (a bug, or a raw library error) becomes an isError
// result and one log line, never a stack trace — unless GROOVE_DEBUG asks for it.
import { afterEach, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { connectInMemory, createServeKb, openTestKb, type ServeKb, textOf } from '../support/mcp-fixture.js';

describe('MCP error boundary', () => {
  let serveKb: ServeKb | null = null;
  let kb: KnowledgeBase | null = null;

  afterEach(async () => {
    delete process.env.GROOVE_DEBUG;
    await kb?.close();
    serveKb?.cleanup();
  });

  async function failingSearch(): Promise<Awaited<ReturnType<typeof connectInMemory>>> {
    serveKb = createServeKb({ model: 'none' });
    kb = openTestKb(serveKb, null);
    await kb.index();
    // A real facade whose search breaks the way a library error would: not one of groove's own errors.
    kb.search = async () => {
      throw new TypeError('Cannot read properties of undefined (reading "rows")');
    };
    return connectInMemory(kb);
  }

  it('answers isError and logs one line without a stack', async () => {
    const connected = await failingSearch();
    const result = await connected.client.callTool({ name: 'search', arguments: { query: 'backup' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('search failed: Cannot read properties of undefined');
    expect(connected.logs).toHaveLength(1);
    expect(connected.logs[0]).toMatch(/^search: unexpected error: Cannot read properties/);
    expect(connected.logs.join('\n')).not.toMatch(/^\s+at /m);
    await connected.close();
  });

  it('adds the stack to the log line when GROOVE_DEBUG is set', async () => {
    process.env.GROOVE_DEBUG = '1';
    const connected = await failingSearch();
    await connected.client.callTool({ name: 'search', arguments: { query: 'backup' } });
    expect(connected.logs.join('\n')).toMatch(/^\s+at /m);
    await connected.close();
  });
});
