// One GET against the hub, on node:http/https (Node's fetch neither reads the proxy variables nor lets a caller
// decide what a redirect carries). Rules:
// - the proxy comes from proxyFor: an https URL is tunnelled through it with CONNECT, an http URL is sent to it
//   in absolute form; credentials in the proxy URL become Proxy-Authorization;
// - redirects are followed (at most 10); the token goes only to the configured hub endpoint's origin, so a
//   redirect to a CDN, a mirror or any other host never receives it;
// - a request that receives nothing for `idleTimeoutMs` (connecting, waiting or mid-body) is destroyed with
//   a timeout error; `signal` aborts it;
// - network failures are TransientHubError (worth retrying), except a host that cannot be reached at all (no
//   such name, no route, connection refused), which fails at once.
// Messages name hosts and paths only, never headers or query strings (signed URLs carry secrets there).
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { redactUrl } from './http-retry.js';
import { type ProxyVariables, proxyFor } from './proxy-env.js';

export interface HubGetOptions {
  headers?: Record<string, string>;
  /** The origin (`https://huggingface.co`) the token may be sent to. */
  tokenOrigin: string;
  token: string | null;
  proxy: ProxyVariables;
  idleTimeoutMs: number;
  signal?: AbortSignal;
}

export interface HubResponse {
  response: http.IncomingMessage;
  /** The URL that answered, after redirects. */
  url: URL;
}

/** A failure worth another attempt: the network, a timeout, or the server saying so (408, 429, 5xx). */
export class TransientHubError extends Error {
  readonly retryAfterMs: number | null;
  constructor(message: string, options: { cause?: unknown; retryAfterMs?: number | null } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TransientHubError';
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}

function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

function proxyPort(proxy: URL): number {
  return Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
}

/** Errors that mean the host cannot be reached at all: retrying in a few seconds changes nothing. */
const UNREACHABLE = new Set(['ENOTFOUND', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNREFUSED']);

function asTransient(error: Error, what: string): Error {
  if (error instanceof TransientHubError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && UNREACHABLE.has(code)) return new Error(`${what} failed: ${error.message}`);
  return new TransientHubError(`${what} failed: ${error.message}`, { cause: error });
}

/**
 * Run `request` to its response. The idle timeout and `signal` stay armed while the body is read: they destroy
 * the response with their reason, which is what reading it then throws.
 */
function awaitResponse(
  request: http.ClientRequest,
  what: string,
  options: HubGetOptions,
): Promise<http.IncomingMessage> {
  let response: http.IncomingMessage | null = null;
  const stop = (error: Error) => {
    response?.destroy(error);
    request.destroy(error);
  };
  return new Promise((resolve, reject) => {
    const onAbort = () => stop(new Error(`${what} was cancelled`));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.once('close', () => options.signal?.removeEventListener('abort', onAbort));
    request.setTimeout(options.idleTimeoutMs, () =>
      stop(new TransientHubError(`${what} received nothing for ${options.idleTimeoutMs} ms`)),
    );
    request.on('error', (error) => reject(asTransient(error, what)));
    request.once('response', (answer) => {
      response = answer;
      resolve(answer);
    });
    request.end();
  });
}

/** A TLS connection to `target` through the proxy's CONNECT tunnel. */
function openTunnel(proxy: URL, target: URL, options: HubGetOptions): Promise<tls.TLSSocket> {
  const authority = `${target.hostname}:${target.port || 443}`;
  const transport = proxy.protocol === 'https:' ? https : http;
  const request = transport.request({
    host: bare(proxy.hostname),
    port: proxyPort(proxy),
    method: 'CONNECT',
    path: authority,
    headers: { host: authority, ...proxyAuthorization(proxy) },
  });
  return new Promise((resolve, reject) => {
    const what = `the tunnel through proxy ${proxy.host} to ${authority}`;
    request.setTimeout(options.idleTimeoutMs, () =>
      request.destroy(new TransientHubError(`${what} received nothing for ${options.idleTimeoutMs} ms`)),
    );
    request.on('error', (error) => reject(asTransient(error, what)));
    request.once('connect', (response, socket) => {
      request.setTimeout(0);
      if (response.statusCode !== 200) {
        socket.destroy();
        const message = `proxy ${proxy.host} refused the tunnel to ${authority} (HTTP ${response.statusCode})`;
        reject(response.statusCode === 407 ? new Error(message) : new TransientHubError(message));
        return;
      }
      const host = bare(target.hostname);
      resolve(
        tls.connect({
          socket,
          host,
          ...(net.isIP(host) ? {} : { servername: host }),
          ALPNProtocols: ['http/1.1'],
        }),
      );
    });
    request.end();
  });
}

async function requestOnce(url: URL, headers: Record<string, string>, options: HubGetOptions) {
  const proxy = proxyFor(url, options.proxy);
  const what = `GET ${redactUrl(url.href)}${proxy ? ` through proxy ${proxy.host}` : ''}`;
  if (!proxy) {
    const transport = url.protocol === 'https:' ? https : http;
    return awaitResponse(transport.request(url, { headers }), what, options);
  }
  if (url.protocol === 'https:') {
    const socket = await openTunnel(proxy, url, options);
    const request = https.request(url, { headers, createConnection: () => socket });
    return awaitResponse(request, what, options);
  }
  const request = (proxy.protocol === 'https:' ? https : http).request({
    host: bare(proxy.hostname),
    port: proxyPort(proxy),
    path: url.href,
    headers: { ...headers, host: url.host, ...proxyAuthorization(proxy) },
  });
  return awaitResponse(request, what, options);
}

/** GET `url`, following redirects; resolves with the first non-redirect response (any status). */
export async function hubGet(start: URL, options: HubGetOptions): Promise<HubResponse> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const headers: Record<string, string> = { 'user-agent': 'groove', ...options.headers };
    if (options.token && url.origin === options.tokenOrigin)
      headers.authorization = `Bearer ${options.token}`;
    const response = await requestOnce(url, headers, options);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || !location) return { response, url };
    response.resume();
    url = new URL(location, url);
  }
  throw new Error(`GET ${redactUrl(start.href)} was redirected more than ${MAX_REDIRECTS} times`);
}
