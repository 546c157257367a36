// Which indexed document a stored note link points to, decided from the link and the documents that share its
// file name — so the store narrows the candidates with one indexed lookup and this file applies the rules:
//   1. the path itself (a Markdown file may be named without its extension): the target read from the KB root,
//      then — for a wikilink name — read from the linking note's folder; byte-exact first, then case-folded;
//   2. a wikilink name only (never a Markdown link or a `./` `../` `/` wikilink): any document whose path ends
//      with the name at a folder boundary, case-folded (`[[Name]]` is a unique file-name match, `[[b/Name]]`
//      a path-suffix match).
// Several documents on one rung: the shortest path wins, then the first in code-unit order.
// A target ending in `.html` / `.htm` names the page built from a Markdown source (mdBook writes its cross-links
// to `chapter.html`); groove indexes no HTML, so such a link is read as a link to `chapter` (`chapter.md`).

import { baseNameOf, folderOf, joinKbPath, stemOf } from '../core/kb-path.js';
import type { LinkKind } from '../types.js';
import { formatOfPath } from './parse-document.js';

/** The case- and Unicode-form-insensitive spelling names are compared in (NFC, then lower case). */
export function foldName(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/**
 * The keys a document is found under: its folded file name, and for a Markdown document also the name without
 * its extension (a link may omit `.md`).
 */
export function documentNameKeys(path: string): string[] {
  const name = foldName(baseNameOf(path));
  if (!isMarkdownPath(path)) return [name];
  const stem = foldName(baseNameOf(stemOf(path)));
  return stem === name ? [name] : [name, stem];
}

/** The key a link is looked up by: the folded file name of its target (one of the documentNameKeys of a match). */
export function linkNameKey(target: string): string {
  return foldName(baseNameOf(sourceOfPage(target)));
}

const BUILT_PAGE = /\.html?$/i;

/** `ch16-03.html` → `ch16-03`: the Markdown source a built page is made from; any other target as it is. */
function sourceOfPage(target: string): string {
  const stem = target.replace(BUILT_PAGE, '');
  return stem === target || baseNameOf(stem) === '' ? target : stem;
}

export interface StoredLink {
  /** Path of the note the link is written in. */
  source: string;
  kind: LinkKind;
  target: string;
  anchored: boolean;
}

/** The document `link` points to among `candidates` (indexed paths), or null when none matches. */
export function resolveNoteLink(written: StoredLink, candidates: readonly string[]): string | null {
  if (candidates.length === 0) return null;
  const link = { ...written, target: sourceOfPage(written.target) };
  const paths = [link.target];
  if (!link.anchored) {
    const fromFolder = joinKbPath(folderOf(link.source), link.target);
    if (fromFolder !== null && fromFolder !== link.target) paths.push(fromFolder);
  }
  for (const path of paths) {
    const exact = candidates.filter((doc) => namesPath(doc, path, (text) => text));
    if (exact.length > 0) return pick(exact);
    const folded = candidates.filter((doc) => namesPath(doc, path, foldName));
    if (folded.length > 0) return pick(folded);
  }
  if (link.anchored) return null;
  const name = foldName(link.target);
  const bySuffix = candidates.filter((doc) => {
    const folded = foldName(doc);
    return endsAtFolder(folded, name) || (isMarkdownPath(doc) && endsAtFolder(foldName(stemOf(doc)), name));
  });
  return bySuffix.length > 0 ? pick(bySuffix) : null;
}

/**
 * Whether a link target that matched no document names a note (so it is a dangling link) rather than another
 * kind of file: a target with an extension groove does not index (`.png`, `.pdf`…) is an attachment. An
 * extension is a final `.` and letters/digits with at least one letter (`v1.2`, `Mr. Smith` have none).
 */
export function isNoteTarget(target: string, noteExtensions: readonly string[]): boolean {
  const match = /\.([A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*)$/.exec(baseNameOf(target));
  if (!match) return true;
  const extension = match[1]!.toLowerCase();
  return noteExtensions.some((enabled) => enabled.replace(/^\./, '').toLowerCase() === extension);
}

function isMarkdownPath(path: string): boolean {
  return formatOfPath(path) === 'md';
}

/** `doc` is `path`, or a Markdown document `path` names without its extension, compared through `fold`. */
function namesPath(doc: string, path: string, fold: (text: string) => string): boolean {
  const wanted = fold(path);
  return fold(doc) === wanted || (isMarkdownPath(doc) && fold(stemOf(doc)) === wanted);
}

function endsAtFolder(path: string, name: string): boolean {
  return path === name || path.endsWith(`/${name}`);
}

/** The shortest path, then the first in code-unit order. */
function pick(paths: readonly string[]): string {
  let best = paths[0]!;
  for (const path of paths) {
    if (path.length < best.length || (path.length === best.length && path < best)) best = path;
  }
  return best;
}
