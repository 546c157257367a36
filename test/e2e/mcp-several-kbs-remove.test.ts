// `groove kb remove` of a KB that a running `groove serve --kb a --kb b` serves: the server sees the registry
// change and stops serving it (listed as removed, searches naming it refused, searches of every KB answered by
// the others) while it keeps running; with --delete-index the index is deleted only once the server has closed
// it, and kept (INDEX_BUSY) while a server that does not follow the registry still has it open. Real processes
// (the built CLI in dist/) in a temp GROOVE_HOME, driven by the MCP SDK's own Client over stdio.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../support/cli-sandbox.js';
import { repoRoot, textOf, waitFor } from '../support/mcp-fixture.js';
import { binPath } from '../support/run-bin.js';

const built = fs.existsSync(path.join(repoRoot, 'dist/src/cli/cmd-serve.js'));

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-kbremove-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** The sandbox's environment, with the servers' local sockets inside `root` too. */
const env = () => ({ ...isolatedEnv(root), GROOVE_RUNTIME_DIR: path.join(root, 'run') });

function folder(...parts: string[]): string {
  const dir = path.join(root, ...parts);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

function groove(args: string[]) {
  const run = spawnSync(process.execPath, [binPath, ...args], {
    cwd: folder('elsewhere'),
    env: env(),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** KB `name` with `count` notes that all mention "kestrel"; registered, indexed; returns its index file. */
function registerKb(name: string, count: number): string {
  const kb = folder('kbs', name);
  for (let i = 0; i < count; i++)
    fs.writeFileSync(
      path.join(kb, `${name}-${i}.md`),
      `# ${name} ${i}\n\nThe kestrel hunts over ${name}field.\n`,
    );
  expect(groove(['kb', 'add', name, kb, '--model', 'none']).code).toBe(0);
  expect(groove(['index', '--kb', name, '--quiet']).code).toBe(0);
  return (JSON.parse(groove(['kb', 'show', name, '--format', 'json']).stdout) as { db_path: string }).db_path;
}

async function connect(names: string[]): Promise<{ client: Client; stderr: () => string }> {
  folder('run');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, 'serve', ...names.flatMap((name) => ['--kb', name]), '--no-watch'],
    env: env(),
    cwd: folder('unrelated'),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'groove-e2e', version: '1.0.0' });
  await client.connect(transport);
  await waitFor(
    () => (stderr.match(/answering groove search/g) ?? []).length === names.length,
    10_000,
    'sockets',
  );
  return { client, stderr: () => stderr };
}

type Hit = { kb: string; path: string };
const search = async (client: Client, args: Record<string, unknown>) =>
  client.callTool({ name: 'search', arguments: { query: 'kestrel', limit: 20, ...args } });
const kbsOf = (result: unknown) =>
  (result as { structuredContent: { results: Hit[] } }).structuredContent.results.map((hit) => hit.kb);

describe.skipIf(!built)('groove kb remove of a KB a running server serves', () => {
  it('stops serving it: listed as removed, named searches refused, the others still served', async () => {
    registerKb('a', 2);
    const bIndex = registerKb('b', 2);
    const { client, stderr } = await connect(['a', 'b']);
    try {
      expect(new Set(kbsOf(await search(client, {})))).toEqual(new Set(['a', 'b']));
      const removed = groove(['kb', 'remove', 'b']);
      expect(removed.code, removed.stderr).toBe(0);
      await waitFor(() => stderr().includes('b: index closed'), 10_000, 'b to be closed');
      expect(stderr()).toContain('groove serve: b: no longer served: it was removed from the KB registry');

      const listed = (await client.callTool({ name: 'list_kbs', arguments: {} })).structuredContent as {
        kbs: { name: string; health: string; documents: number | null; problem: string | null }[];
      };
      expect(listed.kbs.map((kb) => [kb.name, kb.health, kb.documents])).toEqual([
        ['a', 'ok', 2],
        ['b', 'removed', null],
      ]);
      const named = await search(client, { kb: 'b' });
      expect(named.isError).toBe(true);
      expect(textOf(named)).toContain('the KB "b" is not being served: it was removed from the KB registry');
      const all = await search(client, {});
      expect(all.isError).toBeFalsy();
      expect(new Set(kbsOf(all))).toEqual(new Set(['a']));
      expect((all.structuredContent as { skipped: unknown }).skipped).toEqual([
        { kb: 'b', problem: expect.stringContaining('removed from the KB registry') },
      ]);
      const doc = await client.callTool({ name: 'get_document', arguments: { path: 'b-0.md' } });
      expect(doc.isError).toBe(true);
      const aDoc = await client.callTool({ name: 'get_document', arguments: { path: 'a-1.md' } });
      expect(aDoc.structuredContent).toMatchObject({ kb: 'a', path: 'a-1.md' });
    } finally {
      await client.close();
    }
    expect(fs.existsSync(bIndex)).toBe(true);
    expect(stderr()).toContain('stopped');
  });

  it('--delete-index deletes the index once the server has closed it', async () => {
    registerKb('a', 1);
    const bIndex = registerKb('b', 1);
    const { client, stderr } = await connect(['a', 'b']);
    try {
      const removed = groove(['kb', 'remove', 'b', '--delete-index']);
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.stdout).toContain('deleted');
      // The server logs the close before its socket goes, and kb remove waits for the socket to go.
      await waitFor(() => stderr().includes('b: index closed'), 5_000, 'the close to be logged');
      for (const suffix of ['', '-wal', '-shm']) expect(fs.existsSync(`${bIndex}${suffix}`)).toBe(false);
      expect(new Set(kbsOf(await search(client, {})))).toEqual(new Set(['a']));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fs.existsSync(bIndex)).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('--delete-index keeps the index while a server that does not follow the registry has it open', async () => {
    const bIndex = registerKb('b', 1);
    folder('run');
    const child = spawn(process.execPath, [binPath, 'serve', '--kb', 'b', '--no-watch'], {
      env: env(),
      cwd: folder('unrelated'),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await waitFor(() => stderr.includes('answering groove search'), 10_000, 'the socket');
      const removed = groove(['kb', 'remove', 'b', '--delete-index']);
      expect(removed.code).not.toBe(0);
      expect(removed.stderr).toContain('is unregistered, but a running groove serve still has its index');
      expect(fs.existsSync(bIndex)).toBe(true);
      expect(groove(['kb', 'show', 'b']).code).not.toBe(0);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);
});
