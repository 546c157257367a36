// The Hugging Face hub cache as the hub's own tools write it, read and never written by groove:
// `<hub cache>/models--<owner>--<name>/snapshots/<commit>/<files>` (files are links into `blobs/`), and
// `refs/main` holding the commit `main` pointed at when it was downloaded.
import fs from 'node:fs';
import path from 'node:path';
import type { ModelPin } from './model-pins.js';
import type { ModelSpec } from './model-registry.js';

export interface HubSnapshot {
  folder: string;
  /** True for the snapshot of the pinned commit; false for the one `refs/main` names. */
  pinned: boolean;
}

/** `<hub cache>/models--<owner>--<name>`. */
export function hubRepoFolder(hubCacheDir: string, repo: string): string {
  return path.join(hubCacheDir, `models--${repo.split('/').join('--')}`);
}

function isFolder(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The snapshots that may hold the pinned files, best first: the pinned commit's, then the one `refs/main` names
 * (its files may equal the pinned ones even though the commit differs; they are verified all the same).
 */
export function hubSnapshotsFor(hubCacheDir: string | null, spec: ModelSpec, pin: ModelPin): HubSnapshot[] {
  if (!hubCacheDir) return [];
  const repoFolder = hubRepoFolder(hubCacheDir, spec.hubRepo);
  const found: HubSnapshot[] = [];
  const pinned = path.join(repoFolder, 'snapshots', pin.revision);
  if (isFolder(pinned)) found.push({ folder: pinned, pinned: true });
  let main = '';
  try {
    main = fs.readFileSync(path.join(repoFolder, 'refs', 'main'), 'utf8').trim();
  } catch {
    return found;
  }
  const mainFolder = path.join(repoFolder, 'snapshots', main);
  if (/^[0-9a-f]{40}$/.test(main) && main !== pin.revision && isFolder(mainFolder)) {
    found.push({ folder: mainFolder, pinned: false });
  }
  return found;
}
