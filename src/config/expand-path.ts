// `~` expansion and absolute paths for the paths written in groove's TOML files and on the command line.
import os from 'node:os';
import path from 'node:path';

/** Expand a leading `~` and make the path absolute against `baseDir`. */
export function expandPath(value: string, baseDir: string): string {
  const home = os.homedir();
  const expanded = value === '~' ? home : value.startsWith('~/') ? path.join(home, value.slice(2)) : value;
  return path.resolve(baseDir, expanded);
}
