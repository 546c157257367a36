// A cross-process gate: one holder at a time, across every process and every connection in this one. The
// gate is a write transaction (`BEGIN IMMEDIATE`) on a small sidecar SQLite file next to the thing it guards.
// The sidecar is never renamed or removed, so closing its connection is always safe, and the operating system
// drops the lock of a process that dies, so a crash never leaves it held. Waiting polls without blocking the
// event loop; a holder that keeps it past the deadline is FILE_BUSY.
import Database from 'better-sqlite3';
import { GrooveError } from '../errors.js';

export interface FileGateOptions {
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** What the gate guards, for the busy error (e.g. `the eval history "…"`). */
  guards?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** The sidecar gate of `target` (`<target>.gate`). */
export function gatePathFor(target: string): string {
  return `${target}.gate`;
}

/** Run `work` while holding the gate file at `gatePath` (created on first use); released on return or throw. */
export async function withFileGate<T>(
  gatePath: string,
  work: () => T | Promise<T>,
  options: FileGateOptions = {},
): Promise<T> {
  const gate = openGate(gatePath);
  try {
    await acquire(gate, gatePath, options);
    try {
      return await work();
    } finally {
      // The gate's transaction writes nothing, so it is released by ROLLBACK, which never waits: a COMMIT would
      // have to write the empty file's first page under an exclusive lock, and waiters' shared locks make that
      // SQLITE_BUSY.
      if (gate.inTransaction) gate.exec('ROLLBACK');
    }
  } finally {
    gate.close();
  }
}

function openGate(gatePath: string): Database.Database {
  try {
    // timeout 0: a held gate answers SQLITE_BUSY at once, and acquire() waits asynchronously.
    return new Database(gatePath, { timeout: 0 });
  } catch (cause) {
    throw new GrooveError(
      'FILE_WRITE_FAILED',
      `cannot open the lock file "${gatePath}": ${messageOf(cause)}`,
      {
        cause,
        hint: 'check that its folder exists and is writable; the file is groove’s own and may be deleted only while no groove runs',
      },
    );
  }
}

async function acquire(gate: Database.Database, gatePath: string, options: FileGateOptions): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let pause = 2;
  for (;;) {
    try {
      gate.exec('BEGIN IMMEDIATE');
      return;
    } catch (cause) {
      if ((cause as { code?: string }).code !== 'SQLITE_BUSY') {
        throw new GrooveError(
          'FILE_REFUSED',
          `the lock file "${gatePath}" is unusable: ${messageOf(cause)}`,
          {
            cause,
            hint: 'it is groove’s own: delete it while no groove runs, and it is recreated',
          },
        );
      }
    }
    if (Date.now() >= deadline) {
      const seconds = Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000);
      throw new GrooveError(
        'FILE_BUSY',
        `${options.guards ?? `"${gatePath}"`} stayed locked by another groove process for ${seconds} s`,
        {
          hint: 'try again; if it persists, look for a stuck groove process on this knowledge base and stop it',
        },
      );
    }
    // Holders keep the gate for milliseconds; a short jittered pause keeps waiters from moving in lockstep.
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    pause = Math.min(pause * 2, 25);
  }
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
