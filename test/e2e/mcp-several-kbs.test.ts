// One `groove serve --kb a --kb b --kb c` for three KBs registered with `groove kb add` in a temp GROOVE_HOME,
// each indexed with `groove index --kb NAME`, started from an unrelated folder and driven by the MCP SDK's own
// Client over stdio: list_kbs, search across and within KBs (every hit naming its KB), get_document by KB, an
// unknown KB name, and a KB whose folder vanished before start (listed as missing, its index kept, the others
// serving), and each KB followed by its own live sync. Runs the built CLI (dist/); skipped when it has not been built.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../support/cli-sandbox.js';
import { repoRoot, textOf, waitFor } from '../support/mcp-fixture.js';
import { binPath } from '../support/run-bin.js';

const built = fs.existsSync(path.join(repoRoot, 'dist/src/cli/cmd-serve.js'));

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-manykb-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function groove(args: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [binPath, ...args], {
    cwd,
    env: { ...isolatedEnv(root), ...extraEnv },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function folder(...parts: string[]): string {
  const dir = path.join(root, ...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** KB `name` with `count` notes that all mention "kestrel", each also a word of its own; plus shared.md. */
function registerKb(name: string, count: number): string {
  const kb = folder('kbs', name);
  for (let i = 0; i < count; i++)
    fs.writeFileSync(
      path.join(kb, `${name}-${i}.md`),
      `# ${name} note ${i}\n\nThe kestrel hunts over ${name}field${i} at dawn, hovering before it dives.\n`,
    );
  fs.writeFileSync(
    path.join(kb, 'shared.md'),
    `# Shared\n\nEvery KB has this file; this one is ${name}'s.\n`,
  );
  const added = groove(['kb', 'add', name, kb, '--model', 'none'], folder('elsewhere'));
  expect(added.code, added.stderr).toBe(0);
  const indexed = groove(['index', '--kb', name, '--quiet'], folder('elsewhere'));
  expect(indexed.code, indexed.stderr).toBe(0);
  return kb;
}

/** A real SDK client over stdio to `groove serve --kb NAME…` (no --kb at all when `names` is empty). */
async function connect(names: string[], watch = false): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      binPath,
      'serve',
      ...names.flatMap((name) => ['--kb', name]),
      ...(watch ? ['--debounce-ms', '50'] : ['--no-watch']),
    ],
    env: isolatedEnv(root),
    cwd: folder('unrelated'),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'groove-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

type Hit = { kb: string; path: string };
const hitsOf = (result: unknown) =>
  (result as { structuredContent: { results: Hit[] } }).structuredContent.results;

describe.skipIf(!built)('one groove serve for several registered KBs (spawned, real MCP client)', () => {
  it('lists, searches across and within KBs, reads a document by KB and refuses an unknown KB', async () => {
    registerKb('a', 3);
    registerKb('b', 2);
    const cKb = registerKb('c', 1);
    const before = fs.readdirSync(cKb).sort();
    const { client, stderr } = await connect(['a', 'b', 'c']);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(
        expect.arrayContaining(['list_kbs', 'search', 'get_document', 'record_feedback']),
      );

      const listed = (await client.callTool({ name: 'list_kbs', arguments: {} })).structuredContent as {
        kbs: { name: string; documents: number; chunks: number; health: string; model: string }[];
      };
      expect(listed.kbs.map((kb) => [kb.name, kb.documents, kb.health, kb.model])).toEqual([
        ['a', 4, 'ok', 'none'],
        ['b', 3, 'ok', 'none'],
        ['c', 2, 'ok', 'none'],
      ]);
      for (const kb of listed.kbs) expect(kb.chunks).toBeGreaterThanOrEqual(kb.documents);
      const kbsResource = await client.readResource({ uri: 'kb://kbs' });
      expect(JSON.parse((kbsResource.contents[0] as { text: string }).text)).toEqual(listed);
      const prompt = await client.getPrompt({ name: 'summarize_topic', arguments: { topic: 'field' } });
      expect((prompt.messages[0]!.content as { text: string }).text).toContain(
        'Several knowledge bases are served (a, b, c)',
      );

      const all = hitsOf(
        await client.callTool({ name: 'search', arguments: { query: 'kestrel', limit: 20 } }),
      );
      expect(new Set(all.map((hit) => hit.kb))).toEqual(new Set(['a', 'b', 'c']));
      expect(all).toHaveLength(6);
      for (const hit of all) expect(hit.path.startsWith(`${hit.kb}-`)).toBe(true);

      const onlyB = hitsOf(
        await client.callTool({ name: 'search', arguments: { query: 'kestrel', limit: 20, kb: 'b' } }),
      );
      expect(onlyB.map((hit) => `${hit.kb}:${hit.path}`).sort()).toEqual(['b:b-0.md', 'b:b-1.md']);
      const two = hitsOf(
        await client.callTool({ name: 'search', arguments: { query: 'kestrel', limit: 20, kb: ['a', 'c'] } }),
      );
      expect(new Set(two.map((hit) => hit.kb))).toEqual(new Set(['a', 'c']));

      const doc = await client.callTool({ name: 'get_document', arguments: { path: 'shared.md', kb: 'c' } });
      expect(doc.structuredContent).toMatchObject({ kb: 'c', path: 'shared.md' });
      expect((doc.structuredContent as { content: string }).content).toContain("this one is c's");
      const own = await client.callTool({ name: 'get_document', arguments: { path: 'b-1.md' } });
      expect(own.structuredContent).toMatchObject({ kb: 'b', path: 'b-1.md' });
      const ambiguous = await client.callTool({ name: 'get_document', arguments: { path: 'shared.md' } });
      expect(ambiguous.isError).toBe(true);
      expect(textOf(ambiguous)).toContain('more than one served KB (a, b, c)');

      const unknown = await client.callTool({ name: 'search', arguments: { query: 'kestrel', kb: 'zzz' } });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain('does not serve a KB named "zzz"');
      expect(textOf(unknown)).toContain('a, b, c');
      const unknownDoc = await client.callTool({
        name: 'get_document',
        arguments: { path: 'a-0.md', kb: 'zzz' },
      });
      expect(unknownDoc.isError).toBe(true);
      expect(textOf(unknownDoc)).toContain('"zzz"');

      const resource = await client.readResource({ uri: 'kb://doc/a/a-2.md' });
      expect((resource.contents[0] as { text: string }).text).toContain('afield2');
    } finally {
      await client.close();
    }
    expect(stderr()).toContain('serving 3 KBs');
    expect(fs.readdirSync(cKb).sort()).toEqual(before);
  });

  it('serves a KB whose folder vanished before start as missing, its index kept, while the others serve', async () => {
    registerKb('a', 2);
    const gone = registerKb('b', 2);
    const show = JSON.parse(groove(['kb', 'show', 'b', '--format', 'json'], root).stdout) as {
      db_path: string;
    };
    const indexBytes = fs.readFileSync(show.db_path);
    fs.rmSync(gone, { recursive: true });
    // A folder replaced by a file cannot be listed either.
    const replaced = registerKb('c', 1);
    fs.rmSync(replaced, { recursive: true });
    fs.writeFileSync(replaced, 'not a folder');
    const { client, stderr } = await connect(['a', 'b', 'c']);
    try {
      const listed = (await client.callTool({ name: 'list_kbs', arguments: {} })).structuredContent as {
        kbs: { name: string; health: string; problem: string | null; documents: number | null }[];
      };
      expect(listed.kbs.map((kb) => [kb.name, kb.health, kb.documents])).toEqual([
        ['a', 'ok', 3],
        ['b', 'folder missing', null],
        ['c', 'folder missing', null],
      ]);
      expect(listed.kbs[1]!.problem).toContain('is missing');
      expect(listed.kbs[2]!.problem).toContain('is not a folder');

      const all = await client.callTool({ name: 'search', arguments: { query: 'kestrel', limit: 20 } });
      expect(new Set(hitsOf(all).map((hit) => hit.kb))).toEqual(new Set(['a']));
      expect((all.structuredContent as { skipped: unknown }).skipped).toEqual([
        { kb: 'b', problem: expect.stringContaining('is missing') },
        { kb: 'c', problem: expect.stringContaining('is not a folder') },
      ]);
      const named = await client.callTool({ name: 'search', arguments: { query: 'kestrel', kb: 'b' } });
      expect(named.isError).toBe(true);
      expect(textOf(named)).toContain('the KB "b" is not being served');
    } finally {
      await client.close();
    }
    expect(stderr()).toContain('b: not served');
    expect(fs.readFileSync(show.db_path).equals(indexBytes)).toBe(true);
  });

  it('over HTTP: the other tools by KB, /api/status with every served KB, and /api/search by KB', async () => {
    registerKb('a', 2);
    registerKb('b', 1);
    const child = spawn(
      process.execPath,
      [binPath, 'serve', '--kb', 'a', '--kb', 'b', '--transport', 'http', '--port', '0', '--no-watch'],
      { env: isolatedEnv(root), cwd: folder('unrelated') },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const client = new Client({ name: 'groove-e2e', version: '1.0.0' });
    try {
      await waitFor(() => /http:\/\/127\.0\.0\.1:\d+\/mcp/.test(stderr), 15_000, 'the URL line');
      const url = /(http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(stderr)![1]!;
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));

      const topics = (await client.callTool({ name: 'list_topics', arguments: {} })).structuredContent as {
        kbs: { kb: string }[];
      };
      expect(topics.kbs.map((kb) => kb.kb)).toEqual(['a', 'b']);
      const graph = await client.callTool({ name: 'get_connection_graph', arguments: { start: 'a-1.md' } });
      expect(graph.structuredContent).toMatchObject({ kb: 'a', start_path: 'a-1.md' });
      const feedback = await client.callTool({
        name: 'record_feedback',
        arguments: { task_id: 't1', query: 'kestrel', items: [{ path: 'b-0.md', verdict: 'helped' }] },
      });
      expect(feedback.structuredContent).toMatchObject({ kb: 'b', helped: 1, not_indexed: [] });
      const rebuilt = (await client.callTool({ name: 'rebuild_index', arguments: { kb: 'b' } }))
        .structuredContent as { kbs: { kb: string; documents: number }[] };
      expect(rebuilt.kbs).toEqual([expect.objectContaining({ kb: 'b', documents: 2 })]);

      const status = (await (await fetch(`${url}/api/status`)).json()) as {
        kb_path: string;
        kbs: { name: string; health: string; kb_path: string; index: { documents: number } }[];
      };
      expect(status.kb_path).toBe(path.join(root, 'kbs', 'a'));
      expect(status.kbs.map((kb) => [kb.name, kb.health, kb.index.documents])).toEqual([
        ['a', 'ok', 3],
        ['b', 'ok', 2],
      ]);

      // The status page's search: every served KB as one ranking, or the KBs `kb` names.
      const hitKbs = async (query: string) => {
        const reply = await fetch(`${url}/api/search?${query}`);
        expect(reply.status, query).toBe(200);
        const json = (await reply.json()) as { results: { kb: string; path: string }[] };
        return json.results.map((hit) => `${hit.kb}:${hit.path}`).sort();
      };
      expect(await hitKbs('q=kestrel&limit=10')).toEqual(['a:a-0.md', 'a:a-1.md', 'b:b-0.md']);
      expect(await hitKbs('q=kestrel&limit=10&kb=b')).toEqual(['b:b-0.md']);
      const unknown = await fetch(`${url}/api/search?q=kestrel&kb=zz`);
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as { error: { hint: string } }).error.hint).toBe(
        'name one of the served KBs: a, b',
      );

      // The CLI's search of one served KB is answered by the running server, as the in-process one would be.
      const args = ['search', 'kestrel', '--kb', 'b', '--format', 'json'];
      const served = groove(args, folder('elsewhere'), { GROOVE_NO_SERVER: '', GROOVE_DEBUG: '1' });
      expect(served.stderr).toContain('groove: debug: answered by groove serve');
      expect(JSON.parse(served.stdout)).toEqual(JSON.parse(groove(args, folder('elsewhere')).stdout));
    } finally {
      await client.close();
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/SIGTERM: shutting down[\s\S]*stopped/);
  });

  it('with no KB named and no groove.toml, serves every registered KB; with none registered, says none was given', async () => {
    const none = groove(['serve', '--no-watch'], folder('empty'));
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no knowledge base given');
    registerKb('a', 1);
    registerKb('b', 1);
    const { client } = await connect([]);
    try {
      const listed = (await client.callTool({ name: 'list_kbs', arguments: {} })).structuredContent as {
        kbs: { name: string }[];
      };
      expect(listed.kbs.map((kb) => kb.name)).toEqual(['a', 'b']);
    } finally {
      await client.close();
    }
  });

  it('follows each KB folder with its own live sync', async () => {
    const aKb = registerKb('a', 1);
    const bKb = registerKb('b', 1);
    const { client, stderr } = await connect(['a', 'b'], true);
    try {
      await waitFor(
        () => (stderr().match(/live sync: watching/g) ?? []).length === 2,
        10_000,
        'both watchers',
      );
      const fresh = (kb: string) =>
        `# Fresh in ${kb}\n\nA wryneck arrived in ${kb} today and sat on the fence by the old orchard gate for an hour.\n`;
      fs.writeFileSync(path.join(aKb, 'fresh-a.md'), fresh('a'));
      fs.writeFileSync(path.join(bKb, 'fresh-b.md'), fresh('b'));
      let found: string[] = [];
      await waitFor(
        async () => {
          const hits = hitsOf(await client.callTool({ name: 'search', arguments: { query: 'wryneck' } }));
          found = hits.map((hit) => `${hit.kb}:${hit.path}`).sort();
          return found.length === 2;
        },
        15_000,
        'the new files to be indexed',
      );
      expect(found).toEqual(['a:fresh-a.md', 'b:fresh-b.md']);
    } finally {
      await client.close();
    }
  });
});
