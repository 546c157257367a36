// One writer per index: `<db>.lock` names its writer (pid, the process's start time, the boot id, the host).
// A lock whose writer is gone is taken over: a dead pid, a pid now used by another process (its start time
// differs), a lock from before a reboot (the boot id differs), or a file left empty or unreadable by a crash.
// A lock from another host is never taken over: this machine cannot tell whether that writer still runs.
import fs from 'node:fs';
import os from 'node:os';
import { GrooveError, storageFailure } from '../../errors.js';

export interface IndexLock {
  release(): void;
}

/** What a lock file records. Older groove versions wrote the pid alone; such a lock has only `pid`. */
export interface LockOwner {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot), where the OS has it. */
  start?: string;
  /** /proc/sys/kernel/random/boot_id, where the OS has it. */
  boot?: string;
  host?: string;
}

function readTrimmed(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** When `pid` started, in clock ticks after boot (undefined where there is no /proc, or no such process). */
export function processStartTime(pid: number): string | undefined {
  const stat = readTrimmed(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ")" start at 3.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
}

export function currentBootId(): string | undefined {
  return readTrimmed('/proc/sys/kernel/random/boot_id');
}

/** This process as a lock owner. */
export function lockOwnerOfThisProcess(): LockOwner {
  const owner: LockOwner = { pid: process.pid, host: os.hostname() };
  const start = processStartTime(process.pid);
  const boot = currentBootId();
  if (start !== undefined) owner.start = start;
  if (boot !== undefined) owner.boot = boot;
  return owner;
}

/** The owner a lock file names; null when the text is neither the JSON record nor an old bare pid. */
export function parseLockOwner(text: string): LockOwner | null {
  if (/^\d+\s*$/.test(text)) return { pid: Number.parseInt(text, 10) };
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (!Number.isSafeInteger(value.pid) || (value.pid as number) <= 0) return null;
    const owner: LockOwner = { pid: value.pid as number };
    for (const key of ['start', 'boot', 'host'] as const)
      if (typeof value[key] === 'string') owner[key] = value[key] as string;
    return owner;
  } catch {
    return null;
  }
}

/** The locks this process holds (a second writer in the same process is refused like any other). */
const heldHere = new Set<string>();

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the writer a lock names still runs: `alive`, `other-host` (unknowable from here), or why it is gone. */
type HolderVerdict =
  | { kind: 'alive' }
  | { kind: 'other-host'; host: string }
  | { kind: 'gone'; reason: string };

function judgeHolder(owner: LockOwner, lockPath: string): HolderVerdict {
  if (owner.host !== undefined && owner.host !== os.hostname())
    return { kind: 'other-host', host: owner.host };
  const boot = currentBootId();
  if (owner.boot !== undefined && boot !== undefined && owner.boot !== boot)
    return { kind: 'gone', reason: 'it was written before the last reboot' };
  // A lock naming this process that this process does not hold was left by an earlier process with our pid.
  if (owner.pid === process.pid) {
    return heldHere.has(lockPath)
      ? { kind: 'alive' }
      : { kind: 'gone', reason: `process ${owner.pid} is this process, which does not hold it` };
  }
  if (!isProcessAlive(owner.pid)) return { kind: 'gone', reason: `process ${owner.pid} is not running` };
  const start = processStartTime(owner.pid);
  if (owner.start === undefined || start === undefined || owner.start === start) return { kind: 'alive' };
  return { kind: 'gone', reason: `process ${owner.pid} is now another program (its start time differs)` };
}

/** Whether the writer a lock names still runs here; throws when it is on another host (unknowable from here). */
function holderIsAlive(owner: LockOwner, lockPath: string): boolean {
  const verdict = judgeHolder(owner, lockPath);
  if (verdict.kind === 'other-host') {
    const host = os.hostname();
    throw new GrooveError(
      'INDEX_BUSY',
      `the index is locked by process ${owner.pid} on host "${verdict.host}" (this is "${host}")`,
      {
        hint: `groove cannot check a process on another machine; if no groove runs there, remove "${lockPath}"`,
      },
    );
  }
  return verdict.kind === 'alive';
}

/** What `<db>.lock` says right now, judged as a writer would judge it; reads only. */
export type LockState =
  | { kind: 'free' }
  | { kind: 'held'; owner: LockOwner }
  | { kind: 'stale'; owner: LockOwner | null; reason: string }
  | { kind: 'other-host'; owner: LockOwner };

export function inspectIndexLock(dbPath: string): LockState {
  const lockPath = `${dbPath}.lock`;
  let text: string | null;
  try {
    text = readLockText(lockPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    return { kind: 'stale', owner: null, reason: `it cannot be read (${code})` };
  }
  if (text === null) return { kind: 'free' };
  const owner = parseLockOwner(text.trim());
  if (!owner) return { kind: 'stale', owner: null, reason: 'it is empty or names no process' };
  const verdict = judgeHolder(owner, lockPath);
  if (verdict.kind === 'alive') return { kind: 'held', owner };
  if (verdict.kind === 'other-host') return { kind: 'other-host', owner };
  return { kind: 'stale', owner, reason: verdict.reason };
}

/**
 * Create the lock with its whole content, or return false when it exists. The record is written to a private
 * file and hard-linked into place, so a lock file is never seen half-written and a failed write (a full disk)
 * leaves nothing behind. Where the file system has no hard links it falls back to an exclusive create.
 */
function createLock(lockPath: string, content: string): boolean {
  const draft = `${lockPath}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(draft, content, { flag: 'w' });
    fs.linkSync(draft, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP')
      if (fs.existsSync(draft)) return createExclusively(lockPath, content);
    throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

function createExclusively(lockPath: string, content: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, content);
    fs.closeSync(fd);
    return true;
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(lockPath, { force: true }); // never leave an empty lock
    throw error;
  }
}

/** Remove a stale lock, but only the one judged stale: a fresh lock that replaced it meanwhile is put back. */
function removeStaleLock(lockPath: string, judged: string): void {
  const aside = `${lockPath}.${process.pid}.stale`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (fs.readFileSync(aside, 'utf8') !== judged) fs.linkSync(aside, lockPath);
  } catch {
    // Someone holds a newer lock already; the next attempt reads theirs.
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

/** Take `<db>.lock` or throw INDEX_BUSY naming the process that holds it. */
export function acquireIndexLock(dbPath: string): IndexLock {
  const lockPath = `${dbPath}.lock`;
  const content = `${JSON.stringify(lockOwnerOfThisProcess())}\n`;
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (createLock(lockPath, content)) {
        heldHere.add(lockPath);
        return { release: () => releaseLock(lockPath, content) };
      }
      const text = readLockText(lockPath);
      if (text === null) continue; // released meanwhile
      const owner = parseLockOwner(text.trim());
      if (owner && holderIsAlive(owner, lockPath)) {
        throw new GrooveError('INDEX_BUSY', `index "${dbPath}" is being written by process ${owner.pid}`, {
          hint: 'wait for that run to finish, or stop it; the lock is released when it exits',
        });
      }
      removeStaleLock(lockPath, text);
    }
  } catch (error) {
    throw storageFailure(error, dbPath) ?? error;
  }
  throw new GrooveError('INDEX_BUSY', `could not take the lock "${lockPath}"`, {
    hint: 'remove the file if no groove is running',
  });
}

function readLockText(lockPath: string): string | null {
  try {
    return fs.readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Remove the lock if it is still ours (a lock taken over from us is not ours to remove). */
function releaseLock(lockPath: string, content: string): void {
  heldHere.delete(lockPath);
  try {
    if (fs.readFileSync(lockPath, 'utf8') === content) fs.rmSync(lockPath, { force: true });
  } catch {
    // Already gone.
  }
}
