// Which proxy a hub request goes through, from the proxy variables (pure: no I/O).
// Rules: an https URL uses the HTTPS proxy, an http URL the HTTP proxy; a proxy without a scheme is http://;
// NO_PROXY bypasses the proxy for the hosts it lists. A NO_PROXY entry is `*` (every host), a host name
// (`example.com`, `.example.com` and `*.example.com` all match example.com and every name under it), an IP
// address or an IP range in CIDR form (`10.0.0.0/8`, `fd00::/8`), each optionally with `:port`.
import net from 'node:net';
import type { HubEnvironment } from '../types.js';

export type ProxyVariables = Pick<HubEnvironment, 'httpsProxy' | 'httpProxy' | 'noProxy'>;

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** A host without the brackets an IPv6 literal has in a URL, lowercased. */
function bareHost(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

interface NoProxyEntry {
  host: string;
  port: string | null;
}

function parseEntry(raw: string): NoProxyEntry {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (bracketed) return { host: (bracketed[1] as string).toLowerCase(), port: bracketed[2] ?? null };
  const hostPort = /^([^:]+):(\d+)$/.exec(raw);
  if (hostPort) return { host: (hostPort[1] as string).toLowerCase(), port: hostPort[2] as string };
  return { host: raw.toLowerCase(), port: null };
}

function hostMatches(entry: string, host: string): boolean {
  const slash = entry.indexOf('/');
  if (slash > 0) {
    const family = net.isIP(host);
    const base = entry.slice(0, slash);
    const bits = Number(entry.slice(slash + 1));
    if (family === 0 || net.isIP(base) !== family || !Number.isInteger(bits)) return false;
    const range = new net.BlockList();
    range.addSubnet(base, bits, family === 4 ? 'ipv4' : 'ipv6');
    return range.check(host, family === 4 ? 'ipv4' : 'ipv6');
  }
  if (net.isIP(entry) !== 0) return entry === host;
  const domain = entry.replace(/^\*?\./, '');
  return host === domain || host.endsWith(`.${domain}`);
}

/** Whether NO_PROXY sends requests to `url` directly. */
export function bypassesProxy(url: URL, noProxy: string | null): boolean {
  if (!noProxy) return false;
  const host = bareHost(url.hostname);
  const port = defaultPort(url);
  for (const raw of noProxy.split(/[\s,]+/)) {
    if (raw === '') continue;
    if (raw === '*') return true;
    const entry = parseEntry(raw);
    if (entry.port !== null && entry.port !== port) continue;
    if (hostMatches(entry.host, host)) return true;
  }
  return false;
}

/** The proxy for `url`, or null for a direct connection. */
export function proxyFor(url: URL, variables: ProxyVariables): URL | null {
  const configured = url.protocol === 'https:' ? variables.httpsProxy : variables.httpProxy;
  if (!configured || bypassesProxy(url, variables.noProxy)) return null;
  return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(configured) ? configured : `http://${configured}`);
}
