// Golden-set age and corpus drift: the limits fire past the threshold and not at it.
import { describe, expect, it } from 'vitest';
import { assessGoldenAge, formatDrift, measureCorpusDrift } from '../../src/measure/golden-freshness.js';

const meta = {
  created: '2026-03-01T00:00:00+00:00',
  corpusDocuments: 200,
  corpusChunks: 1000,
  source: 'stamp',
};

describe('assessGoldenAge', () => {
  it('is fresh up to the limit and stale one moment past it', () => {
    const at = (iso: string) => assessGoldenAge(meta, new Date(iso), 30);
    expect(at('2026-03-01T00:00:00Z')).toMatchObject({ ageDays: 0, stale: false });
    expect(at('2026-03-31T00:00:00Z')).toMatchObject({ ageDays: 30, stale: false });
    const late = at('2026-03-31T00:00:01Z');
    expect(late.stale).toBe(true);
    expect(late.ageDays).toBeGreaterThan(30);
    expect(at('2026-04-10T12:00:00Z').ageDays).toBeCloseTo(40.5, 9);
  });

  it('follows the configured limit', () => {
    expect(assessGoldenAge(meta, new Date('2026-03-09T00:00:00Z'), 7).stale).toBe(true);
    expect(assessGoldenAge(meta, new Date('2026-03-09T00:00:00Z'), 8).stale).toBe(false);
  });
});

describe('measureCorpusDrift', () => {
  it('takes the larger relative change of documents and chunks and warns only above the threshold', () => {
    const then = { documents: 200, chunks: 1000 };
    expect(measureCorpusDrift(then, { documents: 210, chunks: 1000 }, 0.05)).toMatchObject({
      change: 0.05,
      drifted: false,
    });
    const grown = measureCorpusDrift(then, { documents: 211, chunks: 1020 }, 0.05);
    expect(grown.change).toBeCloseTo(0.055, 12);
    expect(grown.drifted).toBe(true);
    const shrunk = measureCorpusDrift(then, { documents: 200, chunks: 900 }, 0.05);
    expect(shrunk).toMatchObject({ change: 0.1, drifted: true });
    expect(measureCorpusDrift(then, then, 0)).toMatchObject({ change: 0, drifted: false });
  });

  it('treats growth from an empty index as unbounded', () => {
    const drift = measureCorpusDrift({ documents: 0, chunks: 0 }, { documents: 1, chunks: 2 }, 0.05);
    expect(drift.change).toBe(Number.POSITIVE_INFINITY);
    expect(drift.drifted).toBe(true);
    expect(formatDrift(drift.change)).toBe('from an empty index');
    expect(formatDrift(0.0771)).toBe('7.7%');
  });
});
