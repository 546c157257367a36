import { describe, expect, it } from 'vitest';
import { computeBackoffMs, parseRetryAfterMs, redactUrl } from '../../src/models/http-retry.js';

describe('retry schedule', () => {
  it('doubles from the base, caps at the maximum, and adds at most 25% jitter', () => {
    expect([0, 1, 2, 3].map((r) => computeBackoffMs(r, 1000, 60_000, () => 0))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(computeBackoffMs(10, 1000, 60_000, () => 0)).toBe(60_000);
    expect(computeBackoffMs(0, 1000, 60_000, () => 0.999)).toBeLessThanOrEqual(1250);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfterMs('3', 0)).toBe(3000);
    expect(parseRetryAfterMs(null, 0)).toBeNull();
    expect(parseRetryAfterMs('soon', 0)).toBeNull();
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
  });

  it('redacts credentials and query strings from URLs', () => {
    expect(redactUrl('https://user:secret@host:8080/v1/embeddings?key=abc')).toBe(
      'https://host:8080/v1/embeddings',
    );
  });
});
