// The status page served for real: a throw-away KB (the sample notes plus notes whose title, heading and body are
// HTML meant to run script), indexed with the counting embedder, behind the real HTTP transport with the real UI
// routes and status board, optionally with live sync. Plus a raw request helper that can send any Host header
// (fetch drops a custom one). Test-only.
import http from 'node:http';
import { IndexRunner, type LiveSyncHandle, StatusBoard, startLiveSync } from '../../src/app/index.js';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import type { HttpServeOptions, HttpServing } from '../../src/mcp/transport-http.js';
import { createUiRoutes } from '../../src/status-page/ui-routes.js';
import { CountingEmbedder } from './counting-embedder.js';
import {
  createServeKb,
  openTestKb,
  SAMPLE_NOTES,
  type ServeKb,
  serveKbOverHttp,
  waitFor,
} from './mcp-fixture.js';

/** Markup a page that inserted KB text as HTML would run: each sets `window.__pwned`. */
export const HOSTILE_TITLE = '<img src=x onerror="window.__pwned=1">hostile';
export const HOSTILE_HEADING = '<script>window.__pwned=2</script>heading';

export const HOSTILE_NOTES: Record<string, string> = {
  ...SAMPLE_NOTES,
  'hostile/markup.md': [
    '---',
    `title: '${HOSTILE_TITLE}'`,
    'tags: [hostile]',
    '---',
    `# ${HOSTILE_HEADING}`,
    '',
    'The zebrafish body text carries <b onmouseover="window.__pwned=3">bold</b> markup and an',
    '<iframe src="javascript:window.__pwned=4"></iframe> frame, both of which must show as plain text.',
    '',
  ].join('\n'),
};

export interface StatusPageServer {
  serveKb: ServeKb;
  kb: KnowledgeBase;
  runner: IndexRunner;
  sync: LiveSyncHandle | null;
  serving: HttpServing;
  port: number;
  logs: string[];
  close(): Promise<void>;
}

export interface StatusPageOptions {
  /** Index before serving (default true). */
  indexed?: boolean;
  /** Follow the folder with live sync (default false). */
  watch?: boolean;
  http?: Partial<HttpServeOptions>;
  /** The KB's notes (default HOSTILE_NOTES). */
  files?: Record<string, string>;
}

export async function serveStatusPage(options: StatusPageOptions = {}): Promise<StatusPageServer> {
  const serveKb = createServeKb({ files: options.files ?? HOSTILE_NOTES });
  const kb = openTestKb(serveKb, new CountingEmbedder());
  const runner = new IndexRunner(kb);
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  if (options.indexed !== false) await runner.sync();
  const sync = options.watch ? startLiveSync({ kb, runner, debounceMs: 50, log }) : null;
  if (sync) {
    await sync.ready;
    await waitFor(() => sync.stats().phase === 'idle', 5_000, 'the startup sync');
  }
  const board = new StatusBoard({ kb, runner, sync, version: 'test' });
  const serving = await serveKbOverHttp(kb, runner, logs, {
    extraRoutes: createUiRoutes({ kb, board }),
    ...options.http,
  });
  return {
    serveKb,
    kb,
    runner,
    sync,
    serving,
    port: serving.port,
    logs,
    async close() {
      await serving.close();
      await sync?.close();
      await runner.drain();
      await kb.close();
      serveKb.cleanup();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request to 127.0.0.1:port with exactly these headers (Host defaults to 127.0.0.1:port). */
export function rawGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}
