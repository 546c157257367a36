import { describe, expect, it } from 'vitest';
import { createQuotePresenceScan, describeStaleQuote } from '../../src/measure/golden-quote-presence.js';

const queries = [
  {
    id: 'q1',
    expected: [
      { path: 'a.md', heading: null, quote: 'Keeps every\n  SNAPSHOT' },
      { path: 'a.md', heading: 'Other', quote: 'gone from the note' },
      { path: 'b.md', heading: null },
    ],
  },
  { id: 'q2', expected: [{ path: 'b.md', heading: null, quote: 'keeps every snapshot' }] },
  { id: 'q3', expected: [{ path: 'c.md', heading: null, quote: 'first half second half' }] },
];

describe('quote presence', () => {
  it('finds a quote only in a chunk of its own document, whitespace and case ignored', () => {
    const scan = createQuotePresenceScan(queries);
    scan.observe('a.md', 'restic keeps   every snapshot until forget runs');
    // b.md holds a.md's quote, not its own; c.md's quote is split across two chunks.
    scan.observe('b.md', 'nothing here');
    scan.observe('z.md', 'keeps every snapshot');
    scan.observe('c.md', 'the first half');
    scan.observe('c.md', 'second half');
    expect(scan.stale()).toEqual([
      { queryId: 'q1', queryIndex: 0, entryIndex: 1, path: 'a.md', quote: 'gone from the note' },
      { queryId: 'q2', queryIndex: 1, entryIndex: 0, path: 'b.md', quote: 'keeps every snapshot' },
      { queryId: 'q3', queryIndex: 2, entryIndex: 0, path: 'c.md', quote: 'first half second half' },
    ]);
  });

  it('reports nothing for a set without quotes, and names an entry by its place in the file', () => {
    const scan = createQuotePresenceScan([{ id: 'x', expected: [{ path: 'a.md', heading: null }] }]);
    scan.observe('a.md', 'text');
    expect(scan.stale()).toEqual([]);
    expect(
      describeStaleQuote({
        queryId: 'x',
        queryIndex: 3,
        entryIndex: 1,
        path: 'a.md',
        quote: `${'w '.repeat(40)}`,
      }),
    ).toBe(`queries[3].expected[1] (a.md): "${'w '.repeat(29)}w…"`);
  });
});
