// The writer role's and the commit listener's options are checked before any connection is made, and the lock
// key is a stable pair inside PostgreSQL's int4 range.
import { describe, expect, it } from 'vitest';
import { listenForCommits } from '../../src/store/postgres/commit-listener.js';
import {
  GROOVE_LOCK_NAMESPACE,
  startWriterRole,
  writerLockKey,
} from '../../src/store/postgres/writer-role.js';

// Port 1 on loopback: nothing listens there, and no test reaches a connect anyway.
const connection = { host: '127.0.0.1', port: 1 };

describe('writer role options', () => {
  it('refuses an interval outside 50–60,000 ms, naming the option', () => {
    expect(() => startWriterRole({ connection, kbId: 'kb', retryIntervalMs: 10 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('retryIntervalMs'),
      }),
    );
    expect(() => startWriterRole({ connection, kbId: 'kb', livenessTimeoutMs: 60_001 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('livenessTimeoutMs'),
      }),
    );
    expect(() => startWriterRole({ connection, kbId: 'kb', retryIntervalMs: Number.NaN })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('refuses a server idle timeout the liveness check could not beat', () => {
    expect(() =>
      startWriterRole({ connection, kbId: 'kb', livenessIntervalMs: 1_000, serverIdleTimeoutMs: 2_000 }),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('twice') }),
    );
  });

  it('the listener checks its intervals the same way', () => {
    expect(() =>
      listenForCommits({ connection, kbId: 'kb', reconnectIntervalMs: 0, onCommit: () => {} }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('reconnectIntervalMs'),
      }),
    );
  });

  it('derives a stable lock key in the int4 range, one per KB id', () => {
    const [namespace, key] = writerLockKey('東京/notes');
    expect(namespace).toBe(GROOVE_LOCK_NAMESPACE);
    expect(writerLockKey('東京/notes')).toEqual([namespace, key]);
    expect(writerLockKey('other')[1]).not.toBe(key);
    for (const kbId of ['', 'a', 'kb-1', 'kb-2', '東京/notes']) {
      const [first, second] = writerLockKey(kbId);
      expect(first).toBeLessThanOrEqual(2 ** 31 - 1);
      expect(second).toBeGreaterThanOrEqual(0);
      expect(second).toBeLessThanOrEqual(2 ** 31 - 1);
    }
  });
});
