// The status page of a server of several KBs, served for real as `groove serve --kb … --transport http` wires it:
// two throw-away KBs ("alpha" and "beta", each indexed with the counting embedder) plus, optionally, "gamma"
// served as missing (its folder gone), behind the real HTTP transport with the several-KB MCP server, the real UI
// routes, a status board per serving KB and `/api/status`'s `kbs`. Every note of both KBs mentions "kestrel";
// alpha's also say "osprey", beta's "heron". Test-only.
import path from 'node:path';
import {
  IndexRunner,
  type ServedKb,
  ServedKbs,
  StatusBoard,
  servedKbsStatusToJson,
} from '../../src/app/index.js';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { createManyKbServer } from '../../src/mcp/server-many.js';
import { type HttpServeOptions, type HttpServing, serveHttp } from '../../src/mcp/transport-http.js';
import { createUiRoutes } from '../../src/status-page/ui-routes.js';
import { CountingEmbedder } from './counting-embedder.js';
import { createServeKb, openTestKb, type ServeKb } from './mcp-fixture.js';

/** Markup a page that inserted a KB's folder as HTML would run: it sets `window.__pwned`. */
export const HOSTILE_MISSING_PATH = '/gone/<img src=x onerror="window.__pwned=5">';

export interface ManyKbStatusPage {
  kbs: { name: string; serveKb: ServeKb; kb: KnowledgeBase; runner: IndexRunner }[];
  serving: HttpServing;
  port: number;
  logs: string[];
  close(): Promise<void>;
}

function notesOf(name: string, word: string, count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 1; i <= count; i++) {
    files[`${name}/note-${i}.md`] = [
      '---',
      `title: ${name} note ${i} about the ${word}`,
      '---',
      `# The ${word} ${i}`,
      '',
      `A kestrel and a ${word} were seen at the ${name} site, visit ${i}.`,
      '',
    ].join('\n');
  }
  return files;
}

export async function serveManyKbStatusPage(
  options: { missing?: boolean; http?: Partial<HttpServeOptions> } = {},
): Promise<ManyKbStatusPage> {
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const kbs: ManyKbStatusPage['kbs'] = [];
  for (const [name, word, count] of [
    ['alpha', 'osprey', 3],
    ['beta', 'heron', 2],
  ] as const) {
    const serveKb = createServeKb({ files: notesOf(name, word, count) });
    const kb = openTestKb(serveKb, new CountingEmbedder());
    const runner = new IndexRunner(kb);
    await runner.sync();
    kbs.push({ name, serveKb, kb, runner });
  }
  const entries: ServedKb[] = kbs.map(({ name, kb, runner }) => ({ state: 'serving', name, kb, runner }));
  if (options.missing) {
    const kbPath = path.join(kbs[0]!.serveKb.root, HOSTILE_MISSING_PATH);
    entries.push({ state: 'missing', name: 'gamma', kbPath, problem: `its folder ${kbPath} is missing` });
  }
  const served = new ServedKbs(entries);
  const boards = new Map(
    kbs.map(({ name, kb, runner }) => [name, new StatusBoard({ kb, runner, sync: null, version: 'test' })]),
  );
  const serving = await serveHttp({
    createServer: () => createManyKbServer({ served, version: 'test', log }),
    bind: '127.0.0.1',
    port: 0,
    allowedHosts: [],
    allowedOrigins: [],
    token: null,
    maxSessions: 256,
    healthzPublic: true,
    log,
    extraRoutes: createUiRoutes({
      kb: kbs[0]!.kb,
      served,
      board: boards.get('alpha')!,
      extraStatus: () => ({ kbs: servedKbsStatusToJson(served.entries, boards) }),
    }),
    ...options.http,
  });
  return {
    kbs,
    serving,
    port: serving.port,
    logs,
    async close() {
      await serving.close();
      for (const { kb, runner, serveKb } of kbs) {
        await runner.drain();
        await kb.close();
        serveKb.cleanup();
      }
    },
  };
}
