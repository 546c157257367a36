// Streamable HTTP on a real socket (127.0.0.1, port 0): the SDK client end to end, and every bad input with its
// defined answer — bad Host/Origin 403, missing/wrong token 401, oversized body 413, malformed JSON-RPC, unknown
// tool, session cap 429 + Retry-After (also with 100 concurrent sessions), a client vanishing mid-call, idle
// sessions — after each of which the server still answers.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { IndexRunner } from '../../src/app/serve/index-runner.js';
import { runCli } from '../../src/cli/main.js';
import type { HttpServeOptions, HttpServing } from '../../src/mcp/transport-http.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import {
  createServeKb,
  openTestKb,
  repoRoot,
  type ServeKb,
  serveKbOverHttp,
  textOf,
  waitFor,
} from '../support/mcp-fixture.js';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/mcp',
        headers: options.headers,
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    // An early 413 may reset the socket while the body is still going out; the response has arrived by then.
    request.on('error', (error) => reject(error));
    request.end(options.body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function mcpHeaders(port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    Host: `127.0.0.1:${port}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...extra,
  };
}

describe('groove serve over Streamable HTTP', () => {
  let serveKb: ServeKb | null = null;
  let kb: KnowledgeBase | null = null;
  let serving: HttpServing | null = null;
  const clients: Client[] = [];
  const logs: string[] = [];

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    await serving?.close();
    await kb?.close();
    serveKb?.cleanup();
    serving = null;
    kb = null;
    serveKb = null;
  });

  async function start(
    overrides: Partial<HttpServeOptions> = {},
    embedder = new CountingEmbedder(),
  ): Promise<{ port: number; url: URL; runner: IndexRunner }> {
    serveKb = createServeKb();
    kb = openTestKb(serveKb, embedder);
    await kb.index();
    const runner = new IndexRunner(kb);
    serving = await serveKbOverHttp(kb, runner, logs, overrides);
    return { port: serving.port, url: new URL(serving.url), runner };
  }

  async function connect(url: URL, token?: string): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
    });
    const client = new Client({ name: 'groove-http-e2e', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  async function expectHealthy(port: number): Promise<void> {
    const health = await rawRequest(port, {
      method: 'GET',
      path: '/healthz',
      headers: { Host: `localhost:${port}` },
    });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'ok' });
  }

  it('serves the SDK client: tools, search, an unknown tool as isError, and /healthz', async () => {
    const { port, url } = await start();
    const client = await connect(url);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(6);
    const result = await client.callTool({ name: 'search', arguments: { query: 'restorealpha', limit: 5 } });
    const paths = (result.structuredContent as { results: { path: string }[] }).results.map((r) => r.path);
    expect(paths).toContain('ops/restore.md');
    const unknown = await client.callTool({ name: 'drop_tables', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/drop_tables not found/);
    await expectHealthy(port);
  });

  it('refuses a foreign Host or Origin with 403 (DNS-rebinding guard) and keeps serving', async () => {
    const { port, url } = await start();
    const badHost = await rawRequest(port, {
      headers: mcpHeaders(port, { Host: 'evil.example' }),
      body: INITIALIZE,
    });
    expect(badHost.status).toBe(403);
    expect(JSON.parse(badHost.body).error.message).toMatch(
      /Host "evil.example" is not allowed.*allowed_hosts/,
    );
    const badOrigin = await rawRequest(port, {
      headers: mcpHeaders(port, { Origin: 'http://evil.example' }),
      body: INITIALIZE,
    });
    expect(badOrigin.status).toBe(403);
    expect(badOrigin.body).toMatch(/allowed_origins/);
    const goodOrigin = await rawRequest(port, {
      headers: mcpHeaders(port, { Origin: `http://localhost:${port}` }),
      body: INITIALIZE,
    });
    expect(goodOrigin.status).toBe(200);
    await connect(url);
  });

  it('with a token: 401 without or with a wrong one, served with the right one', async () => {
    const { port, url } = await start({ token: 's3cret' });
    const none = await rawRequest(port, { headers: mcpHeaders(port), body: INITIALIZE });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await rawRequest(port, {
      headers: mcpHeaders(port, { Authorization: 'Bearer guess' }),
      body: INITIALIZE,
    });
    expect(wrong.status).toBe(401);
    await expect(connect(url)).rejects.toThrow();
    const client = await connect(url, 's3cret');
    expect((await client.listTools()).tools).toHaveLength(6);
    await expectHealthy(port); // /healthz stays public
  });

  it('answers an oversized body with 413 and malformed JSON-RPC with a JSON-RPC error, then keeps serving', async () => {
    const { port, url } = await start();
    const big = Buffer.alloc(1024 * 1024 + 10, 0x20);
    const tooLarge = await rawRequest(port, { headers: mcpHeaders(port), body: big });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatch(/1 MiB/);

    const garbage = await rawRequest(port, {
      headers: mcpHeaders(port),
      body: '{"jsonrpc": "2.0", "id": 1, ',
    });
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });

    const notRpc = await rawRequest(port, { headers: mcpHeaders(port), body: '{"hello": "world"}' });
    expect(notRpc.status).toBe(400);
    expect(JSON.parse(notRpc.body).error.message).toMatch(/initialize/);

    const unknownSession = await rawRequest(port, {
      headers: mcpHeaders(port, { 'mcp-session-id': 'not-a-session' }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(unknownSession.status).toBe(404);

    const wrongRoute = await rawRequest(port, {
      method: 'GET',
      path: '/admin',
      headers: { Host: `localhost:${port}` },
    });
    expect(wrongRoute.status).toBe(404);
    await expectHealthy(port);
    const client = await connect(url);
    expect((await client.listTools()).tools).toHaveLength(6);
  });

  it('caps sessions: 429 with Retry-After once max_sessions are open', async () => {
    const { port, url } = await start({ maxSessions: 2, retryAfterSeconds: 7 });
    await connect(url);
    await connect(url);
    const third = await rawRequest(port, { headers: mcpHeaders(port), body: INITIALIZE });
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('7');
    expect(JSON.parse(third.body).error.message).toMatch(/max_sessions 2/);
    await expect(connect(url)).rejects.toThrow();
    // Closing a session (DELETE) makes room again.
    const [first] = clients.splice(0, 1);
    await (first!.transport as StreamableHTTPClientTransport).terminateSession();
    await first!.close();
    await connect(url);
  });

  it('admits exactly max_sessions of 100 concurrent initializations and refuses the rest', async () => {
    const { port } = await start({ maxSessions: 100 });
    const answers = await Promise.all(
      Array.from({ length: 110 }, () => rawRequest(port, { headers: mcpHeaders(port), body: INITIALIZE })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(new Set(answers.map((a) => a.headers['mcp-session-id']).filter(Boolean)).size).toBe(100);
    await expectHealthy(port);
  });

  it('survives a client that disconnects mid-call; the call still completes', async () => {
    const embedder = new GatedEmbedder();
    const { port, url, runner } = await start({}, embedder);
    const init = await rawRequest(port, { headers: mcpHeaders(port), body: INITIALIZE });
    const sessionId = String(init.headers['mcp-session-id']);
    const sessionHeaders = mcpHeaders(port, {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    });
    await rawRequest(port, {
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    embedder.hold();
    const call = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/mcp',
      headers: sessionHeaders,
    });
    call.on('error', () => {}); // we cut it ourselves
    call.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'rebuild_index', arguments: { force: true } },
      }),
    );
    await waitFor(() => runner.status().active !== null, 5_000, 'the rebuild to start');
    call.destroy();
    embedder.release();
    await waitFor(() => runner.status().active === null, 5_000, 'the rebuild to finish');
    expect(runner.status().completedRuns).toBe(1);
    await expectHealthy(port);
    const client = await connect(url);
    const result = await client.callTool({ name: 'search', arguments: { query: 'backupalpha' } });
    expect(result.isError).toBeFalsy();
  });

  it('closes sessions left idle, and their id is then unknown', async () => {
    const { port } = await start({ sessionIdleMs: 150 });
    const init = await rawRequest(port, { headers: mcpHeaders(port), body: INITIALIZE });
    const sessionId = String(init.headers['mcp-session-id']);
    const list = () =>
      rawRequest(port, {
        headers: mcpHeaders(port, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    expect((await list()).status).toBe(200);
    // Poll the log, not the session: every request would count as activity and keep it alive.
    await waitFor(() => logs.some((line) => line.includes('idle session')), 5_000, 'the idle sweep');
    const after = await list();
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body).error.message).toMatch(/initialize a new session/);
  });
});

