// The benchmark's side-by-side table: a measurement not taken shows its reason (never a blank or a zero), columns
// line up whatever the cell widths, and two backends' answers are compared hit by hit.
import { describe, expect, it } from 'vitest';
import {
  countIdentical,
  formatColumns,
  measured,
  notMeasured,
  showCell,
  showTiming,
} from '../../bench/side-by-side.js';

describe('showCell', () => {
  it('formats a measured value and says why one is missing, without the hint in parentheses', () => {
    expect(showCell(measured({ median: 1.25, p95: 9 }), showTiming)).toBe('p50 1.3 ms, p95 9.0 ms');
    const refused = notMeasured<number>(
      'serve: `groove serve` is not supported yet with [storage] backend = "postgres" (use sqlite for it)',
    );
    expect(showCell(refused, String)).toBe(
      'n/a: serve: `groove serve` is not supported yet with [storage] backend = "postgres"',
    );
  });

  it('keeps a reason that has no closing hint whole', () => {
    expect(showCell(notMeasured<number>('cannot reach PostgreSQL at 127.0.0.1:5432'), String)).toBe(
      'n/a: cannot reach PostgreSQL at 127.0.0.1:5432',
    );
  });
});

describe('formatColumns', () => {
  it('pads every column to its widest entry, under a rule, with no trailing spaces', () => {
    const table = formatColumns(
      ['', 'SQLite', 'PostgreSQL'],
      [
        ['index', '3.1 s', '5.1 s'],
        ['one-shot search', '246 ms', 'n/a: refused'],
        ['short row', 'only one'],
      ],
    );
    expect(table.split('\n')).toEqual([
      '                 SQLite    PostgreSQL',
      '---------------  --------  ------------',
      'index            3.1 s     5.1 s',
      'one-shot search  246 ms    n/a: refused',
      'short row        only one',
    ]);
  });
});

describe('countIdentical', () => {
  it('counts the pairs whose lists match element by element, order included', () => {
    const sqlite = [['a#1', 'b#2'], ['c#1'], ['d#1', 'e#1'], []];
    const postgres = [['a#1', 'b#2'], ['c#2'], ['e#1', 'd#1'], []];
    expect(countIdentical(sqlite, postgres)).toBe(2);
  });

  it('compares only as many pairs as the shorter side has', () => {
    expect(countIdentical([['a'], ['b']], [['a']])).toBe(1);
    expect(countIdentical([['a']], [['a', 'b']])).toBe(0);
  });
});
