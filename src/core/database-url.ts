// How a database URL is shown to people (the password is always replaced, whatever else is printed), and what is
// wrong with one that does not parse, said without echoing any part that might be a secret.

/** The URL with its password (if any) replaced by `***`; text that does not parse is reduced to its scheme. */
export function maskDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? '';
    return `${scheme}//***`;
  }
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** `host:port` of a database URL (port 5432 when it names none), for messages about reaching the server. */
export function databaseHostOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'the configured host';
  }
}

/**
 * What is wrong with a database URL that cannot be parsed (so no server is ever asked), or null when it parses.
 * The reason names the part, never its text: in a malformed URL a password can sit where a port should.
 */
export function databaseUrlProblem(url: string): string | null {
  try {
    new URL(url);
    return null;
  } catch {
    // Diagnosed below.
  }
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostPort.includes(',')) return 'it lists several hosts; groove connects to one host:port';
  let port: string | null = null;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close === -1) return 'the IPv6 address opened with "[" is not closed with "]"';
    const rest = hostPort.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return 'only ":port" may follow the "]" of an IPv6 address';
    port = rest === '' ? null : rest.slice(1);
  } else if (hostPort.includes(':')) {
    port = hostPort.slice(hostPort.lastIndexOf(':') + 1);
  }
  if (port !== null && port !== '') {
    if (!/^\d+$/.test(port)) return 'the port is not a number';
    if (Number(port) < 1 || Number(port) > 65535) return 'the port is not from 1 to 65535';
  }
  return 'it is not a valid URL (check for spaces, stray characters or an unescaped "@", ":" or "/" in the password)';
}
