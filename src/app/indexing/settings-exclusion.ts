// Which stored documents the settings leave out, for a reason other than the files themselves: a parser that is
// not enabled (so the file's extension is not walked) or a folder named in `exclude_dirs`. Pure.
import { formatOfPath } from '../../document/document-formats.js';

export interface ExclusionRules {
  /** Extensions the enabled parsers claim (no dot). */
  extensions: readonly string[];
  /** `exclude_dirs`: folder names skipped anywhere in the KB, matched case-insensitively. */
  excludeDirs: readonly string[];
}

export type SettingsExclusion =
  | { setting: 'parsers'; parser: string }
  | { setting: 'exclude_dirs'; folder: string };

/** Lowercase with final sigma folded, as the walk compares names. */
function foldCase(name: string): string {
  return name.toLowerCase().replaceAll('ς', 'σ');
}

/** A matcher that says why the settings leave `relPath` out, or null when they admit it. */
export function settingsExclusionMatcher(
  rules: ExclusionRules,
): (relPath: string) => SettingsExclusion | null {
  const extensions = new Set(rules.extensions.map((ext) => foldCase(ext.replace(/^\./, ''))));
  const excluded = new Set(rules.excludeDirs.map(foldCase));
  return (relPath) => {
    const segments = relPath.split('/');
    const folder = segments.slice(0, -1).find((segment) => excluded.has(foldCase(segment)));
    if (folder !== undefined) return { setting: 'exclude_dirs', folder };
    const name = segments.at(-1) ?? '';
    const dot = name.lastIndexOf('.');
    if (dot > 0 && extensions.has(foldCase(name.slice(dot + 1)))) return null;
    return { setting: 'parsers', parser: formatOfPath(relPath) };
  };
}

/** "3 pdf, 1 docx (parsers not enabled); 2 under "drafts" (exclude_dirs)", largest groups first. */
export function describeExclusions(exclusions: readonly SettingsExclusion[]): string {
  const count = (keys: string[]) => {
    const tally = new Map<string, number>();
    for (const key of keys) tally.set(key, (tally.get(key) ?? 0) + 1);
    return [...tally].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  };
  const parsers = count(exclusions.flatMap((e) => (e.setting === 'parsers' ? [e.parser] : [])));
  const folders = count(exclusions.flatMap((e) => (e.setting === 'exclude_dirs' ? [e.folder] : [])));
  const parts: string[] = [];
  if (parsers.length > 0)
    parts.push(
      `${parsers.map(([parser, n]) => `${n} ${parser}`).join(', ')} (parser not enabled: [parsers] enabled, [parsers.code] languages)`,
    );
  if (folders.length > 0)
    parts.push(
      `${folders.map(([folder, n]) => `${n} under "${folder}"`).join(', ')} (folder in exclude_dirs)`,
    );
  return parts.join('; ');
}
