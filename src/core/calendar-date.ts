// Calendar dates as every surface accepts them: `YYYY-MM-DD` naming a day that exists (no 2026-02-30).

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `text` is exactly `YYYY-MM-DD` and that day exists in the proleptic Gregorian calendar. */
export function isCalendarDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
