// The `<kb>/.grooveignore` layer: gitignore-syntax patterns, matched case-insensitively. Every pattern applies,
// however many there are: never index what the user asked to ignore. An ignore file that cannot be used (link,
// special file, over MAX_IGNORE_FILE_BYTES, not UTF-8) refuses the run rather than index without its rules.
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { GrooveError } from '../errors.js';
import { decodeUtf8Text, describeSkipReason, readCheckedFile } from './checked-read.js';

export const GROOVEIGNORE_FILE = '.grooveignore';
/** About 200,000 patterns of typical length; the bound is on memory, not on the number of patterns. */
export const MAX_IGNORE_FILE_BYTES = 8 * 1024 * 1024;

export interface IgnoreRules {
  /** `relPath` is relative to the KB root with `/` separators; `isDir` makes `dir/` patterns apply. */
  isIgnored(relPath: string, isDir: boolean): boolean;
  /** Patterns in force, not counting blank and comment lines. */
  readonly patternCount: number;
  readonly warnings: string[];
}

/** The rules when there is no ignore file. */
export function createEmptyIgnoreRules(warnings: string[] = []): IgnoreRules {
  return { isIgnored: () => false, patternCount: 0, warnings };
}

/**
 * Read `<kbRoot>/.grooveignore` (only the root one; nested files and `.gitignore` are not read). Throws
 * IGNORE_FILE_UNUSABLE when the file exists but cannot be used.
 */
export function loadIgnoreRules(kbRoot: string): IgnoreRules {
  const read = readCheckedFile(path.join(kbRoot, GROOVEIGNORE_FILE), { maxBytes: MAX_IGNORE_FILE_BYTES });
  if (!read.ok) {
    // No ignore file is the normal case.
    if (read.reason === 'vanished') return createEmptyIgnoreRules();
    throw unusable(describeSkipReason(GROOVEIGNORE_FILE, read, capAdvice));
  }
  const decoded = decodeUtf8Text(read.bytes);
  if (!decoded.ok) throw unusable(describeSkipReason(GROOVEIGNORE_FILE, decoded));
  return compileIgnoreRules(decoded.text);
}

const capAdvice = {
  capAdvice: `merge patterns with wildcards such as \`drafts/**\` to bring it under ${MAX_IGNORE_FILE_BYTES} bytes`,
};

function unusable(description: string): GrooveError {
  // describeSkipReason says "skipped …": here nothing is indexed at all.
  const reason = description.replace(/^skipped /, '');
  return new GrooveError(
    'IGNORE_FILE_UNUSABLE',
    `cannot use ${reason}; nothing was indexed, since files it ignores would be`,
    { hint: `fix or remove ${GROOVEIGNORE_FILE} in the knowledge base folder` },
  );
}

/**
 * Build rules from the text of an ignore file. The `ignore` package tests every rule against every path, which
 * is slow for thousands of rules; so rules are grouped by one literal path segment each must match (`drafts`
 * in `drafts/`, `b.md` in `a/**\/b.md`), and a path is tested only against the rules of its own segments plus
 * the rules without such a segment (`*.tmp`). A rule that cannot match a path or any of its parent folders
 * never changes gitignore's answer for it, negations included, so the answer is the one of all the rules.
 */
export function compileIgnoreRules(text: string): IgnoreRules {
  const patterns: string[] = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    // Blank lines and `#` comments are not patterns (`\#` escapes a leading hash, as in git).
    if (line.trim() === '' || line.startsWith('#')) continue;
    patterns.push(line);
  }
  if (patterns.length === 0) return createEmptyIgnoreRules();

  const bySegment = new Map<string, number[]>();
  const unkeyed: number[] = [];
  patterns.forEach((pattern, index) => {
    const key = literalSegmentOf(pattern);
    if (key === null) unkeyed.push(index);
    else {
      const rules = bySegment.get(key);
      if (rules === undefined) bySegment.set(key, [index]);
      else rules.push(index);
    }
  });
  const matchers = new MatcherCache(patterns, unkeyed);
  return {
    patternCount: patterns.length,
    warnings: [],
    isIgnored(relPath: string, isDir: boolean): boolean {
      if (!ignore.isPathValid(relPath)) return false;
      const keyed: number[] = [];
      for (const segment of relPath.toLowerCase().split('/')) {
        for (const index of bySegment.get(segment) ?? []) keyed.push(index);
      }
      if (keyed.length === 0 && unkeyed.length === 0) return false;
      // The matcher also tests every parent folder, so nothing under an ignored folder comes back.
      return matchers.for(keyed).ignores(isDir ? `${relPath}/` : relPath);
    },
  };
}

// Special to gitignore anywhere in a pattern: wildcards, classes and escapes. A segment with none of them,
// printable ASCII only (so lower-casing agrees with the matcher's case-insensitive comparison), must equal a
// path segment for the rule to match.
const NOT_LITERAL = /[*?[\]\\]|[^\x20-\x7e]/;

/** The lower-cased literal segment every path (or parent folder) the pattern matches contains, or null. */
function literalSegmentOf(pattern: string): string | null {
  const body = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  // Leading or trailing spaces are trimmed or escaped by gitignore rules: leave those rules unkeyed.
  if (body !== body.trim() || body.includes('\\')) return null;
  const segments = body.split('/');
  // The last literal segment is the most specific one (the file or the innermost folder).
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i]!;
    if (segment === '' || segment === '.' || segment === '..' || NOT_LITERAL.test(segment)) continue;
    return segment.toLowerCase();
  }
  return null;
}

/**
 * One `ignore` matcher per distinct set of keyed rules a path can meet (the unkeyed rules are in every one),
 * its rules in file order, as gitignore's last-match-wins needs. Bounded: cleared when full.
 */
class MatcherCache {
  private readonly cache = new Map<string, Ignore>();
  private static readonly MAX_ENTRIES = 4096;

  constructor(
    private readonly patterns: readonly string[],
    private readonly unkeyed: readonly number[],
  ) {}

  for(keyed: number[]): Ignore {
    const extra = [...new Set(keyed)].sort((a, b) => a - b);
    const key = extra.join(',');
    let matcher = this.cache.get(key);
    if (matcher === undefined) {
      if (this.cache.size >= MatcherCache.MAX_ENTRIES) this.cache.clear();
      const indices = [...this.unkeyed, ...extra].sort((a, b) => a - b);
      matcher = ignore({ ignorecase: true }).add(indices.map((i) => this.patterns[i]!));
      this.cache.set(key, matcher);
    }
    return matcher;
  }
}
