// A loopback stand-in for the Hugging Face hub (real HTTP on 127.0.0.1): serves
// `/<owner>/<name>/resolve/<revision>/<path>` from in-memory files, honours Range, and can misbehave on demand —
// slow, stalling, dropping the connection midway, lying about sizes or bytes, failing with a status, requiring
// a token, or redirecting to another server (a CDN). Every request is logged. Test-only.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** repo → revision (a commit, or a branch name such as `main`) → path → bytes. */
export type FakeRepos = Record<string, Record<string, Record<string, Buffer>>>;

export interface FakeHubBehaviour {
  /** Send the body in pieces of this many bytes… */
  pieceBytes?: number;
  /** …with this pause after each. */
  pieceDelayMs?: number;
  /** Send this many bytes of a body, then nothing more (the connection stays open). */
  stallAfterBytes?: number;
  /** Destroy the connection after this many bytes of a body… */
  dropAfterBytes?: number;
  /** …for this many responses (then serve normally). */
  drops?: number;
  /** Announce this Content-Length instead of the real one. */
  announceLength?: number;
  /** Send other bytes of the same length (the first byte flipped). */
  corrupt?: boolean;
  /** Answer 200 with the whole body even when a Range is asked for. */
  ignoreRange?: boolean;
  /** Answer this status to the first `failTimes` requests. */
  failStatus?: number;
  failTimes?: number;
  /** Answer 401 unless `Authorization: Bearer <token>` is sent. */
  requireToken?: string;
  /** Answer file requests with 302 to the same path on this base URL. */
  redirectTo?: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  range: string | undefined;
  authorization: string | undefined;
}

export interface FakeHub {
  url: string;
  requests: LoggedRequest[];
  behaviour: FakeHubBehaviour;
  close(): Promise<void>;
}

const FILE = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/;

function lookup(repos: FakeRepos, url: string): Buffer | null {
  const match = FILE.exec(url.split('?')[0] ?? '');
  if (!match) return null;
  const [, repo, revision, file] = match as unknown as [string, string, string, string];
  return repos[repo]?.[revision]?.[decodeURIComponent(file)] ?? null;
}

async function sendBody(res: http.ServerResponse, body: Buffer, b: FakeHubBehaviour): Promise<void> {
  const drop =
    (b.drops ?? 0) > 0 && b.dropAfterBytes !== undefined && b.dropAfterBytes < body.length
      ? b.dropAfterBytes
      : null;
  if (drop !== null) b.drops = (b.drops ?? 0) - 1;
  const piece = b.pieceBytes ?? body.length;
  let sent = 0;
  while (sent < body.length) {
    if (drop !== null && sent >= drop) {
      res.socket?.destroy();
      return;
    }
    if (b.stallAfterBytes !== undefined && sent >= b.stallAfterBytes) {
      await new Promise((resolve) => res.once('close', resolve));
      return;
    }
    const limits = [body.length, sent + piece, drop ?? Infinity, b.stallAfterBytes ?? Infinity];
    const end = Math.max(sent + 1, Math.min(...limits));
    res.write(body.subarray(sent, end));
    sent = end;
    if (b.pieceDelayMs) await sleep(b.pieceDelayMs);
    if (res.destroyed) return;
  }
  res.end();
}

async function serve(
  repos: FakeRepos,
  b: FakeHubBehaviour,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const url = req.url ?? '';
  if (b.requireToken !== undefined && req.headers.authorization !== `Bearer ${b.requireToken}`) {
    res.writeHead(401).end('unauthorized');
    return;
  }
  if ((b.failTimes ?? 0) > 0) {
    b.failTimes = (b.failTimes ?? 0) - 1;
    res.writeHead(b.failStatus ?? 503, { 'retry-after': '0' }).end('try later');
    return;
  }
  if (b.redirectTo) {
    res.writeHead(302, { location: `${b.redirectTo.replace(/\/$/, '')}${url}` }).end();
    return;
  }
  const file = lookup(repos, url);
  if (!file) {
    res.writeHead(404).end('not found');
    return;
  }
  const body = b.corrupt ? Buffer.concat([Buffer.from([(file[0] ?? 0) ^ 0xff]), file.subarray(1)]) : file;
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const start = range && !b.ignoreRange ? Number(range[1]) : 0;
  if (start >= body.length && start > 0) {
    res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
    return;
  }
  const part = body.subarray(start);
  const headers: http.OutgoingHttpHeaders = { 'content-length': b.announceLength ?? part.length };
  if (start > 0) headers['content-range'] = `bytes ${start}-${body.length - 1}/${body.length}`;
  res.writeHead(start > 0 ? 206 : 200, headers);
  await sendBody(res, part, b);
}

/**
 * Start the hub; with `tls` (a key and certificate in PEM) it speaks HTTPS. `port` 0 takes a free port; another
 * number is a hub that appears where a client already expected one.
 */
export async function startFakeHub(
  repos: FakeRepos,
  behaviour: FakeHubBehaviour = {},
  tls?: { key: string; cert: string },
  port = 0,
): Promise<FakeHub> {
  const requests: LoggedRequest[] = [];
  const hub = { behaviour } as FakeHub;
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      range: req.headers.range,
      authorization: req.headers.authorization,
    });
    serve(repos, hub.behaviour, req, res).catch(() => res.destroy());
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  hub.url = `${tls ? 'https' : 'http'}://127.0.0.1:${bound}`;
  hub.requests = requests;
  hub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return hub;
}

/** A loopback port nothing listens on (taken, then released): connecting to it is refused. */
export async function refusingPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
