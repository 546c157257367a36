// The usage file: served (task, document) pairs, fetches of served documents only, and both bounds (age and
// count) applied on the next write; counted as status shows them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SERVED_PAIRS, USAGE_RETENTION_DAYS, UsageLog } from '../../src/store/usage-log.js';

const DAY = 24 * 60 * 60 * 1000;
const folders: string[] = [];

function openLog(): { log: UsageLog; file: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-usage-'));
  folders.push(folder);
  const file = path.join(folder, 'usage.db');
  return { log: UsageLog.open(file, { create: true })!, file };
}

afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

describe('usage log', () => {
  it('is absent until created', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-usage-'));
    folders.push(folder);
    expect(UsageLog.open(path.join(folder, 'usage.db'), { create: false })).toBeNull();
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('keeps each served pair once and marks only fetches of documents served to that task', () => {
    const { log } = openLog();
    const at = new Date('2026-12-01T10:00:00Z');
    log.recordServed('T1', ['a.md', 'b.md'], at);
    log.recordServed('T1', ['b.md', 'c.md'], at);
    log.recordServed('T2', ['a.md'], at);
    expect(log.recordFetch('T1', 'b.md', at)).toBe(true);
    expect(log.recordFetch('T1', 'b.md', at)).toBe(true);
    expect(log.recordFetch('T2', 'b.md', at)).toBe(false);
    expect(log.recordFetch('T3', 'a.md', at)).toBe(false);
    const pairs = log.servedPairs();
    expect(pairs).toEqual([
      { taskId: 'T1', path: 'a.md', fetched: false },
      { taskId: 'T1', path: 'b.md', fetched: true },
      { taskId: 'T1', path: 'c.md', fetched: false },
      { taskId: 'T2', path: 'a.md', fetched: false },
    ]);
    const judged = [
      { taskId: 'T1', path: 'c.md' },
      { taskId: 'T1', path: 'c.md' },
      { taskId: 'T9', path: 'a.md' },
    ];
    expect(log.counts(judged)).toEqual({ tasks: 2, served: 4, fetched: 1, judged: 1 });
    expect(log.counts(null).judged).toBeNull();
    log.close();
  });

  it('drops pairs older than the retention on the next write', () => {
    const { log } = openLog();
    const now = new Date('2026-12-01T10:00:00Z');
    log.recordServed('old', ['a.md'], new Date(now.getTime() - (USAGE_RETENTION_DAYS + 1) * DAY));
    log.recordServed('recent', ['a.md'], new Date(now.getTime() - (USAGE_RETENTION_DAYS - 1) * DAY));
    expect(log.servedPairs()).toHaveLength(2);
    log.recordServed('now', ['b.md'], now);
    expect(log.servedPairs().map((pair) => pair.taskId)).toEqual(['recent', 'now']);
    log.close();
  });

  it('keeps at most MAX_SERVED_PAIRS before a write, dropping the oldest first', () => {
    const { log, file } = openLog();
    const start = new Date('2026-12-01T00:00:00Z');
    const paths = Array.from({ length: MAX_SERVED_PAIRS + 5 }, (_, i) => `n${i}.md`);
    log.recordServed('bulk', paths, start);
    log.recordServed('late', ['x.md'], new Date(start.getTime() + 1000));
    const pairs = log.servedPairs();
    expect(pairs).toHaveLength(MAX_SERVED_PAIRS + 1);
    // Same first-served time: the oldest rows go first.
    expect(pairs[0]!.path).toBe('n5.md');
    expect(pairs.at(-1)).toEqual({ taskId: 'late', path: 'x.md', fetched: false });
    log.close();
    expect(UsageLog.open(file, { create: false })!.servedPairs()).toHaveLength(MAX_SERVED_PAIRS + 1);
  });
});
