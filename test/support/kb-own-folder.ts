// Where groove keeps a KB's own files (index, eval history) for a given environment, as the CLI derives it.
// Test-only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { grooveFolders, kbDataDir } from '../../src/config/groove-folders.js';

/** The KB's own folder under groove's data folder, for `env` (GROOVE_HOME, XDG_DATA_HOME) and `cwd`. */
export function kbOwnFolderFor(
  kbPath: string,
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): string {
  return kbDataDir(grooveFolders(env, os.homedir(), cwd), { realPath: fs.realpathSync(kbPath) });
}

export const evalHistoryIn = (folder: string) => path.join(folder, 'eval-history.json');
export const indexIn = (folder: string) => path.join(folder, 'index.groove.db');
