// The live-sync watcher: chokidar 4 over the KB folder, reporting changes to files the index could hold (wanted
// extensions, outside excluded folders and .grooveignore) and to the ignore rules themselves. Links are not
// followed. It only reports; deciding what to re-index is the indexer's job. chokidar is imported when the first
// watcher starts, so commands that never watch (a cold `groove search`) do not load it.
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import { ALWAYS_EXCLUDED_DIRS } from '../config/defaults.js';
import {
  createEmptyIgnoreRules,
  GROOVEIGNORE_FILE,
  type IgnoreRules,
  loadIgnoreRules,
} from './ignore-rules.js';

export type KbChangeKind = 'add' | 'change' | 'unlink' | 'add-dir' | 'unlink-dir' | 'rules' | 'root-gone';

export interface KbChange {
  kind: KbChangeKind;
  /** Relative to the KB root, `/`-separated ('' for the root itself). */
  relPath: string;
}

export interface WatchKbOptions {
  /** Absolute KB folder. */
  root: string;
  /** Wanted extensions without the dot, matched case-insensitively (`[parsers] enabled`). */
  extensions: readonly string[];
  /** Folder basenames never watched (`exclude_dirs`); ALWAYS_EXCLUDED_DIRS are added. */
  excludeDirs: readonly string[];
  /** How long a file's size must hold still before its add/change is reported. Default 100 ms. */
  stabilityMs?: number;
  onChange(change: KbChange): void;
  onError(error: Error): void;
}

export interface KbWatcher {
  /** Resolves once the initial scan is done and changes are being reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Start watching; errors (including a KB folder that disappears) go to `onError`/`onChange`, never thrown. */
export function watchKnowledgeBase(options: WatchKbOptions): KbWatcher {
  const root = path.resolve(options.root);
  const excluded = new Set([...ALWAYS_EXCLUDED_DIRS, ...options.excludeDirs].map((n) => n.toLowerCase()));
  const extensions = new Set(options.extensions.map((e) => e.replace(/^\./, '').toLowerCase()));
  // An unusable ignore file refuses every index run; the watcher then filters by nothing but reports the
  // problem, and the runs it triggers say what to fix.
  const loadRules = (): IgnoreRules => {
    try {
      return loadIgnoreRules(root);
    } catch (error) {
      options.onError(error instanceof Error ? error : new Error(String(error)));
      return createEmptyIgnoreRules();
    }
  };
  let rules: IgnoreRules = loadRules();

  const toRel = (absPath: string) => path.relative(root, absPath).split(path.sep).join('/');
  const isWantedFile = (relPath: string) => {
    const name = relPath.slice(relPath.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    return dot > 0 && extensions.has(name.slice(dot + 1).toLowerCase()) && !name.startsWith('~$');
  };
  const isIgnored = (absPath: string, stats?: { isFile(): boolean; isDirectory(): boolean }): boolean => {
    const rel = toRel(absPath);
    if (rel === '' || rel.startsWith('..')) return false;
    if (rel === GROOVEIGNORE_FILE) return false;
    const segments = rel.split('/');
    if (segments.some((segment) => excluded.has(segment.toLowerCase()))) return true;
    if (stats?.isDirectory()) return rules.isIgnored(rel, true);
    if (stats?.isFile()) return !isWantedFile(rel) || rules.isIgnored(rel, false);
    return false;
  };

  const reportFile = (kind: 'add' | 'change' | 'unlink') => (absPath: string) => {
    const rel = toRel(absPath);
    if (rel === GROOVEIGNORE_FILE) {
      rules = loadRules();
      options.onChange({ kind: 'rules', relPath: rel });
      return;
    }
    if (!isWantedFile(rel) || rules.isIgnored(rel, false)) return;
    options.onChange({ kind, relPath: rel });
  };
  const listen = (watcher: FSWatcher): FSWatcher => {
    watcher.on('add', reportFile('add'));
    watcher.on('change', reportFile('change'));
    watcher.on('unlink', reportFile('unlink'));
    watcher.on('addDir', (absPath: string) => {
      const rel = toRel(absPath);
      if (rel !== '') options.onChange({ kind: 'add-dir', relPath: rel });
    });
    watcher.on('unlinkDir', (absPath: string) => {
      const rel = toRel(absPath);
      options.onChange({ kind: rel === '' ? 'root-gone' : 'unlink-dir', relPath: rel });
    });
    watcher.on('error', (error: unknown) => {
      options.onError(error instanceof Error ? error : new Error(String(error)));
    });
    return watcher;
  };
  const started = import('chokidar').then(({ watch }) =>
    listen(
      watch(root, {
        ignoreInitial: true,
        followSymlinks: false,
        ignored: isIgnored,
        awaitWriteFinish: { stabilityThreshold: options.stabilityMs ?? 100, pollInterval: 25 },
      }),
    ),
  );
  const ready = started.then(
    (watcher) => new Promise<void>((resolve) => watcher.once('ready', () => resolve())),
  );
  return {
    ready,
    close: async () => (await started).close(),
  };
}
