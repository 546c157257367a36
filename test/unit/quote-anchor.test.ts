import { describe, expect, it } from 'vitest';
import { createUniquenessCount, quoteCandidates } from '../../src/measure/quote-anchor.js';

describe('quoteCandidates', () => {
  it('skips heading lines, ends at a sentence end or a word boundary, shortest first', () => {
    const text =
      '## Restic\n\nRestic keeps every snapshot until forget runs on the repository.\nShort one.  Then a third sentence follows here.';
    // `Short one.` is under the minimum, so its passage runs on into the next sentence.
    expect(quoteCandidates(text)).toEqual([
      'Restic keeps every snapshot',
      'Short one. Then a third sentence',
      'Then a third sentence follows',
      'Restic keeps every snapshot until forget runs on',
      'Short one. Then a third sentence follows here.',
      'Then a third sentence follows here.',
      'Restic keeps every snapshot until forget runs on the repository.',
    ]);
  });

  it('cuts text without spaces at a character, and never yields a passage under 12 characters', () => {
    const text = `梅雨（つゆ、ばいう）は、${'東'.repeat(40)}。雨季。`;
    const [first] = quoteCandidates(text);
    expect([...first!]).toHaveLength(32);
    expect(quoteCandidates(text)).not.toContain('雨季。');
    expect(quoteCandidates('Too short.')).toEqual([]);
  });
});

describe('createUniquenessCount', () => {
  it('picks the first candidate its own chunk holds and no other does', () => {
    const own = 'Alpha beta gamma delta. Epsilon zeta eta theta.';
    const candidates = ['Alpha beta gamma delta.', 'Epsilon zeta eta theta.', 'not in the chunk at all'];
    const count = createUniquenessCount([candidates]);
    count.observe(own);
    count.observe('an other chunk quoting ALPHA   beta gamma delta. too');
    count.observe('a chunk with not in the chunk at all');
    expect(count.firstUnique(candidates, own)).toBe('Epsilon zeta eta theta.');
    count.observe('epsilon zeta eta theta. again');
    expect(count.firstUnique(candidates, own)).toBeNull();
  });
});
