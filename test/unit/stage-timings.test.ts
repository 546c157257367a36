import { describe, expect, it } from 'vitest';
import { startStageClock, TIMED_STAGES } from '../../src/app/search/stage-timings.js';

/** A clock that moves only when told to. */
function manualClock() {
  let t = 100;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('stage clock', () => {
  it('times each stage that ran, adds repeated runs up, and leaves the others out', async () => {
    const clock = manualClock();
    const stages = startStageClock(clock.now);
    const hits = stages.time('lexical', () => {
      clock.advance(2.5);
      return 'hits';
    });
    expect(hits).toBe('hits');
    stages.time('parent', () => clock.advance(1));
    stages.time('parent', () => clock.advance(0.25));
    const pending = stages.timeAsync('vector', Promise.resolve(7));
    clock.advance(4);
    expect(await pending).toBe(7);
    expect(stages.timings()).toEqual({ lexical: 2.5, vector: 4, parent: 1.25, total: 7.75 });
    stages.drop('vector');
    expect(Object.keys(stages.timings())).toEqual(['lexical', 'parent', 'total']);
  });

  it('counts a stage that threw, rounds to microseconds, and keeps pipeline order', async () => {
    const clock = manualClock();
    const stages = startStageClock(clock.now);
    expect(() =>
      stages.time('rerank', () => {
        clock.advance(1 / 3);
        throw new Error('model broke');
      }),
    ).toThrow('model broke');
    const failing = stages.timeAsync('fusion', Promise.reject(new Error('x')));
    await expect(failing).rejects.toThrow('x');
    expect(stages.timings()).toEqual({ fusion: 0, rerank: 0.333, total: 0.333 });
    expect(TIMED_STAGES.at(-1)).toBe('total');
  });
});
