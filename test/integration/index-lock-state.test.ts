// inspectIndexLock judges `<db>.lock` the way a writer would, without taking or removing it: free, held by a
// live writer, stale (dead pid, reused pid, an earlier boot, no readable owner) or on another host.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireIndexLock, currentBootId, inspectIndexLock } from '../../src/app/indexing/index-lock.js';
import { deadPid } from '../support/lock-holder.js';

const hasProc = fs.existsSync('/proc/self/stat');

let folder: string;
let dbPath: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-lock-state-'));
  dbPath = path.join(folder, 'index.db');
});
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

const writeLock = (owner: Record<string, unknown>) =>
  fs.writeFileSync(`${dbPath}.lock`, `${JSON.stringify({ host: os.hostname(), ...owner })}\n`);

describe('inspectIndexLock', () => {
  it('no lock file is free', () => {
    expect(inspectIndexLock(dbPath)).toEqual({ kind: 'free' });
  });

  it("this process's own lock is held, and stays in place", () => {
    const lock = acquireIndexLock(dbPath);
    try {
      expect(inspectIndexLock(dbPath)).toMatchObject({ kind: 'held', owner: { pid: process.pid } });
    } finally {
      lock.release();
    }
    expect(inspectIndexLock(dbPath)).toEqual({ kind: 'free' });
  });

  it('a dead pid is stale, and the file is left alone', () => {
    const pid = deadPid();
    writeLock({ pid });
    const before = fs.readFileSync(`${dbPath}.lock`, 'utf8');
    expect(inspectIndexLock(dbPath)).toMatchObject({
      kind: 'stale',
      reason: `process ${pid} is not running`,
    });
    expect(fs.readFileSync(`${dbPath}.lock`, 'utf8')).toBe(before);
  });

  it.runIf(hasProc)('a live pid with another start time is a reused pid: stale', () => {
    writeLock({ pid: process.ppid, start: '1' });
    expect(inspectIndexLock(dbPath)).toMatchObject({
      kind: 'stale',
      reason: `process ${process.ppid} is now another program (its start time differs)`,
    });
  });

  it.runIf(currentBootId() !== undefined)('a lock from an earlier boot is stale', () => {
    writeLock({ pid: process.ppid, boot: 'an-earlier-boot' });
    expect(inspectIndexLock(dbPath)).toMatchObject({
      kind: 'stale',
      reason: 'it was written before the last reboot',
    });
  });

  it('text that names no process is stale', () => {
    fs.writeFileSync(`${dbPath}.lock`, 'not a lock');
    expect(inspectIndexLock(dbPath)).toEqual({
      kind: 'stale',
      owner: null,
      reason: 'it is empty or names no process',
    });
  });

  it("another host's lock is neither held nor stale", () => {
    writeLock({ pid: 1, host: 'elsewhere.invalid' });
    expect(inspectIndexLock(dbPath)).toMatchObject({
      kind: 'other-host',
      owner: { host: 'elsewhere.invalid' },
    });
  });
});
