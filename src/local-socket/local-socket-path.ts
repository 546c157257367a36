// Where `groove serve` listens for local CLI calls, and the checks that make that place owner-only.
// The socket lives in `<base>/groove-<uid>/` (base: $GROOVE_RUNTIME_DIR, else $XDG_RUNTIME_DIR, else the OS temp
// folder), a folder of mode 0700 owned by the user; its name is a hash of the uid and the index identity (the
// real path of the index file's folder plus its name), so each index has its own socket. Nothing here follows a
// symlink: a folder or socket that is a link, is another user's, or is open to others is not used.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where one index's socket is: its folder, its path, and the identity the server must serve. */
export interface LocalSocketPlace {
  dir: string;
  socketPath: string;
  /** The index identity: the resolved db path (the folder's real path + the file name). */
  identity: string;
}

/** The user's id, or null where there is none (Windows: no local socket, the CLI answers in-process). */
function userId(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

/** The resolved db path: the real path of its folder (when it exists) plus the file name. */
export function indexIdentity(dbPath: string): string {
  const absolute = path.resolve(dbPath);
  try {
    return path.join(fs.realpathSync(path.dirname(absolute)), path.basename(absolute));
  } catch {
    return absolute;
  }
}

/** The socket place for an index, or null on a platform without Unix sockets and user ids. */
export function localSocketPlace(
  dbPath: string,
  env: Record<string, string | undefined>,
): LocalSocketPlace | null {
  const uid = userId();
  if (uid === null) return null;
  const base = env.GROOVE_RUNTIME_DIR || env.XDG_RUNTIME_DIR || os.tmpdir();
  const dir = path.join(base, `groove-${uid}`);
  const identity = indexIdentity(dbPath);
  const name = createHash('sha256').update(`${uid}\0${identity}`).digest('hex').slice(0, 32);
  return { dir, socketPath: path.join(dir, `${name}.sock`), identity };
}

/** Why a path's entry may not be used (not the kind asked for, a link, another user's, open to others); null if fine. */
function refusal(entryPath: string, kind: 'folder' | 'socket'): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(entryPath);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? `no ${kind}` : `cannot read the ${kind}`;
  }
  if (stat.isSymbolicLink()) return `the ${kind} is a symbolic link`;
  if (kind === 'folder' ? !stat.isDirectory() : !stat.isSocket()) return `not a ${kind}`;
  if (stat.uid !== userId()) return `the ${kind} belongs to another user`;
  if ((stat.mode & 0o077) !== 0) return `the ${kind} is open to other users`;
  return null;
}

/** Why the socket folder may not be used; null when it is a 0700 folder of this user. */
export function folderRefusal(dir: string): string | null {
  return refusal(dir, 'folder');
}

/** Why the socket file may not be used; null when it is a socket of this user that only the user may open. */
export function socketRefusal(socketPath: string): string | null {
  return refusal(socketPath, 'socket');
}

/** Create the socket folder with mode 0700 when missing; why it is unusable, or null. */
export function preparePrivateFolder(dir: string): string | null {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return 'cannot create the socket folder';
  }
  return folderRefusal(dir);
}
