// How a database URL is shown to people: the password is always replaced, whatever else is printed.

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
