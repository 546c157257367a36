// Temporary files of model downloads: `<file>.tmp.<pid>.<suffix>` next to the file they become.
// Rules: while a download writes one, SIGINT, SIGTERM or the process's exit removes it (and cancels the
// download); a signal is then re-raised so the process ends as it would have, unless someone else listens for
// it. A process that died without cleaning up (killed, crashed) leaves its files behind: sweepDeadTempFiles
// removes those whose pid is no longer running, and never a live process's.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const TEMP_NAME = /\.tmp\.(\d+)\.[-0-9a-z]+$/;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

interface Active {
  cancel: () => void;
}
const active = new Map<string, Active>();
/** Signals someone else listened for when the handlers were installed: theirs decides how the process ends. */
const handledElsewhere = new Set<NodeJS.Signals>();

function removeAllNow(): void {
  for (const [file, entry] of active) {
    entry.cancel();
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // Best effort: the next start sweeps what could not be removed now.
    }
  }
  active.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeAllNow();
  const elsewhere = handledElsewhere.has(signal) || process.listenerCount(signal) > 1;
  uninstall();
  if (!elsewhere) process.kill(process.pid, signal);
}

function uninstall(): void {
  for (const signal of SIGNALS) process.off(signal, onSignal);
  process.off('exit', removeAllNow);
}

function install(): void {
  handledElsewhere.clear();
  for (const signal of SIGNALS) {
    if (process.listenerCount(signal) > 0) handledElsewhere.add(signal);
    process.on(signal, onSignal);
  }
  process.on('exit', removeAllNow);
}

/** A fresh temporary path for `file`, in the same folder (so the final rename stays on one file system). */
export function tempPathFor(file: string): string {
  return `${file}.tmp.${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
}

/**
 * Remove `temp` if the process is interrupted or exits before `release` is called; `cancel` stops the download
 * writing it. Call `release` once the file is renamed into place or removed.
 */
export function trackTempFile(temp: string, cancel: () => void): () => void {
  if (active.size === 0) install();
  active.set(temp, { cancel });
  return () => {
    if (!active.delete(temp)) return;
    if (active.size === 0) uninstall();
  };
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove temporary download files of dead processes in `folder` and its subfolders; returns what was removed. */
export function sweepDeadTempFiles(folder: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      removed.push(...sweepDeadTempFiles(full));
      continue;
    }
    const match = TEMP_NAME.exec(entry.name);
    if (!match || !entry.isFile() || isRunning(Number(match[1]))) continue;
    try {
      fs.rmSync(full, { force: true });
      removed.push(full);
    } catch {
      // Left for a later sweep (a read-only cache, a permission problem).
    }
  }
  return removed;
}
