// Which knowledge base an index belongs to, and where a KB's index lives when no path is named. An index records
// its KB (the root's real path, and its name where it has one); opening it for another KB is refused before
// anything is written. An index from before that record is adopted only when its documents are this KB's files.
import fs from 'node:fs';
import path from 'node:path';
import {
  type GrooveFolders,
  KB_EVAL_HISTORY_FILE_NAME,
  KB_GOLDEN_FILE_NAME,
  KB_INDEX_FILE_NAME,
  type KbFolderKey,
  kbDataDir,
} from '../../config/groove-folders.js';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import type { MetaKey } from '../../store/index-meta.js';
import { IndexDatabase } from './index-database.js';

/** Stored documents looked at to decide whether an index without a KB record holds this KB's files. */
const OWNER_SAMPLE_SIZE = 32;
/** The index file name older groove versions used, beside the KB folder. */
export const LEGACY_INDEX_NAME = '.groove.db';

export interface KbIdentity extends KbFolderKey {
  realPath: string;
  name: string | null;
}

export type OwnerVerdict =
  /** No file yet, or a file the regular open explains (not an index, damaged). */
  | { kind: 'none' }
  | { kind: 'own' }
  /** Adopted: an index without a record (or whose recorded folder is gone) holding this KB's files. */
  | { kind: 'adopt' }
  | { kind: 'other'; otherRoot: string | null; otherName: string | null; found: number; sampled: number };

/** The KB's identity: its root with links resolved (the folder must exist) and its registered name. */
export function kbIdentityOf(kbPath: string, name: string | null): KbIdentity {
  return { realPath: fs.realpathSync(kbPath), name };
}

/** The index_meta record naming the KB. */
export function ownerMeta(kb: KbIdentity): Partial<Record<MetaKey, string>> {
  return { kb_root: kb.realPath, ...(kb.name ? { kb_name: kb.name } : {}) };
}

/**
 * Whose index sits at `dbPath`. Recorded root equal to this KB's: its own. Recorded root elsewhere: another KB's,
 * unless that folder no longer exists and most sampled documents are files of this KB (the KB was moved). No
 * record (an index from an older groove): adopted when it holds no documents or when more than half of a sample of
 * its stored documents (spread over the whole index) exist as files under this KB's root; otherwise another KB's.
 */
export function judgeIndexOwner(dbPath: string, kb: KbIdentity): OwnerVerdict {
  if (!fs.existsSync(dbPath)) return { kind: 'none' };
  const facts = IndexDatabase.peekOwner(dbPath, OWNER_SAMPLE_SIZE, (meta) => meta.kb_root !== kb.realPath);
  if (facts === null) return { kind: 'none' };
  const recorded = facts.meta.kb_root ?? null;
  if (recorded === kb.realPath) return { kind: 'own' };
  const found = facts.samplePaths.filter((relPath) => isFileUnder(kb.realPath, relPath)).length;
  const sampled = facts.samplePaths.length;
  const holdsThisKb = !facts.hasDocuments || found * 2 > sampled;
  if (holdsThisKb && (recorded === null || !fs.existsSync(recorded))) return { kind: 'adopt' };
  return { kind: 'other', otherRoot: recorded, otherName: facts.meta.kb_name ?? null, found, sampled };
}

function isFileUnder(root: string, relPath: string): boolean {
  return fs.statSync(path.join(root, ...relPath.split('/')), { throwIfNoEntry: false })?.isFile() === true;
}

/** Refuse an index that belongs to another knowledge base, before anything is written to it. */
export function assertIndexOwner(dbPath: string, kbPath: string, kb: KbIdentity): void {
  const verdict = judgeIndexOwner(dbPath, kb);
  if (verdict.kind !== 'other') return;
  const fix = `leave --db-path out (each knowledge base gets its own index in groove's data folder) or pass another --db-path for "${kbPath}"`;
  if (verdict.otherRoot !== null) {
    const named = verdict.otherName ? ` ("${verdict.otherName}")` : '';
    throw new GrooveError(
      'INDEX_OTHER_KB',
      `the index "${dbPath}" belongs to the knowledge base "${verdict.otherRoot}"${named}, not to "${kbPath}"`,
      { hint: `${fix}; to search "${verdict.otherRoot}", pass --kb-path "${verdict.otherRoot}"` },
    );
  }
  throw new GrooveError(
    'INDEX_OTHER_KB',
    `the index "${dbPath}" holds another knowledge base's documents, not those of "${kbPath}": only ${verdict.found} of ${verdict.sampled} sampled documents are files there`,
    { hint: `${fix}; or pass the --kb-path it was built from` },
  );
}

