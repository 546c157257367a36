// The files the last index run refused, with the reason it gave for each, kept in index_meta (`skipped_files`)
// so `groove doctor` can answer "why is this file not found?" after the run's output is gone. Each run replaces
// the record: every run walks the whole knowledge base, so it sees every file that is still refused.

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

export function encodeSkippedFiles(files: readonly SkippedFile[]): string {
  const record: SkippedFilesRecord = { total: files.length, files: files.slice(0, MAX_RECORDED_SKIPS) };
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
