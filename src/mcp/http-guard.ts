// The HTTP transport's security gate as pure predicates: Host and Origin allow-lists (DNS rebinding), the optional
// bearer token, the request target and Content-Type the front gate accepts, and whether a bind address stays on
// this machine. No I/O, so every rule is unit-tested.
import { createHash, timingSafeEqual } from 'node:crypto';

export interface HostAndPort {
  /** Lower-cased name or address; IPv6 keeps its brackets (`[::1]`), as URL.hostname spells it. */
  host: string;
  /** null when the value names no port. */
  port: number | null;
}

/** Host names that always mean this machine. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::(\d{1,5}))?$/i;

/** Parse a Host header or allow-list entry (`name`, `name:port`, `[v6]`, `[v6]:port`); null when malformed. */
export function parseHostAndPort(value: string): HostAndPort | null {
  const match = HOST_PATTERN.exec(value.trim());
  if (!match) return null;
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && port > 65_535) return null;
  return { host: match[1]!.toLowerCase(), port };
}

/**
 * True when the Host header names an allowed host. An entry without a port allows every port; with a port, only
 * that one. A missing or malformed header is refused: HTTP/1.1 requires it, and rebinding attacks forge it.
 */
export function isHostAllowed(hostHeader: string | undefined, allowed: readonly string[]): boolean {
  if (!hostHeader) return false;
  const sent = parseHostAndPort(hostHeader);
  if (!sent) return false;
  return allowed.some((entry) => {
    const wanted = parseHostAndPort(entry);
    return (
      wanted !== null && wanted.host === sent.host && (wanted.port === null || wanted.port === sent.port)
    );
  });
}

/** RFC 3986 `pchar`: what one path segment may hold (other bytes must be percent-encoded). */
const PCHAR = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})";
/** RFC 9112 origin-form: `/segment/…` then an optional `?query`; no fragment. Linear: no segment holds a `/`. */
const ORIGIN_FORM = new RegExp(`^((?:/${PCHAR}*)+)(?:\\?(?:${PCHAR}|[/?])*)?$`);

/**
 * The path of a request target in origin-form (`/mcp`, `/healthz?x=1`), exactly as sent — never resolved, so
 * `//host/mcp` is the path `//host/mcp`, not `/mcp` — or null for any other form (absolute `http://…`, `*`) and
 * for characters a URL path cannot hold (`//[`).
 */
export function requestPathOf(target: string): string | null {
  const match = ORIGIN_FORM.exec(target);
  return match ? match[1]! : null;
}

/**
 * True for `application/json` (any case), optionally with `charset=utf-8`: bodies are always decoded as UTF-8
 * (RFC 8259), so a body declared in another charset or media type is refused rather than misread.
 */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [mediaType, ...parameters] = value.split(';');
  if (mediaType!.trim().toLowerCase() !== 'application/json') return false;
  return parameters.every((parameter) => {
    const [name, raw = ''] = parameter.split('=', 2).map((part) => part.trim().toLowerCase());
    if (name !== 'charset') return true;
    const charset = raw.replace(/^"(.*)"$/, '$1');
    return charset === 'utf-8' || charset === 'utf8';
  });
}

interface OriginParts {
  scheme: string;
  host: string;
  /** The explicit port, or null when the origin names none (the scheme default). */
  port: number | null;
}

function parseOrigin(value: string): OriginParts | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return null;
  try {
    const url = new URL(value);
    return {
      scheme: url.protocol.toLowerCase(),
      host: url.hostname.toLowerCase(),
      port: url.port === '' ? null : Number(url.port),
    };
  } catch {
    return null;
  }
}

/**
 * True when a browser Origin is allowed. Requests without Origin pass (non-browser clients never send one, and a
 * browser always does on cross-origin POSTs); `null` and malformed origins are refused. Entries must carry a
 * scheme; an entry without a port allows every port.
 */
export function isOriginAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  const sent = parseOrigin(origin);
  if (!sent) return false;
  return allowed.some((entry) => {
    const wanted = parseOrigin(entry);
    if (!wanted || wanted.scheme !== sent.scheme || wanted.host !== sent.host) return false;
    return wanted.port === null || wanted.port === (sent.port ?? defaultPortOf(sent.scheme));
  });
}

function defaultPortOf(scheme: string): number | null {
  return scheme === 'http:' ? 80 : scheme === 'https:' ? 443 : null;
}

/**
 * True when no token is configured, or the Authorization header is `Bearer <token>`. Digests are compared in
 * constant time so the response time does not reveal how much of a guess was right.
 */
export function isTokenAccepted(authorization: string | undefined, token: string | null): boolean {
  if (token === null) return true;
  if (!authorization) return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/** True for addresses only this machine can reach: `localhost`, 127.0.0.0/8, `::1` (bracketed or not). */
export function isLoopbackBind(address: string): boolean {
  const value = address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (value === 'localhost' || value === '::1' || value === '0:0:0:0:0:0:0:1') return true;
  const v4 = value.startsWith('::ffff:') ? value.slice('::ffff:'.length) : value;
  const octets = v4.split('.');
  if (octets.length !== 4 || !octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)) return false;
  return octets[0] === '127';
}

/** The Host allow-list when `[transport.http] allowed_hosts` is empty: loopback names plus a specific bind. */
export function defaultAllowedHosts(bind: string): string[] {
  const hosts = [...LOOPBACK_HOSTS];
  const bare = bind.trim().toLowerCase();
  const isWildcard = bare === '0.0.0.0' || bare === '::' || bare === '[::]';
  if (!isWildcard && !isLoopbackBind(bare))
    hosts.push(bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare);
  return hosts;
}

/** The Origin allow-list when `allowed_origins` is empty: the loopback origins on the port being served. */
export function defaultAllowedOrigins(port: number): string[] {
  return LOOPBACK_HOSTS.map((host) => `http://${host}:${port}`);
}
