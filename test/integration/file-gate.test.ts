// The cross-process gate (src/store/file-gate.ts) against a real second process: a held gate makes others wait
// without blocking the event loop, then FILE_BUSY; a holder killed with SIGKILL releases it; work that throws
// releases it too. Holders in one process take turns as well.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import { withFileGate } from '../../src/store/file-gate.js';
import { holdLock } from '../support/lock-holder.js';

let root: string;
let gatePath: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
  gatePath = path.join(root, 'thing.gate');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('withFileGate', () => {
  it('waits while another process holds the gate, and runs once it lets go', async () => {
    const holder = await holdLock('gate', gatePath);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    let ran = false;
    const waiting = withFileGate(gatePath, () => {
      ran = true;
      return 'done';
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ran).toBe(false);
    expect(ticks).toBeGreaterThan(5); // the wait did not block the event loop
    await holder.release();
    expect(await waiting).toBe('done');
    clearInterval(ticker);
  });

  it('gives up with FILE_BUSY, and a SIGKILLed holder leaves the gate free', async () => {
    const holder = await holdLock('gate', gatePath);
    const busy = await withFileGate(gatePath, () => 'never', {
      timeoutMs: 200,
      guards: 'the test gate',
    }).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(GrooveError);
    expect(busy).toMatchObject({ code: 'FILE_BUSY' });
    expect((busy as GrooveError).message).toMatch(/^the test gate stayed locked by another groove process/);
    await holder.kill();
    expect(await withFileGate(gatePath, () => 'free', { timeoutMs: 2_000 })).toBe('free');
  });

  it('lets contending processes take a fresh gate hundreds of times without one failure, one at a time', async () => {
    const counter = path.join(root, 'counter');
    fs.writeFileSync(counter, '0');
    const churn = path.resolve(import.meta.dirname, '../support/gate-churn.ts');
    const contenders = Array.from(
      { length: 4 },
      () =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', churn, gatePath, counter, '400'], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.on('close', (code) => resolve({ code, out }));
        }),
    );
    const results = await Promise.all(contenders);
    expect(results.map((r) => r.out).join('')).toBe('');
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(fs.readFileSync(counter, 'utf8')).toBe('1600');
  }, 60_000);

  it('lets holders in one process take turns, and releases when work throws', async () => {
    const order: string[] = [];
    const slow = withFileGate(gatePath, async () => {
      order.push('slow in');
      await new Promise((resolve) => setTimeout(resolve, 100));
      order.push('slow out');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const fast = withFileGate(gatePath, () => order.push('fast'));
    await Promise.all([slow, fast]);
    expect(order).toEqual(['slow in', 'slow out', 'fast']);
    await expect(
      withFileGate(gatePath, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await withFileGate(gatePath, () => 'after', { timeoutMs: 200 })).toBe('after');
  });
});
