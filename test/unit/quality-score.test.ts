import { describe, expect, it } from 'vitest';
import { scoreChunkQuality } from '../../src/document/quality-score.js';

const LONG_LINE = 'This sentence is comfortably longer than eighty characters so no length penalty applies.';

describe('scoreChunkQuality', () => {
  it('gives 1.0 to multi-line text of reasonable length', () => {
    expect(scoreChunkQuality(`${LONG_LINE}\nsecond line`)).toBe(1);
  });

  it('penalises a single line under 80 characters by 0.3', () => {
    expect(scoreChunkQuality('A single line that is longer than thirty chars.')).toBe(0.7);
    expect(scoreChunkQuality(LONG_LINE)).toBe(1);
  });

  it('penalises text under 30 characters by 0.6 (plus the one-liner penalty)', () => {
    expect(scoreChunkQuality('short')).toBe(0.1);
    expect(scoreChunkQuality('a\nb')).toBe(0.4);
  });

  it('counts characters, not bytes, after trimming', () => {
    // 30 Japanese characters = 90 bytes: not short, but a one-liner.
    expect(scoreChunkQuality(`  ${'あ'.repeat(30)}  `)).toBe(0.7);
    expect(scoreChunkQuality('あ'.repeat(29))).toBe(0.1);
  });

  it('recognises boilerplate case-insensitively with trailing punctuation and clamps at 0', () => {
    for (const text of [
      'TBD',
      'todo.',
      'WIP。',
      'n/a',
      '未定、',
      '準備中',
      '(準備中)',
      '詳細は後述する。',
      'coming SOON ...',
      '後述',
    ]) {
      expect(scoreChunkQuality(text), text).toBe(0);
    }
  });

  it('does not treat text that merely contains a placeholder as boilerplate', () => {
    expect(scoreChunkQuality('TODO: write the installation guide here')).toBe(0.7);
    expect(scoreChunkQuality('TODO')).toBe(0);
  });

  it('treats blank content as short one-line text (0.1)', () => {
    expect(scoreChunkQuality('')).toBe(0.1);
    expect(scoreChunkQuality('   \n  ')).toBe(0.1);
  });
});
