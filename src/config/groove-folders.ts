// Where groove keeps its own files, following the XDG base directory rules: data (indexes, eval history, one
// folder per knowledge base), config and cache. Pure: the environment, the home folder and the current folder in,
// paths out; nothing is created here.

import path from 'node:path';
import { sha256Hex } from '../core/sha256.js';

type Env = Record<string, string | undefined>;

/** The user's base folders: `$XDG_DATA_HOME`, `$XDG_CONFIG_HOME`, `$XDG_CACHE_HOME`, each absolute or the default. */
export interface XdgBaseFolders {
  dataHome: string;
  configHome: string;
  cacheHome: string;
}

/** groove's own folders: `<data>/groove`, `<config>/groove`, `<cache>/groove` unless GROOVE_HOME says otherwise. */
export interface GrooveFolders {
  dataDir: string;
  configDir: string;
  cacheDir: string;
}

/** What names a knowledge base's own folder: its real path, and its registered name where it has one. */
export interface KbFolderKey {
  /** The KB root with every symbolic link resolved. */
  realPath: string;
  name?: string | null;
}

/** A KB name as the registry accepts it; anything else is never used as a folder name. */
const KB_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const SLUG_MAX_CHARS = 40;
const HASH_HEX_CHARS = 12;

/**
 * The XDG spec: a variable that is unset, empty or relative is ignored and its default (`~/.local/share`,
 * `~/.config`, `~/.cache`) is used instead.
 */
export function xdgBaseFolders(env: Env, home: string): XdgBaseFolders {
  const absolute = (value: string | undefined, fallback: string) =>
    value && path.isAbsolute(value) ? value : path.join(home, fallback);
  return {
    dataHome: absolute(env.XDG_DATA_HOME, path.join('.local', 'share')),
    configHome: absolute(env.XDG_CONFIG_HOME, '.config'),
    cacheHome: absolute(env.XDG_CACHE_HOME, '.cache'),
  };
}

/**
 * groove's folders. GROOVE_HOME (a portable setup, or a test) holds all three as `data/`, `config/`, `cache/`;
 * GROOVE_CACHE_DIR then names the cache folder alone. Both are folders the user named, so a relative value is
 * taken against `cwd`; the XDG variables follow the spec (absolute only).
 */
export function grooveFolders(env: Env, home: string, cwd: string): GrooveFolders {
  const grooveHome = env.GROOVE_HOME ? path.resolve(cwd, env.GROOVE_HOME) : null;
  const xdg = xdgBaseFolders(env, home);
  const folders = grooveHome
    ? {
        dataDir: path.join(grooveHome, 'data'),
        configDir: path.join(grooveHome, 'config'),
        cacheDir: path.join(grooveHome, 'cache'),
      }
    : {
        dataDir: path.join(xdg.dataHome, 'groove'),
        configDir: path.join(xdg.configHome, 'groove'),
        cacheDir: path.join(xdg.cacheHome, 'groove'),
      };
  if (env.GROOVE_CACHE_DIR) folders.cacheDir = path.resolve(cwd, env.GROOVE_CACHE_DIR);
  return folders;
}

/**
 * The name of a KB's own folder: its registered name when it has one; otherwise a readable slug of the folder's
 * name and a short hash of its real path, so two KBs that share a folder name never share a folder.
 */
export function kbFolderName(kb: KbFolderKey): string {
  if (kb.name && KB_NAME.test(kb.name)) return kb.name;
  const slug =
    path
      .basename(kb.realPath)
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, SLUG_MAX_CHARS)
      .replace(/-+$/, '') || 'kb';
  const hash = sha256Hex(kb.realPath).slice(0, HASH_HEX_CHARS);
  return `${slug}-${hash}`;
}

/** A KB's own folder for its index, eval history and their gate and lock files: `<dataDir>/kbs/<name>`. */
export function kbDataDir(folders: GrooveFolders, kb: KbFolderKey): string {
  return path.join(folders.dataDir, 'kbs', kbFolderName(kb));
}

/** The index file in a KB's own folder. */
export const KB_INDEX_FILE_NAME = 'index.groove.db';
/** The eval history in a KB's own folder. */
export const KB_EVAL_HISTORY_FILE_NAME = 'eval-history.json';
/** The golden set `groove eval golden build` and `import` write by default, in a KB's own folder. */
export const KB_GOLDEN_FILE_NAME = 'golden.yml';
