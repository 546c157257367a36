// The writer lock on real files and real processes: what a lock records, and which locks are stale — a pid now
// used by an unrelated process, a lock from before a reboot, an empty file from a crash — against the ones that
// are not (the live writer, one on another host, a second writer in the same process).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentBootId, parseLockOwner, processStartTime } from '../../src/app/indexing/index-lock.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { GrooveError } from '../../src/errors.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

const hasProc = fs.existsSync('/proc/self/stat');

let kb: TempKb;
let sleeper: ChildProcess | null = null;
beforeEach(() => {
  kb = createTempKb({ 'a.md': noteText('a'), 'b.md': noteText('b') });
});
afterEach(() => {
  sleeper?.kill();
  sleeper = null;
  kb.cleanup();
});

const lockPath = () => `${kb.dbPath}.lock`;

async function index(): Promise<unknown> {
  const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
  try {
    return await facade.index();
  } catch (error) {
    return error;
  } finally {
    await facade.close();
  }
}

/** A live process that has nothing to do with groove. */
function unrelatedProcess(): number {
  sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  return sleeper.pid!;
}

function writeLock(record: Record<string, unknown>): void {
  fs.writeFileSync(lockPath(), `${JSON.stringify(record)}\n`);
}

describe('the lock record', () => {
  it('names pid, start time, boot id and host while a run holds it', async () => {
    let seen = '';
    const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    await facade.index({ onEvent: () => (seen ||= fs.readFileSync(lockPath(), 'utf8')) });
    await facade.close();
    const owner = parseLockOwner(seen);
    expect(owner).toMatchObject({ pid: process.pid, host: os.hostname() });
    if (hasProc) expect(owner).toMatchObject({ start: processStartTime(process.pid), boot: currentBootId() });
    expect(fs.existsSync(lockPath())).toBe(false);
  });
});

describe.skipIf(!hasProc)('a lock naming a live process', () => {
  it('is stale when the pid now belongs to a process that started later (pid reuse)', async () => {
    const pid = unrelatedProcess();
    writeLock({ pid, start: '1', boot: currentBootId(), host: os.hostname() });
    expect(await index()).toMatchObject({ indexed: 2 });
    expect(fs.existsSync(lockPath())).toBe(false);
  });

  it('holds when pid and start time match: INDEX_BUSY, the lock left as it was', async () => {
    const pid = unrelatedProcess();
    writeLock({ pid, start: processStartTime(pid), boot: currentBootId(), host: os.hostname() });
    const before = fs.readFileSync(lockPath(), 'utf8');
    const busy = await index();
    expect(busy).toBeInstanceOf(GrooveError);
    expect((busy as GrooveError).code).toBe('INDEX_BUSY');
    expect((busy as GrooveError).message).toContain(String(pid));
    expect(fs.readFileSync(lockPath(), 'utf8')).toBe(before);
  });

  it('is stale when it was written before a reboot (another boot id)', async () => {
    const pid = unrelatedProcess();
    writeLock({ pid, start: processStartTime(pid), boot: 'an-earlier-boot', host: os.hostname() });
    expect(await index()).toMatchObject({ indexed: 2 });
  });
});

describe('locks that are not taken over', () => {
  it('a lock from another host: INDEX_BUSY naming the host, never taken over silently', async () => {
    writeLock({ pid: 2147483646, start: '1', boot: 'elsewhere', host: 'another-machine.example' });
    const busy = await index();
    expect((busy as GrooveError).code).toBe('INDEX_BUSY');
    expect((busy as GrooveError).toLine()).toContain('another-machine.example');
    expect((busy as GrooveError).toLine()).toContain(lockPath());
    expect(fs.existsSync(lockPath())).toBe(true);
  });

  it('a second writer in the same process waits its turn like any other', async () => {
    const first = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    const second: Promise<unknown>[] = [];
    await first.index({ onEvent: () => void (second.length === 0 && second.push(index())) });
    await first.close();
    expect(((await second[0]) as GrooveError).code).toBe('INDEX_BUSY');
  });
});

describe('stale lock files', () => {
  it('an empty lock file (a crash between create and write) is taken over', async () => {
    fs.writeFileSync(lockPath(), '');
    expect(await index()).toMatchObject({ indexed: 2 });
    expect(fs.existsSync(lockPath())).toBe(false);
  });

  it('an old-format lock (a bare pid) still works: a live pid holds, a dead one or our own is stale', async () => {
    fs.writeFileSync(lockPath(), `${process.ppid}\n`);
    expect((await index()) as GrooveError).toMatchObject({ code: 'INDEX_BUSY' });
    fs.writeFileSync(lockPath(), `${process.pid}\n`); // a bare pid equal to ours was an earlier process
    expect(await index()).toMatchObject({ indexed: 2 });
  });
});
