// The `<kb>/.grooveignore` layer: gitignore-syntax patterns, matched case-insensitively. A bad ignore file
// (link, special file, too big, not UTF-8) costs a warning and no rules, never the run.
import * as path from 'node:path';
import ignore from 'ignore';
import { decodeUtf8Text, describeSkipReason, readCheckedFile } from './checked-read.js';

export const GROOVEIGNORE_FILE = '.grooveignore';
export const MAX_IGNORE_FILE_BYTES = 64 * 1024;
export const MAX_IGNORE_PATTERNS = 1000;

export interface IgnoreRules {
  /** `relPath` is relative to the KB root with `/` separators; `isDir` makes `dir/` patterns apply. */
  isIgnored(relPath: string, isDir: boolean): boolean;
  /** Patterns in force (after the cap), not counting blank and comment lines. */
  readonly patternCount: number;
  readonly warnings: string[];
}

/** The rules when there is no ignore file, or it was refused. */
export function createEmptyIgnoreRules(warnings: string[] = []): IgnoreRules {
  return { isIgnored: () => false, patternCount: 0, warnings };
}

/** Read `<kbRoot>/.grooveignore` (only the root one; nested files and `.gitignore` are not read). */
export function loadIgnoreRules(kbRoot: string): IgnoreRules {
  const read = readCheckedFile(path.join(kbRoot, GROOVEIGNORE_FILE), { maxBytes: MAX_IGNORE_FILE_BYTES });
  if (!read.ok) {
    // No ignore file is the normal case, not a warning.
    if (read.reason === 'vanished') return createEmptyIgnoreRules();
    return createEmptyIgnoreRules([refusalWarning(describeSkipReason(GROOVEIGNORE_FILE, read, capAdvice))]);
  }
  const decoded = decodeUtf8Text(read.bytes);
  if (!decoded.ok) {
    return createEmptyIgnoreRules([refusalWarning(describeSkipReason(GROOVEIGNORE_FILE, decoded))]);
  }
  return compileIgnoreRules(decoded.text);
}

const capAdvice = { capAdvice: `keep ${GROOVEIGNORE_FILE} under ${MAX_IGNORE_FILE_BYTES} bytes` };

function refusalWarning(description: string): string {
  return `${description}; indexing continues without ignore rules`;
}

/** Build rules from the text of an ignore file; keeps the first MAX_IGNORE_PATTERNS patterns. */
export function compileIgnoreRules(text: string): IgnoreRules {
  const warnings: string[] = [];
  const patterns: string[] = [];
  let total = 0;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    // Blank lines and `#` comments are not patterns (`\#` escapes a leading hash, as in git).
    if (line.trim() === '' || line.startsWith('#')) continue;
    total += 1;
    if (patterns.length < MAX_IGNORE_PATTERNS) patterns.push(line);
  }
  if (total > MAX_IGNORE_PATTERNS) {
    warnings.push(
      `${GROOVEIGNORE_FILE} has ${total} patterns, over the limit of ${MAX_IGNORE_PATTERNS}; ` +
        `only the first ${MAX_IGNORE_PATTERNS} apply (merge patterns with wildcards such as \`drafts/**\`)`,
    );
  }
  if (patterns.length === 0) return createEmptyIgnoreRules(warnings);

  const matcher = ignore({ ignorecase: true }).add(patterns);
  return {
    patternCount: patterns.length,
    warnings,
    isIgnored(relPath: string, isDir: boolean): boolean {
      if (!ignore.isPathValid(relPath)) return false;
      // The matcher also tests every parent folder, so nothing under an ignored folder comes back.
      return matcher.ignores(isDir ? `${relPath}/` : relPath);
    },
  };
}
