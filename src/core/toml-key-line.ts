// Which line of a TOML text defines a key path (`kb.notes.model`), for error messages that name a line. It reads
// table headers (`[kb.notes]`, `[kb."notes"]`) and `key = value` lines, tracking the table each key is in. It is
// a locator for text a TOML parser already accepted, not a parser: a key inside a multi-line string may be
// mistaken for a definition, which at worst names a nearby line.

const SEGMENT = /^\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*/;

/** The segments of a dotted key (`a."b.c".d` → a, b.c, d); null when the text is not a key. */
export function splitDottedKey(text: string): string[] | null {
  const segments: string[] = [];
  let rest = text;
  for (;;) {
    const match = SEGMENT.exec(rest);
    if (!match) return null;
    segments.push(match[1] ?? match[2] ?? match[3]!);
    rest = rest.slice(match[0].length);
    if (rest === '') return segments;
    if (!rest.startsWith('.')) return null;
    rest = rest.slice(1);
  }
}

/** The key path a line defines: a header's table, or the current table plus the key before `=`. */
function definedPath(line: string, table: readonly string[]): { path: string[]; header: boolean } | null {
  const header = /^\s*\[\[?([^\]]*)\]\]?\s*(#.*)?$/.exec(line);
  if (header) {
    const path = splitDottedKey(header[1]!);
    return path ? { path, header: true } : null;
  }
  const equals = keyEnd(line);
  if (equals < 0) return null;
  const key = splitDottedKey(line.slice(0, equals));
  return key ? { path: [...table, ...key], header: false } : null;
}

/** Index of the `=` that ends a key (outside quotes), or -1. */
function keyEnd(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '=') return i;
    else if (c === '#') return -1;
  }
  return -1;
}

function sharedPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The 1-based line that defines `keyPath`, or the line of its deepest defined ancestor (a table header or an
 * inline table holding it); null when no line defines any part of it.
 */
export function lineOfTomlKey(text: string, keyPath: readonly string[]): number | null {
  let table: string[] = [];
  let best: { line: number; depth: number } | null = null;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const defined = definedPath(lines[i]!, table);
    if (!defined) continue;
    if (defined.header) table = defined.path;
    const depth = sharedPrefix(defined.path, keyPath);
    // A line counts when its path leads to the key or lies inside it; a sibling only shares a prefix.
    if (depth === 0 || (depth < defined.path.length && depth < keyPath.length)) continue;
    if (!best || depth > best.depth) best = { line: i + 1, depth };
  }
  return best?.line ?? null;
}
