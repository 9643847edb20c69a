import { describe, expect, it } from 'vitest';
import { noticeAt } from '../../src/features/business-hours/business-hours.service.ts';
import {
  backInWords,
  instantOf,
  isOpenAt,
  nextOpening,
  type Schedule,
  teamStatus,
} from '../../src/features/business-hours/schedule.ts';

/**
 * docs/business-hours.md "Open or closed": the pure computation of open now and the next opening,
 * in the workspace's time zone, across daylight saving changes, overnight shifts and holidays.
 */
const nineToFive = [{ open: '09:00', close: '17:00' }];
const weekdays = (ranges = nineToFive, timezone = 'Europe/Paris', holidays: string[] = []): Schedule => ({
  timezone,
  week: { mon: ranges, tue: ranges, wed: ranges, thu: ranges, fri: ranges, sat: [], sun: [] },
  holidays,
});
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('open now', () => {
  it('reads the wall clock of the time zone, not UTC: 08:30 UTC is 09:30 in Paris in winter', () => {
    const s = weekdays();
    expect(isOpenAt(s, new Date('2026-01-14T08:30:00Z'))).toBe(true); // Wednesday 09:30 CET
    expect(isOpenAt(s, new Date('2026-01-14T07:59:00Z'))).toBe(false); // 08:59
    expect(isOpenAt(s, new Date('2026-01-14T15:59:00Z'))).toBe(true); // 16:59
    expect(isOpenAt(s, new Date('2026-01-14T16:00:00Z'))).toBe(false); // 17:00: closed at close
    expect(isOpenAt(s, new Date('2026-01-17T10:00:00Z'))).toBe(false); // Saturday
    expect(isOpenAt(weekdays(nineToFive, 'America/New_York'), new Date('2026-01-14T14:30:00Z'))).toBe(true);
    expect(isOpenAt(weekdays(nineToFive, 'America/New_York'), new Date('2026-01-14T08:30:00Z'))).toBe(false);
  });

  it('on the day summer time starts the offset changes at 02:00 local: 09:00 is 07:00 UTC, not 08:00', () => {
    const s = weekdays(nineToFive, 'Europe/Paris');
    const sunday = { ...s, week: { ...s.week, sun: nineToFive } };
    // 2026-03-29: Paris goes from UTC+1 to UTC+2.
    expect(isOpenAt(sunday, new Date('2026-03-29T06:59:00Z'))).toBe(false);
    expect(isOpenAt(sunday, new Date('2026-03-29T07:00:00Z'))).toBe(true);
    expect(iso(nextOpening(sunday, new Date('2026-03-29T00:30:00Z')))).toBe('2026-03-29T07:00:00.000Z');
    // The day before, still winter: 08:00 UTC.
    expect(iso(nextOpening(weekdays(), new Date('2026-03-27T17:00:00Z')))).toBe('2026-03-30T07:00:00.000Z');
    // A range opening in the skipped hour opens when the clocks jump (03:00 CEST = 01:00 UTC).
    const night = { ...sunday, week: { ...sunday.week, sun: [{ open: '02:30', close: '05:00' }] } };
    expect(iso(nextOpening(night, new Date('2026-03-28T23:30:00Z')))).toBe('2026-03-29T01:00:00.000Z');
    expect(isOpenAt(night, new Date('2026-03-29T01:00:00Z'))).toBe(true);
    // New York's change (2026-03-08 at 02:00): 09:00 EDT is 13:00 UTC.
    const ny = weekdays(nineToFive, 'America/New_York');
    expect(iso(nextOpening(ny, new Date('2026-03-07T12:00:00Z')))).toBe('2026-03-09T13:00:00.000Z');
  });

  it('on the day summer time ends a repeated hour opens at its first occurrence', () => {
    // 2026-10-25 in Paris: 03:00 CEST becomes 02:00 CET; 02:30 happens twice.
    expect(instantOf('2026-10-25', 150, 'Europe/Paris').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(instantOf('2026-10-25', 9 * 60, 'Europe/Paris').toISOString()).toBe('2026-10-25T08:00:00.000Z');
    expect(instantOf('2026-10-24', 9 * 60, 'Europe/Paris').toISOString()).toBe('2026-10-24T07:00:00.000Z');
  });

  it('an overnight shift is two ranges: 22:00-24:00 and 00:00-06:00 the next day', () => {
    const s: Schedule = {
      timezone: 'UTC',
      week: {
        mon: [{ open: '22:00', close: '24:00' }],
        tue: [{ open: '00:00', close: '06:00' }],
        wed: [],
        thu: [],
        fri: [],
        sat: [],
        sun: [],
      },
      holidays: [],
    };
    expect(isOpenAt(s, new Date('2026-01-12T21:59:00Z'))).toBe(false); // Monday
    expect(isOpenAt(s, new Date('2026-01-12T23:59:30Z'))).toBe(true);
    expect(isOpenAt(s, new Date('2026-01-13T00:00:00Z'))).toBe(true); // Tuesday
    expect(isOpenAt(s, new Date('2026-01-13T05:59:00Z'))).toBe(true);
    expect(isOpenAt(s, new Date('2026-01-13T06:00:00Z'))).toBe(false);
    expect(iso(nextOpening(s, new Date('2026-01-13T06:00:00Z')))).toBe('2026-01-19T22:00:00.000Z');
  });

  it("holidays are dates in the workspace's time zone: closed all that local day", () => {
    const s = weekdays(nineToFive, 'Pacific/Auckland', ['2026-01-14']);
    // 2026-01-13 21:00 UTC is Wednesday 14 January 10:00 in Auckland (UTC+13).
    expect(isOpenAt(s, new Date('2026-01-13T21:00:00Z'))).toBe(false);
    expect(isOpenAt(weekdays(nineToFive, 'Pacific/Auckland'), new Date('2026-01-13T21:00:00Z'))).toBe(true);
    // Thursday 15 January 09:00 NZDT.
    expect(iso(nextOpening(s, new Date('2026-01-13T21:00:00Z')))).toBe('2026-01-14T20:00:00.000Z');
  });
});

describe('next opening', () => {
  it('null while open; later today; skips closed days and holidays', () => {
    const s = weekdays(
      [
        { open: '09:00', close: '12:00' },
        { open: '14:00', close: '17:00' },
      ],
      'UTC',
      ['2026-01-19', '2026-01-20'],
    );
    expect(nextOpening(s, new Date('2026-01-14T10:00:00Z'))).toBeNull();
    expect(iso(nextOpening(s, new Date('2026-01-14T12:30:00Z')))).toBe('2026-01-14T14:00:00.000Z');
    expect(iso(nextOpening(s, new Date('2026-01-14T07:00:00Z')))).toBe('2026-01-14T09:00:00.000Z');
    // Friday evening → Monday and Tuesday are holidays → Wednesday.
    expect(iso(nextOpening(s, new Date('2026-01-16T18:00:00Z')))).toBe('2026-01-21T09:00:00.000Z');
  });

  it('a week without any opening: closed, no next opening; no hours: always open', () => {
    const none: Schedule = {
      timezone: 'UTC',
      week: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
      holidays: [],
    };
    expect(teamStatus(none, new Date('2026-01-14T10:00:00Z'))).toEqual({
      teamOnline: false,
      nextOpenAt: null,
    });
    expect(teamStatus(null, new Date('2026-01-14T10:00:00Z'))).toEqual({
      teamOnline: true,
      nextOpenAt: null,
    });
    // Every day of the year a holiday: the first opening after them.
    const days = Array.from({ length: 366 }, (_, i) =>
      new Date(Date.UTC(2026, 0, 14 + i)).toISOString().slice(0, 10),
    );
    const blocked = weekdays(nineToFive, 'UTC', days);
    expect(iso(nextOpening(blocked, new Date('2026-01-14T10:00:00Z')))).toBe('2027-01-15T09:00:00.000Z');
  });
});

describe('the message', () => {
  const at = new Date('2026-01-14T18:00:00Z'); // Wednesday 19:00 in Paris
  it('today, tomorrow, a weekday within the week, a date beyond it (with the year when it changes)', () => {
    const tz = 'Europe/Paris';
    expect(backInWords(tz, new Date('2026-01-14T06:00:00Z'), new Date('2026-01-14T08:00:00Z'))).toBe(
      "We're back today at 09:00 (Europe/Paris).",
    );
    expect(backInWords(tz, at, new Date('2026-01-15T08:00:00Z'))).toBe(
      "We're back tomorrow at 09:00 (Europe/Paris).",
    );
    expect(backInWords(tz, at, new Date('2026-01-19T08:00:00Z'))).toBe(
      "We're back Monday at 09:00 (Europe/Paris).",
    );
    expect(backInWords(tz, at, new Date('2026-01-26T08:30:00Z'))).toBe(
      "We're back Monday 26 January at 09:30 (Europe/Paris).",
    );
    expect(backInWords(tz, new Date('2026-12-28T18:00:00Z'), new Date('2027-01-11T08:00:00Z'))).toBe(
      "We're back Monday 11 January 2027 at 09:00 (Europe/Paris).",
    );
  });

  it('the outside-hours message, then the next opening; none while open; the message alone without openings', () => {
    const s = { ...weekdays(), outsideHoursMessage: 'Our team is away — 你好.' };
    expect(noticeAt(s, at)).toBe("Our team is away — 你好. We're back tomorrow at 09:00 (Europe/Paris).");
    expect(noticeAt(s, new Date('2026-01-14T10:00:00Z'))).toBeNull();
    const closed = { ...s, week: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] } };
    expect(noticeAt(closed, at)).toBe('Our team is away — 你好.');
  });
});