describe('groove serve --transport http (the CLI)', () => {
  it('refuses a non-loopback bind unless --allow-remote is given', async () => {
    const serveKb = createServeKb({ model: 'none' });
    let stderr = '';
    const io = {
      stdout: { write: (_s: string) => true },
      stderr: { write: (s: string) => (stderr += s) },
      env: {},
      cwd: serveKb.root,
    };
    try {
      const args = ['serve', '--transport', 'http', '--bind', '0.0.0.0', '--kb-path', serveKb.kbPath];
      expect(await runCli(args, io)).toBe(2);
      expect(stderr).toMatch(/refusing to listen on non-loopback address "0.0.0.0".*--allow-remote/);
    } finally {
      serveKb.cleanup();
    }
  });

  const built = fs.existsSync(path.join(repoRoot, 'dist/src/cli/cmd-serve.js'));
  it.skipIf(!built)(
    'spawned: prints its URL to stderr, answers /healthz, and exits 0 on SIGTERM',
    async () => {
      const serveKb = createServeKb({ model: 'none' });
      const child = spawn(
        process.execPath,
        [
          path.join(repoRoot, 'bin/groove.js'),
          'serve',
          '--transport',
          'http',
          '--port',
          '0',
          '--no-watch',
        ].concat(['--kb-path', serveKb.kbPath, '--model', 'none']),
        { env: { ...process.env, GROOVE_OFFLINE: '1' } },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        await waitFor(() => /http:\/\/127\.0\.0\.1:\d+\/mcp/.test(stderr), 10_000, 'the URL line');
        const port = Number(/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr)![1]);
        const health = await rawRequest(port, {
          method: 'GET',
          path: '/healthz',
          headers: { Host: `127.0.0.1:${port}` },
        });
        expect(health.status).toBe(200);
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(stdout).toBe('');
        expect(stderr).toMatch(/SIGTERM: shutting down[\s\S]*stopped/);
      } finally {
        child.kill('SIGKILL');
        serveKb.cleanup();
      }
    },
  );
});

/** Holds document embedding until released, so a rebuild stays in flight as long as a test needs. */
class GatedEmbedder extends CountingEmbedder {
  private gate: Promise<void> | null = null;
  private open: () => void = () => {};
  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }
  release(): void {
    this.open();
    this.gate = null;
  }
  override async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    await this.gate;
    return super.embedDocuments(texts);
  }
}
