// A Markdown body → the links to other notes written in it: inline `[text](target)` and reference links
// `[text][ref]` / `[ref]` with their `[ref]: target` definitions, and `[[wikilinks]]` / `![[embeds]]`. Code
// (fenced, indented, spans) and HTML comments never hold links; images are not links; external targets
// (`scheme:`, `//host`, so every autolink) and same-note fragments are not note links. The scanner is
// hand-written and linear (link-blocks.ts, link-inline.ts), like the chunker: a CommonMark parser costs far more
// than indexing a note does, and a hostile note must not stall a run. Each distinct link is returned once, in the
// order it first appears.

import { folderOf, joinKbPath, normalizeKbPath } from '../core/kb-path.js';
import type { NoteLink } from '../types.js';
import { scanLinkBlocks } from './link-blocks.js';
import { scanInlineLinks } from './link-inline.js';

/** The version of these rules: bump it when a note's links would come out differently, and every file is re-parsed. */
export const NOTE_LINK_RULES = 2;

/** `http:`, `mailto:`, `obsidian:`, `C:`…: anything with a URI scheme points outside the KB. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * The note links of one Markdown body (frontmatter already removed). `sourcePath` is the note's KB-relative path:
 * relative Markdown targets and `./` / `../` wikilinks are resolved against its folder.
 */
export function extractNoteLinks(sourcePath: string, body: string): NoteLink[] {
  // A Markdown link needs `](` or a `]:` definition, a wikilink `[[`: most notes skip the scan entirely.
  if (!body.includes('](') && !body.includes(']:') && !body.includes('[[')) return [];
  const blocks = scanLinkBlocks(body);
  const seen = new Set<string>();
  const links: NoteLink[] = [];
  const found = scanInlineLinks(body, blocks.segments, blocks.definitions);
  // A link is reported at its closing bracket; order them by where they start.
  found.sort((x, y) => x.offset - y.offset);
  for (const inline of found) {
    const link =
      inline.kind === 'wikilink'
        ? wikilinkOf(sourcePath, inline.inner)
        : markdownLinkOf(sourcePath, inline.destination);
    if (link === null) continue;
    const key = JSON.stringify([link.kind, link.anchored, link.target, link.heading]);
    if (seen.has(key)) continue;
    seen.add(key);
    links.push(link);
  }
  return links;
}

/** A Markdown destination → a note link, or null for an external URL, a same-note fragment or a folder. */
export function markdownLinkOf(sourcePath: string, url: string): NoteLink | null {
  const destination = url.trim();
  if (destination === '' || SCHEME.test(destination) || destination.startsWith('//')) return null;
  const { path, heading } = splitFragment(destination);
  const withoutQuery = path.split('?', 1)[0]!;
  if (withoutQuery === '') return null;
  const decoded = percentDecode(withoutQuery);
  if (decoded.endsWith('/')) return null;
  const target = decoded.startsWith('/')
    ? normalizeKbPath(decoded)
    : joinKbPath(folderOf(sourcePath), decoded);
  if (target === null) return null;
  return { kind: 'markdown', written: url, target, anchored: true, heading: decodedHeading(heading) };
}

/**
 * The text inside `[[…]]` → a note link. `Name|alias` drops the alias (and a `\` before `|`, as tables need),
 * `Name#Heading` keeps the heading. `./x`, `../x` and `/x` are paths; any other name is matched Obsidian-style.
 */
export function wikilinkOf(sourcePath: string, inner: string): NoteLink | null {
  const pipe = inner.indexOf('|');
  let written = pipe === -1 ? inner : inner.slice(0, pipe);
  if (pipe !== -1 && written.endsWith('\\')) written = written.slice(0, -1);
  written = written.trim();
  const { path, heading } = splitFragment(written);
  const name = path.trim();
  if (name === '' || SCHEME.test(name)) return null;
  const anchored = name.startsWith('/') || name.startsWith('./') || name.startsWith('../');
  const target = name.startsWith('/')
    ? normalizeKbPath(name)
    : anchored
      ? joinKbPath(folderOf(sourcePath), name)
      : normalizeKbPath(name);
  if (target === null) return null;
  const trimmedHeading = heading?.trim() ?? '';
  return {
    kind: 'wikilink',
    written,
    target,
    anchored,
    heading: trimmedHeading === '' ? null : trimmedHeading,
  };
}

function splitFragment(text: string): { path: string; heading: string | null } {
  const hash = text.indexOf('#');
  return hash === -1
    ? { path: text, heading: null }
    : { path: text.slice(0, hash), heading: text.slice(hash + 1) };
}

function decodedHeading(fragment: string | null): string | null {
  if (fragment === null) return null;
  const heading = percentDecode(fragment).trim();
  return heading === '' ? null : heading;
}

/** `%20` → space; a malformed escape leaves the text as written. */
function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
