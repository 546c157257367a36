// The status page's routes beside /mcp: the page itself (`/ui`, its script, stylesheet and icon: fixed text
// with no knowledge-base data, so it loads without the token), `GET /api/status` (the status board's JSON) and
// `GET /api/search?q=…&limit=…` (the search JSON of `groove search --format json`; a server of several KBs also
// takes `kb`, repeated or a comma list, and searches the chosen KBs as one corpus). The page puts every value
// it shows into the document as text, never as markup; the headers keep scripts and styles to this server's own
// files, forbid framing and sniffing, and no answer is cached.
import type http from 'node:http';
import {
  type KbSelector,
  type KnowledgeBase,
  type ServedKbs,
  type StatusBoard,
  searchResponseToJson,
  serveStatusToJson,
} from '../app/index.js';
import { isGrooveError, isUsageError } from '../errors.js';
import { sendJson } from '../mcp/http-respond.js';
import type { HttpExtraRoutes } from '../mcp/transport-http.js';
import { PAGE_HTML } from './page-html.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_ICON, PAGE_STYLE } from './page-style.js';

export interface UiRoutesOptions {
  kb: Pick<KnowledgeBase, 'search'>;
  /** A server of several KBs: `/api/search` searches these (every one, or those named by `kb`) instead of `kb`. */
  served?: Pick<ServedKbs, 'search'>;
  board: Pick<StatusBoard, 'read'>;
  /** Added to `/api/status` beside the board's fields (a server of several KBs adds `kbs`, one entry per KB). */
  extraStatus?: () => Record<string, unknown>;
}

/** The page may run only its own script and style and fetch only from this server; nothing may frame it. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** For everything that is not the page: it runs nothing and embeds nothing. */
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  '/ui': { type: 'text/html; charset=utf-8', body: PAGE_HTML },
  '/ui/': { type: 'text/html; charset=utf-8', body: PAGE_HTML },
  '/ui/app.js': { type: 'text/javascript; charset=utf-8', body: PAGE_SCRIPT },
  '/ui/app.css': { type: 'text/css; charset=utf-8', body: PAGE_STYLE },
  '/ui/icon.svg': { type: 'image/svg+xml', body: PAGE_ICON },
};

const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

export function createUiRoutes(options: UiRoutesOptions): HttpExtraRoutes {
  const api: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>> = {
    '/api/status': async (_req, res) =>
      sendData(res, 200, { ...serveStatusToJson(options.board.read()), ...options.extraStatus?.() }),
    '/api/search': (req, res) => answerSearch(options, req, res),
  };
  return {
    describe: 'the status page is /ui',
    isTokenFree: (rawPath) => Object.hasOwn(ASSETS, rawPath),
    async handle(req, res, pathname) {
      const asset = Object.hasOwn(ASSETS, pathname) ? ASSETS[pathname] : undefined;
      const route = Object.hasOwn(api, pathname) ? api[pathname] : undefined;
      if (!asset && !route) return false;
      if (req.method !== 'GET') {
        const message = `method ${req.method ?? ''} is not allowed on ${pathname}; use GET`;
        sendData(res, 405, problem('INVALID_ARGUMENT', message), { Allow: 'GET' });
        return true;
      }
      if (asset) sendAsset(res, asset);
      else await route!(req, res);
      return true;
    },
  };
}

/** A query-string value as the search request takes it; anything else is passed on for the search to refuse. */
const wholeNumber = (value: string): unknown => (/^-?\d+$/.test(value) ? Number(value) : value);
const flag = (value: string): unknown => (value === 'true' ? true : value === 'false' ? false : value);

/** The query-string parameters `/api/search` takes besides `q` and `kb`: name, request key, reading. */
const SEARCH_QUERY_PARAMS = [
  ['limit', 'limit', wholeNumber],
  ['max_tokens', 'maxTokens', wholeNumber],
  ['legs', 'legs', (value: string): unknown => value],
  ['timings', 'timings', flag],
] as const;

/**
 * `q` is the query, `limit` the number of hits, `max_tokens` a token budget, `legs` both|lexical|vector and
 * `timings` true|false (the search's own checks apply to each); on a server of several KBs `kb`
 * (repeated, or names separated by commas; none = every KB) chooses the KBs, every hit names its `kb` and
 * `skipped` lists served KBs that could not be searched. A usage error (an unknown KB included) is a 400.
 */
async function answerSearch(
  options: UiRoutesOptions,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const params = new URLSearchParams(queryOf(req.url ?? ''));
  const request: Record<string, unknown> = { query: params.get('q') ?? '' };
  for (const [name, key, read] of SEARCH_QUERY_PARAMS) {
    const value = params.get(name);
    if (value !== null) request[key] = read(value);
  }
  try {
    sendData(res, 200, await searchJson(options, kbSelectorOf(params), request));
  } catch (error) {
    // Anything that is not one of our errors is a bug: the front gate's catch-all logs it and answers 500.
    if (!isGrooveError(error)) throw error;
    const status = isUsageError(error) ? 400 : 503;
    sendData(res, status, problem(error.code, error.message, error.hint));
  }
}

async function searchJson(
  options: UiRoutesOptions,
  selector: KbSelector,
  request: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!options.served) return searchResponseToJson(await options.kb.search(request));
  const { response, skipped } = await options.served.search(selector, request);
  const json = searchResponseToJson(response);
  if (skipped.length === 0) return json;
  return { ...json, skipped: skipped.map((kb) => ({ kb: kb.name, problem: kb.problem })) };
}

/** Every `kb` parameter, each split at commas (KB names hold none); none given = every served KB. */
function kbSelectorOf(params: URLSearchParams): KbSelector {
  const names = params
    .getAll('kb')
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length === 0 ? undefined : names;
}

function problem(code: string, message: string, hint?: string): Record<string, unknown> {
  return { error: { code, message, hint: hint ?? null } };
}

function queryOf(target: string): string {
  const start = target.indexOf('?');
  return start === -1 ? '' : target.slice(start + 1);
}

function sendData(
  res: http.ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, payload, { ...COMMON_HEADERS, 'Content-Security-Policy': DATA_CSP, ...headers });
}

function sendAsset(res: http.ServerResponse, asset: { type: string; body: string }): void {
  res.writeHead(200, {
    'Content-Type': asset.type,
    'Content-Length': Buffer.byteLength(asset.body),
    'Content-Security-Policy': asset.type.startsWith('text/html') ? PAGE_CSP : DATA_CSP,
    ...COMMON_HEADERS,
  });
  res.end(asset.body);
}