/** Create a folder of groove's own (only this user may enter it), or say how to name another. */
function ensureOwnFolder(folder: string): string {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new GrooveError('STORAGE_DENIED', `cannot create groove's folder "${folder}"`, {
      hint: 'set GROOVE_HOME (or XDG_DATA_HOME) to a folder you can write, or pass --db-path',
      cause: error,
    });
  }
  return folder;
}

/** The KB's own folder under groove's data folder (created): its index, eval history, gate and lock files. */
export function kbOwnFolder(config: ResolvedConfig, kbPath: string): string {
  return ensureOwnFolder(kbOwnFolderPath(config, kbPath));
}

/** Where the KB's own folder is, whether or not it exists yet. */
export function kbOwnFolderPath(config: ResolvedConfig, kbPath: string): string {
  return kbDataDir(config.folders, kbIdentityOf(kbPath, config.kbName));
}

/** Where the eval history of the KB lives: in the KB's own folder, never inside the KB. */
export function evalHistoryPathOf(config: ResolvedConfig, kbPath: string): string {
  return path.join(kbOwnFolder(config, kbPath), KB_EVAL_HISTORY_FILE_NAME);
}

/**
 * The eval history of a cross-KB eval (`groove eval --kb a --kb b`): `kbs/<the names, sorted, joined by +>/` in
 * groove's data folder. `+` is never part of a KB name, so the folder is no single KB's own.
 */
export function crossKbEvalHistoryPathOf(config: ResolvedConfig, names: readonly string[]): string {
  const folder = path.join(config.folders.dataDir, 'kbs', [...names].sort().join('+'));
  return path.join(ensureOwnFolder(folder), KB_EVAL_HISTORY_FILE_NAME);
}

/**
 * The golden set in the KB's own folder (the folder created when `create`), never inside the KB; null when the KB
 * folder does not exist (the command reports that).
 */
export function kbGoldenPathOf(config: ResolvedConfig, kbPath: string, create: boolean): string | null {
  if (!fs.existsSync(kbPath)) return null;
  const folder = kbDataDir(config.folders, kbIdentityOf(kbPath, config.kbName));
  return path.join(create ? ensureOwnFolder(folder) : folder, KB_GOLDEN_FILE_NAME);
}

/**
 * The index path when none is named: a `<parent>/.groove.db` (where older versions put it) when it belongs to this
 * KB, so an existing index keeps working; otherwise `index.groove.db` in the KB's own folder. The one place the
 * default is derived. Null when the KB folder does not exist (the caller reports that).
 */
export function defaultIndexPath(config: ResolvedConfig, kbPath: string): string | null {
  if (!fs.statSync(kbPath, { throwIfNoEntry: false })?.isDirectory()) return null;
  const kb = kbIdentityOf(kbPath, config.kbName);
  const legacy = path.join(path.dirname(kbPath), LEGACY_INDEX_NAME);
  const verdict = judgeIndexOwner(legacy, kb);
  if (verdict.kind === 'own' || verdict.kind === 'adopt') return legacy;
  const own = ownIndexPath(config.folders, kb);
  ensureOwnFolder(path.dirname(own));
  return own;
}

/** The index file in a KB's own folder under groove's data folder (the folder is not created). */
export function ownIndexPath(folders: GrooveFolders, kb: KbFolderKey): string {
  return path.join(kbDataDir(folders, kb), KB_INDEX_FILE_NAME);
}

/** The config with its index path filled in where none was named (left as is when the KB folder is missing). */
export function withDefaultIndexPath(config: ResolvedConfig): ResolvedConfig {
  if (config.dbPath !== null || config.kbPath === null) return config;
  return { ...config, dbPath: defaultIndexPath(config, config.kbPath) };
}
