// A throw-away KB for the MCP and live-sync tests: a few notes in folders, a config resolved like the CLI does,
// an opened KnowledgeBase (with a deterministic embedder unless lexical-only) and an SDK client wired to a
// groove server through the SDK's in-memory transport. Test-only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { IndexRunner } from '../../src/app/serve/index-runner.js';
import { type ResolvedConfig, resolveConfig } from '../../src/config/resolve-config.js';
import { createGrooveServer } from '../../src/mcp/server.js';
import { type HttpServeOptions, type HttpServing, serveHttp } from '../../src/mcp/transport-http.js';
import type { Embedder } from '../../src/types.js';
import { CountingEmbedder } from './counting-embedder.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface ServeKb {
  root: string;
  kbPath: string;
  dbPath: string;
  config: ResolvedConfig;
  write(relPath: string, text: string): string;
  cleanup(): void;
}

/** Three folders of notes whose words are unique per note (`<name>alpha`, `<name>beta`). */
export const SAMPLE_NOTES: Record<string, string> = {
  'guides/setup/install.md': note('install', { tags: ['setup'], date: '2026-01-10' }),
  'guides/setup/configure.md': note('configure', { tags: ['setup', 'config'], date: '2026-02-01' }),
  'guides/password-reset.md': note('password', { tags: ['account'], topic: 'accounts', date: '2026-03-14' }),
  'ops/backup.md': note('backup', { tags: ['ops'] }),
  'ops/restore.md': note('restore', { tags: ['ops'] }),
  'readme.md': note('readme'),
};

export function note(name: string, meta: { tags?: string[]; topic?: string; date?: string } = {}): string {
  const front = [
    '---',
    `title: Note about ${name}`,
    `tags: [${(meta.tags ?? ['misc']).join(', ')}]`,
    ...(meta.topic ? [`topic: ${meta.topic}`] : []),
    ...(meta.date ? [`date: ${meta.date}`] : []),
    '---',
  ];
  return [
    ...front,
    `# Note about ${name}`,
    '',
    `The first section explains ${name}alpha in enough words to stand alone as a searchable chunk of text.`,
    '',
    `## More on ${name}`,
    '',
    `The second section covers ${name}beta, again with plenty of words so that it is not merged away.`,
    '',
  ].join('\n');
}

export function createServeKb(options: { files?: Record<string, string>; model?: string } = {}): ServeKb {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
  const kbPath = path.join(root, 'kb');
  fs.mkdirSync(kbPath);
  const dbPath = path.join(root, 'index.groove.db');
  const write = (relPath: string, text: string) => {
    const file = path.join(kbPath, ...relPath.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };
  for (const [relPath, text] of Object.entries(options.files ?? SAMPLE_NOTES)) write(relPath, text);
  const config = resolveConfig({
    cwd: root,
    env: {},
    overrides: { kbPath, dbPath, ...(options.model ? { model: options.model } : {}) },
  });
  return {
    root,
    kbPath,
    dbPath,
    config,
    write,
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** Open the KB with the counting embedder (8 dimensions), or lexical-only when the config says model none. */
export function openTestKb(
  serveKb: ServeKb,
  embedder: Embedder | null = new CountingEmbedder(),
): KnowledgeBase {
  const lexical = serveKb.config.model === 'none';
  return openKnowledgeBase(serveKb.config, { createEmbedder: async () => (lexical ? null : embedder) });
}

export interface ConnectedClient {
  client: Client;
  runner: IndexRunner;
  logs: string[];
  close(): Promise<void>;
}

/** An SDK client talking to a groove server over the in-memory transport pair. */
export async function connectInMemory(kb: KnowledgeBase): Promise<ConnectedClient> {
  const logs: string[] = [];
  const runner = new IndexRunner(kb);
  const server = createGrooveServer({ kb, runner, version: 'test', log: (line) => logs.push(line) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'groove-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    runner,
    logs,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? '';
}

/** Poll `check` until it returns true or `timeoutMs` passes (no fixed sleeps in tests). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Serve `kb` over Streamable HTTP on 127.0.0.1 with a free port and the default guards; server logs go to `logs`. */
export function serveKbOverHttp(
  kb: KnowledgeBase,
  runner: IndexRunner,
  logs: string[],
  overrides: Partial<HttpServeOptions> = {},
): Promise<HttpServing> {
  return serveHttp({
    createServer: () => createGrooveServer({ kb, runner, version: 'test', log: (l) => logs.push(l) }),
    bind: '127.0.0.1',
    port: 0,
    allowedHosts: [],
    allowedOrigins: [],
    token: null,
    maxSessions: 256,
    healthzPublic: true,
    log: (line) => logs.push(line),
    ...overrides,
  });
}

/** The CLI's search JSON as MCP returns it: every hit also carries its document's kb://doc/ address. */
export function withDocumentUris(json: Record<string, unknown>): Record<string, unknown> {
  const results = (json.results as { path: string }[]).map((hit) => ({
    ...hit,
    uri: `kb://doc/${encodeURIComponent(hit.path)}`,
  }));
  return { ...json, results };
}
