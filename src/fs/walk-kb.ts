// The knowledge-base walk: which files are candidates for indexing, and which were passed over and why.
// Exclusion is a union of layers (always-excluded dirs ∪ exclude_dirs ∪ .grooveignore); links are never
// followed; the name rule shared with get_document decides which paths can be addressed at all.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALWAYS_EXCLUDED_DIRS } from '../config/defaults.js';
import { displayPath } from '../core/display-path.js';
import { GrooveError } from '../errors.js';
import { describeFsFailure, errnoText, skipFixFor } from './checked-read.js';
import { type IgnoreRules, loadIgnoreRules } from './ignore-rules.js';

export interface WalkOptions {
  /** Absolute path of the KB folder. The root itself may be a symlink; nothing inside it is followed. */
  root: string;
  /** Wanted final extensions without the dot, e.g. `['md', 'txt']`; matched case-insensitively. */
  extensions: readonly string[];
  /** Folder basenames to skip, whole name, case-insensitive; ALWAYS_EXCLUDED_DIRS are added. */
  excludeDirs?: readonly string[];
  /** Already-loaded `.grooveignore` rules; when absent they are loaded from `root` and their warnings reported. */
  ignoreRules?: IgnoreRules;
}

export interface WalkedFile {
  /** Relative to the root, `/`-separated. */
  relPath: string;
  absPath: string;
  /** From lstat during the walk: lets a no-op re-index skip reading files whose size and mtime are unchanged. */
  sizeBytes: number;
  mtimeMs: number;
}

export type WalkSkipReason =
  | 'symlink'
  | 'not-regular'
  | 'unaddressable'
  | 'vanished'
  | 'path-too-long'
  | 'unreadable';

export interface WalkSkip {
  relPath: string;
  reason: WalkSkipReason;
  detail: string;
}

export interface WalkResult {
  /** Sorted by relPath (UTF-16 code-unit order, locale-independent). */
  files: WalkedFile[];
  /** Entries that would have been candidates but were refused, sorted by relPath. */
  skipped: WalkSkip[];
  /**
   * Folders that exist but could not be listed. Their files are missing from `files` without having been
   * deleted, so an indexer must not sweep rows under these prefixes.
   */
  unreadableDirs: string[];
  warnings: string[];
}

/**
 * Walk the KB synchronously (a few syscalls per file; no reads). Throws only when the root is unusable: an
 * errno on any entry inside it (ENAMETOOLONG, EACCES, ELOOP, a file deleted meanwhile) skips that entry.
 */
export function walkKnowledgeBase(options: WalkOptions): WalkResult {
  const { root, ignoreRules, warnings, excluded, hasWantedExtension } = walkRules(options);

  const files: WalkedFile[] = [];
  const skipped: WalkSkip[] = [];
  const unreadableDirs: string[] = [];
  // An explicit stack instead of recursion: deep trees cannot overflow the call stack.
  const pending: { absDir: string; relDir: string }[] = [{ absDir: root, relDir: '' }];

  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { absDir, relDir } = next;
    const entries = listDirectory(absDir, relDir, warnings, unreadableDirs);
    const absPrefix = absDir.endsWith(path.sep) ? absDir : absDir + path.sep;
    const relPrefix = relDir === '' ? '' : `${relDir}/`;

    for (const entry of entries) {
      const name = entry.name;
      const relPath = relPrefix + name;
      const absPath = absPrefix + name;

      if (entry.isDirectory()) {
        if (excluded.has(foldCase(name)) || ignoreRules.isIgnored(relPath, true)) continue;
        if (!isAddressableSegment(name)) {
          skipped.push({ relPath, reason: 'unaddressable', detail: unaddressableDetail('folder') });
          continue;
        }
        pending.push({ absDir: absPath, relDir: relPath });
      } else if (entry.isFile()) {
        // `~$name.docx` style files are Office lock files, never notes.
        if (name.startsWith('~$') || !hasWantedExtension(name) || ignoreRules.isIgnored(relPath, false))
          continue;
        if (!isAddressableSegment(name)) {
          skipped.push({ relPath, reason: 'unaddressable', detail: unaddressableDetail('file') });
          continue;
        }
        const stat = lstatEntry(absPath);
        if ('reason' in stat) skipped.push({ relPath, ...stat });
        else if (stat.isSymbolicLink())
          skipped.push({ relPath, reason: 'symlink', detail: 'it is a symbolic link' });
        else files.push({ relPath, absPath, sizeBytes: stat.size, mtimeMs: stat.mtimeMs });
      } else if (entry.isSymbolicLink()) {
        if (ignoreRules.isIgnored(relPath, false) || ignoreRules.isIgnored(relPath, true)) continue;
        if (excluded.has(foldCase(name))) continue;
        // Report links that look like notes, and links to folders (which may hold many notes);
        // a symlinked image or binary is noise.
        if (hasWantedExtension(name)) {
          skipped.push({ relPath, reason: 'symlink', detail: 'it is a symbolic link' });
        } else if (pointsToDirectory(absPath)) {
          skipped.push({ relPath, reason: 'symlink', detail: 'it is a symbolic link to a folder' });
        }
      } else if (hasWantedExtension(name) && !ignoreRules.isIgnored(relPath, false)) {
        skipped.push({
          relPath,
          reason: 'not-regular',
          detail: NOT_REGULAR_DETAIL,
        });
      }
    }
  }

  files.sort((a, b) => compareCodeUnits(a.relPath, b.relPath));
  skipped.sort((a, b) => compareCodeUnits(a.relPath, b.relPath));
  unreadableDirs.sort(compareCodeUnits);
  return { files, skipped, unreadableDirs, warnings };
}

