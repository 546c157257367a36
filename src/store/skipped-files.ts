// The files the last index run refused, with the reason it gave for each, kept in index_meta (`skipped_files`)
// so `groove doctor` can answer "why is this file not found?" after the run's output is gone. Each run replaces
// the record when it walked the whole knowledge base (it then sees every file still refused); a run over some
// paths only (live sync) replaces those paths' entries.

/** One refused file: its KB-relative path and the run's message (which says why and, where it can, how to fix). */
export interface SkippedFile {
  path: string;
  reason: string;
}

export interface SkippedFilesRecord {
  /** Files refused by the run, all of them (the list may hold fewer). */
  total: number;
  files: SkippedFile[];
}

/** The record keeps this many files; a run refusing more still records the total. */
export const MAX_RECORDED_SKIPS = 1000;

/**
 * The record after a run that looked at `paths` only (live sync's changed files): the earlier record's other files
 * kept, theirs replaced by what this run refused. The total moves by the listed files that changed.
 */
export function mergeSkippedFiles(
  previous: SkippedFilesRecord | null,
  paths: ReadonlySet<string>,
  refused: readonly SkippedFile[],
): SkippedFilesRecord {
  const kept = (previous?.files ?? []).filter((file) => !paths.has(file.path));
  const dropped = (previous?.files.length ?? 0) - kept.length;
  const files = [...kept, ...refused];
  const total = Math.max(files.length, (previous?.total ?? 0) - dropped + refused.length);
  return { total, files: files.slice(0, MAX_RECORDED_SKIPS) };
}

export function encodeSkippedFiles(files: readonly SkippedFile[], total = files.length): string {
  const record: SkippedFilesRecord = { total, files: files.slice(0, MAX_RECORDED_SKIPS) };
  return JSON.stringify(record);
}

/** The stored record, or null when there is none or it is not one this version wrote. */
export function decodeSkippedFiles(text: string | undefined): SkippedFilesRecord | null {
  if (text === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const record = value as Partial<SkippedFilesRecord> | null;
  if (!record || !Number.isSafeInteger(record.total) || !Array.isArray(record.files)) return null;
  const files = record.files.filter(
    (file): file is SkippedFile =>
      typeof file === 'object' &&
      file !== null &&
      typeof (file as SkippedFile).path === 'string' &&
      typeof (file as SkippedFile).reason === 'string',
  );
  return { total: Math.max(record.total as number, files.length), files };
}
