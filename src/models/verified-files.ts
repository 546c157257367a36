// Checking model files against their pins without rereading hundreds of megabytes at every start.
// Rules: a file whose size differs from its pin is a mismatch (not read); otherwise its SHA-256 is computed once
// and remembered in a record next to the model cache, keyed by path, size, mtime and inode, so an unchanged file
// is trusted by one stat and any change to it (a copy, an edit, a replacement) is hashed again. The record is
// an optimisation: when it cannot be read or written, files are hashed every time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PinnedFile } from './model-pins.js';

export type FileState =
  | { file: string; status: 'ok' }
  | { file: string; status: 'missing' }
  | { file: string; status: 'mismatch'; size: number; sha256: string | null };

interface RecordEntry {
  size: number;
  mtimeMs: number;
  ino: number;
  sha256: string;
}
type VerificationRecord = Record<string, RecordEntry>;

/** The SHA-256 of a file's bytes, streamed. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function readRecord(recordPath: string): VerificationRecord {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(recordPath, 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as VerificationRecord) : {};
  } catch {
    return {};
  }
}

function writeRecord(recordPath: string, record: VerificationRecord): void {
  const temp = `${recordPath}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  try {
    fs.mkdirSync(path.dirname(recordPath), { recursive: true });
    fs.writeFileSync(temp, `${JSON.stringify(record)}\n`);
    fs.renameSync(temp, recordPath);
  } catch {
    fs.rmSync(temp, { force: true });
  }
}

function entryOf(stat: fs.Stats, sha256: string): RecordEntry {
  return { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, sha256 };
}

function sameFile(entry: RecordEntry | undefined, stat: fs.Stats): entry is RecordEntry {
  return !!entry && entry.size === stat.size && entry.mtimeMs === stat.mtimeMs && entry.ino === stat.ino;
}

/** Remember that `file` (as it is on disk now) has `sha256`: a file groove has just written and verified. */
export function rememberVerified(recordPath: string, file: string, sha256: string): void {
  const record = readRecord(recordPath);
  record[path.resolve(file)] = entryOf(fs.statSync(file), sha256);
  writeRecord(recordPath, record);
}

/**
 * The state of each pinned file under `folder` (symbolic links followed, as the Hugging Face cache uses them).
 * An empty file counts as missing: it holds nothing that could be swapped.
 */
export async function checkPinnedFiles(
  folder: string,
  files: Readonly<Record<string, PinnedFile>>,
  recordPath: string,
): Promise<FileState[]> {
  const record = readRecord(recordPath);
  let changed = false;
  const states: FileState[] = [];
  for (const [file, pin] of Object.entries(files)) {
    const full = path.resolve(folder, file);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch {
      states.push({ file, status: 'missing' });
      continue;
    }
    if (!stat.isFile() || stat.size === 0) {
      states.push({ file, status: 'missing' });
      continue;
    }
    if (stat.size !== pin.size) {
      states.push({ file, status: 'mismatch', size: stat.size, sha256: null });
      continue;
    }
    const known = record[full];
    const sha256 = sameFile(known, stat) ? known.sha256 : await sha256OfFile(full);
    if (!sameFile(known, stat)) {
      record[full] = entryOf(stat, sha256);
      changed = true;
    }
    states.push(
      sha256 === pin.sha256 ? { file, status: 'ok' } : { file, status: 'mismatch', size: stat.size, sha256 },
    );
  }
  if (changed) writeRecord(recordPath, record);
  return states;
}