/** The rules a walk applies, from its options: the root checked, the ignore rules loaded. */
function walkRules(options: WalkOptions) {
  const root = path.resolve(options.root);
  assertRootIsDirectory(root);
  const ignoreRules = options.ignoreRules ?? loadIgnoreRules(root);
  const warnings = options.ignoreRules ? [] : [...ignoreRules.warnings];
  const extensions = new Set(options.extensions.map((ext) => foldCase(ext.replace(/^\./, ''))));
  const excluded = new Set([...ALWAYS_EXCLUDED_DIRS, ...(options.excludeDirs ?? [])].map(foldCase));
  const hasWantedExtension = (name: string): boolean => {
    const dot = name.lastIndexOf('.');
    // A leading dot starts a hidden name, not an extension (`.md` has none, like path.extname says).
    return dot > 0 && extensions.has(foldCase(name.slice(dot + 1)));
  };
  return { root, ignoreRules, warnings, excluded, hasWantedExtension };
}

/**
 * The walk's answer for some paths only (live sync's changed files): each path is a candidate exactly when the
 * whole walk would list it — every folder on its way a real folder, neither excluded nor ignored, and the file
 * itself wanted — with the same skips. A path that no longer exists is in neither list.
 */
export function walkPaths(options: WalkOptions & { paths: readonly string[] }): WalkResult {
  const { root, ignoreRules, warnings, excluded, hasWantedExtension } = walkRules(options);
  const files: WalkedFile[] = [];
  const skipped: WalkSkip[] = [];
  const unreadableDirs = new Set<string>();
  for (const relPath of new Set(options.paths)) {
    const segments = relPath.split('/');
    const name = segments.at(-1) ?? '';
    if (!isAddressablePath(relPath)) continue;
    const way = wayTo(root, segments.slice(0, -1), excluded, ignoreRules);
    if (way !== 'open') {
      if (way !== 'closed') unreadableDirs.add(way.unreadable);
      continue;
    }
    if (name.startsWith('~$') || !hasWantedExtension(name) || ignoreRules.isIgnored(relPath, false)) continue;
    const absPath = path.join(root, ...segments);
    const stat = lstatEntry(absPath);
    if ('reason' in stat) {
      if (stat.reason !== 'vanished') skipped.push({ relPath, ...stat });
    } else if (stat.isSymbolicLink()) {
      skipped.push({ relPath, reason: 'symlink', detail: 'it is a symbolic link' });
    } else if (stat.isFile()) {
      files.push({ relPath, absPath, sizeBytes: stat.size, mtimeMs: stat.mtimeMs });
    } else if (!stat.isDirectory()) {
      skipped.push({
        relPath,
        reason: 'not-regular',
        detail: NOT_REGULAR_DETAIL,
      });
    }
  }
  files.sort((a, b) => compareCodeUnits(a.relPath, b.relPath));
  skipped.sort((a, b) => compareCodeUnits(a.relPath, b.relPath));
  return { files, skipped, unreadableDirs: [...unreadableDirs].sort(compareCodeUnits), warnings };
}

/**
 * Whether the walk would enter every folder of `folders` (relative segments from the root) in turn: 'open', or
 * 'closed' (excluded, ignored, gone, or a link the walk never follows), or the first folder it could not read.
 */
