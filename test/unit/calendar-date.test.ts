import { describe, expect, it } from 'vitest';
import { validateSearchRequest } from '../../src/app/search/search-request.js';
import { isCalendarDate } from '../../src/core/calendar-date.js';

describe('isCalendarDate', () => {
  it('accepts days that exist, leap days included', () => {
    for (const day of ['2026-01-31', '2024-02-29', '2000-02-29', '1999-12-31', '2026-04-30']) {
      expect(isCalendarDate(day), day).toBe(true);
    }
  });

  it('refuses days that do not exist and anything but YYYY-MM-DD', () => {
    for (const day of [
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-31garbage',
      '2026-1-31',
      'not-a-date',
      '',
    ]) {
      expect(isCalendarDate(day), day).toBe(false);
    }
  });

  it('is what the search request checks date_from and date_to with', () => {
    expect(() => validateSearchRequest({ query: 'x', dateFrom: '2026-02-30' })).toThrow(
      /date_from must be a calendar date/,
    );
    expect(() => validateSearchRequest({ query: 'x', dateTo: '2026-01-31T00:00' })).toThrow(/date_to/);
    expect(validateSearchRequest({ query: 'x', dateFrom: '2024-02-29' }).dateFrom).toBe('2024-02-29');
  });
});
