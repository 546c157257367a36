// Pure incremental-index planning: which files are unchanged, which are renames of vanished files, which go.

export interface StoredFileState {
  path: string;
  contentHash: string;
  sizeBytes: number;
  mtimeMs: number;
}

export interface SeenFile {
  path: string;
  sizeBytes: number;
  mtimeMs: number;
}

/** Files whose size and mtime match the stored row are unchanged without reading a byte (like git's stat cache). */
export function isUnchangedByStat(seen: SeenFile, stored: StoredFileState | undefined): boolean {
  return stored !== undefined && stored.sizeBytes === seen.sizeBytes && stored.mtimeMs === seen.mtimeMs;
}

export interface RenamePlanInput {
  /** Paths on disk that have no stored row, with the hash of their bytes. */
  newFiles: { path: string; contentHash: string }[];
  /** Stored rows whose path is no longer on disk (and was not merely unreadable). */
  vanished: StoredFileState[];
}

export interface RenamePlan {
  /** new path → old path whose rows it takes over. */
  renames: Map<string, string>;
  /** Stored paths that are gone and were not renamed. */
  deletions: string[];
}

/**
 * Pair each new file with a vanished stored file of identical bytes. When several vanished files share a hash,
 * they are paired in path order so the result is deterministic; unpaired vanished files are deleted.
 */
export function planRenames(input: RenamePlanInput): RenamePlan {
  const vanishedByHash = new Map<string, string[]>();
  for (const file of [...input.vanished].sort((a, b) => compareText(a.path, b.path))) {
    const list = vanishedByHash.get(file.contentHash) ?? [];
    list.push(file.path);
    vanishedByHash.set(file.contentHash, list);
  }
  const renames = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of [...input.newFiles].sort((a, b) => compareText(a.path, b.path))) {
    const candidates = vanishedByHash.get(file.contentHash);
    const oldPath = candidates?.shift();
    if (oldPath !== undefined) {
      renames.set(file.path, oldPath);
      taken.add(oldPath);
    }
  }
  const deletions = input.vanished.map((f) => f.path).filter((p) => !taken.has(p));
  return { renames, deletions };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