function wayTo(
  root: string,
  folders: readonly string[],
  excluded: ReadonlySet<string>,
  ignoreRules: IgnoreRules,
): 'open' | 'closed' | { unreadable: string } {
  let absDir = root;
  for (const [depth, folder] of folders.entries()) {
    const relDir = folders.slice(0, depth + 1).join('/');
    if (excluded.has(foldCase(folder)) || ignoreRules.isIgnored(relDir, true)) return 'closed';
    absDir = path.join(absDir, folder);
    const stat = lstatEntry(absDir);
    if ('reason' in stat) return stat.reason === 'vanished' ? 'closed' : { unreadable: relDir };
    if (!stat.isDirectory()) return 'closed';
  }
  return 'open';
}

/** Why a FIFO, socket or device named like a note is skipped. */
const NOT_REGULAR_DETAIL = 'it is a FIFO, socket or device, not a regular file';

/** lstat one entry, or the skip its errno means. */
function lstatEntry(absPath: string): fs.Stats | Omit<WalkSkip, 'relPath'> {
  try {
    return fs.lstatSync(absPath);
  } catch (error) {
    return describeFsFailure('lstat', error);
  }
}

function assertRootIsDirectory(root: string): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(root, { throwIfNoEntry: false });
  } catch (error) {
    throw new GrooveError(
      'KB_UNREADABLE',
      `cannot open knowledge base folder "${root}": ${errnoText(error)}`,
      {
        hint: 'check the folder and its parents: permissions, and links that loop',
        cause: error,
      },
    );
  }
  if (stat === undefined) {
    throw new GrooveError('KB_NOT_FOUND', `knowledge base folder "${root}" does not exist`, {
      hint: 'check kb_path in groove.toml or --kb-path',
    });
  }
  if (!stat.isDirectory()) {
    throw new GrooveError('KB_NOT_FOUND', `knowledge base path "${root}" is not a folder`, {
      hint: 'point kb_path at the folder that holds your notes',
    });
  }
}

function listDirectory(
  absDir: string,
  relDir: string,
  warnings: string[],
  unreadableDirs: string[],
): fs.Dirent[] {
  try {
    return fs.readdirSync(absDir, { withFileTypes: true });
  } catch (error) {
    const failure = describeFsFailure('readdir', error);
    // Deleted or replaced after its parent was listed: its files are really gone.
    if (failure.reason === 'vanished') return [];
    if (relDir === '') {
      throw new GrooveError(
        'KB_UNREADABLE',
        `cannot list knowledge base folder "${absDir}": ${failure.detail}`,
        {
          hint: 'check the folder permissions',
          cause: error,
        },
      );
    }
    unreadableDirs.push(relDir);
    warnings.push(
      `skipped folder ${displayPath(relDir)}: ${failure.detail}; its files keep their indexed state (${skipFixFor(failure.reason)})`,
    );
    return [];
  }
}

function pointsToDirectory(absPath: string): boolean {
  try {
    return fs.statSync(absPath, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

function unaddressableDetail(kind: 'file' | 'folder'): string {
  return `the ${kind} name contains control characters or bytes that are not valid UTF-8`;
}

/** Unicode lowercase with final sigma folded to σ; deliberately no full case folding or normalisation. */
function foldCase(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes('ς') ? lower.replaceAll('ς', 'σ') : lower;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// C0 and C1 controls and DEL; U+FFFD is what Node substitutes for a name that is not valid UTF-8, and such
// a name cannot be opened again through the substituted string.
const CONTROL_OR_UNDECODABLE = /[\u0000-\u001f\u007f-\u009f\ufffd]/;
const WINDOWS_FORBIDDEN = /[<>:"|?*\\]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** The name rule for one path segment (see isAddressablePath). */
export function isAddressableSegment(segment: string, platform: NodeJS.Platform = process.platform): boolean {
  if (segment === '' || segment === '.' || segment === '..') return false;
  if (CONTROL_OR_UNDECODABLE.test(segment)) return false;
  if (platform === 'win32') {
    if (WINDOWS_FORBIDDEN.test(segment) || WINDOWS_DEVICE.test(segment)) return false;
    if (segment.endsWith('.') || segment.endsWith(' ')) return false;
  }
  return true;
}

/**
 * The one predicate for paths the walk, the watcher, URIs and get_document accept: relative, `/`-separated,
 * no empty, `.` or `..` segments, no control characters; on Windows also no `<>:"|?*\`, no device names and
 * no trailing dot or space.
 */
export function isAddressablePath(relPath: string, platform: NodeJS.Platform = process.platform): boolean {
  if (relPath === '' || relPath.startsWith('/')) return false;
  for (const segment of relPath.split('/')) {
    if (!isAddressableSegment(segment, platform)) return false;
  }
  return true;
}
