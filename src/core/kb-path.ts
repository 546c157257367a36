// KB-relative paths as links use them: `/`-separated, no leading slash, `.` and `..` folded away. Pure string
// rules, no file system: a path that climbs above the KB root is no path at all (null).

/** `a/./b//c/../d.md` → `a/b/d.md`; null when `..` climbs above the root or nothing is left. */
export function normalizeKbPath(path: string): string | null {
  const kept: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (kept.length === 0) return null;
      kept.pop();
    } else kept.push(segment);
  }
  return kept.length === 0 ? null : kept.join('/');
}

/** `relative` read from `folder` (both KB-relative; `folder` '' is the root), normalised. */
export function joinKbPath(folder: string, relative: string): string | null {
  return normalizeKbPath(folder === '' ? relative : `${folder}/${relative}`);
}

/** The folder holding `path`: `a/b/c.md` → `a/b`, `c.md` → ''. */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The last segment: `a/b/c.md` → `c.md`. */
export function baseNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `path` without the extension of its last segment: `a/c.md` → `a/c`; a dot-file or a bare name is kept. */
export function stemOf(path: string): string {
  const base = baseNameOf(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? path.slice(0, path.length - base.length + dot) : path;
}
