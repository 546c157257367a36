// `groove serve` over stdio as a real child process (the built CLI in dist/): the SDK's own Client and
// StdioClientTransport, a raw byte-level check that stdout carries nothing but protocol, and clean shutdown on
// stdin EOF, with and without the watcher. Skipped when dist/ has not been built (`npm test` builds first).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  createServeKb,
  note,
  repoRoot,
  type ServeKb,
  textOf,
  waitFor,
  withDocumentUris,
} from '../support/mcp-fixture.js';

const bin = path.join(repoRoot, 'bin/groove.js');
const built = fs.existsSync(path.join(repoRoot, 'dist/src/cli/cmd-serve.js'));
const childEnv = { ...process.env, GROOVE_OFFLINE: '1' } as Record<string, string>;

async function runInProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd: repoRoot,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

describe.skipIf(!built)('groove serve over stdio (spawned)', () => {
  let serveKb: ServeKb | null = null;
  afterEach(() => {
    serveKb?.cleanup();
    serveKb = null;
  });

  const kbFlags = (kb: ServeKb) => ['--kb-path', kb.kbPath, '--db-path', kb.dbPath];

  it('answers the SDK client with the CLI search JSON plus a uri per hit, then exits 0 when the client leaves', async () => {
    serveKb = createServeKb({ model: 'none' });
    const indexed = await runInProcess(['index', ...kbFlags(serveKb), '--model', 'none', '--quiet']);
    expect(indexed.code).toBe(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', ...kbFlags(serveKb), '--no-watch'],
      env: childEnv,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'groove-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search');
      const result = await client.callTool({ name: 'search', arguments: { query: 'backupalpha', limit: 3 } });
      const cli = await runInProcess(['search', 'backupalpha', '--limit', '3', ...kbFlags(serveKb)]);
      expect(JSON.parse(textOf(result))).toEqual(withDocumentUris(JSON.parse(cli.stdout)));
      expect((result.structuredContent as { results: { path: string }[] }).results[0]!.path).toBe(
        'ops/backup.md',
      );
    } finally {
      await client.close();
    }
    await waitFor(() => stderr.includes('stopped'), 5_000, 'the server to log "stopped"');
    expect(stderr).toContain('the client closed stdin');
  });

  it('writes nothing but JSON-RPC to stdout, survives a malformed line, and exits 0 on stdin EOF', async () => {
    serveKb = createServeKb({ model: 'none' });
    expect((await runInProcess(['index', ...kbFlags(serveKb), '--model', 'none', '--quiet'])).code).toBe(0);
    const child = spawn(process.execPath, [bin, 'serve', ...kbFlags(serveKb), '--no-watch'], {
      env: childEnv,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const send = (message: object | string) =>
      child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send('this is {not json');
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_topics', arguments: {} } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } });
    await waitFor(() => stdout.split('\n').filter(Boolean).length >= 3, 10_000, 'three responses');
    child.stdin.end();
    expect(await exited).toBe(0);

    const lines = stdout.split('\n').filter(Boolean);
    const messages = lines.map(
      (line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: unknown },
    );
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    // Responses may come back in any order: list_topics opens the index, the unknown tool answers at once.
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
    expect(JSON.stringify(byId.get(2)!.result)).toContain('total_documents');
    expect(byId.get(3)!.result).toMatchObject({ isError: true });
    expect(stderr).toMatch(/not valid JSON/);
  });

  it('with the watcher on: catches up at start, follows a new file, and still exits cleanly', async () => {
    serveKb = createServeKb({ model: 'none' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', ...kbFlags(serveKb), '--model', 'none', '--debounce-ms', '50'],
      env: childEnv,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'groove-e2e', version: '1.0.0' });
    await client.connect(transport);
    const paths = async (query: string) => {
      const result = await client.callTool({ name: 'search', arguments: { query } });
      if (result.isError) return [];
      return (result.structuredContent as { results: { path: string }[] }).results.map((r) => r.path);
    };
    try {
      await waitFor(
        async () => (await paths('installalpha')).includes('guides/setup/install.md'),
        10_000,
        'startup sync',
      );
      await waitFor(() => stderr.includes('live sync: watching'), 5_000, 'the watcher to be ready');
      serveKb.write('fresh/new-note.md', note('freshnote'));
      await waitFor(
        async () => (await paths('freshnotealpha')).includes('fresh/new-note.md'),
        10_000,
        'live sync',
      );
    } finally {
      await client.close();
    }
    await waitFor(() => stderr.includes('stopped'), 5_000, 'the server to stop');
  });
});
