import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../src/features/business-hours/schedule.ts';
import { addWorkingMinutes } from '../../src/features/sla/clock.ts';

/** docs/sla.md "Clocks": targets in calendar time, or in business hours only (weekends, holidays, DST). */
const nineToFive = (timezone: string, holidays: string[] = []): Schedule => {
  const day = [{ open: '09:00', close: '17:00' }];
  return { timezone, holidays, week: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: [], sun: [] } };
};
const at = (iso: string) => new Date(iso);

describe('addWorkingMinutes', () => {
  it('calendar time without a schedule', () => {
    expect(addWorkingMinutes(null, at('2026-12-04T15:30:00Z'), 90)).toEqual(at('2026-12-04T17:00:00Z'));
  });

  it('over a weekend: Friday 16:30 Paris + 60 business minutes is Monday 09:30', () => {
    expect(addWorkingMinutes(nineToFive('Europe/Paris'), at('2026-12-04T15:30:00Z'), 60)).toEqual(
      at('2026-12-07T08:30:00Z'),
    );
  });

  it('over a weekend and a Monday holiday: Tuesday 09:30', () => {
    const s = nineToFive('Europe/Paris', ['2026-12-07']);
    expect(addWorkingMinutes(s, at('2026-12-04T15:30:00Z'), 60)).toEqual(at('2026-12-08T08:30:00Z'));
  });

  it('starting before opening, and a target of several days', () => {
    const s = nineToFive('America/New_York');
    // Monday 07:00 New York (12:00Z); 8 h a day: 20 h is Monday, Tuesday and 4 h into Wednesday.
    expect(addWorkingMinutes(s, at('2026-12-07T12:00:00Z'), 20 * 60)).toEqual(at('2026-12-09T18:00:00Z'));
  });

  it('across a daylight-saving change: the opening stays 09:00 local', () => {
    // Friday 27 March 2026 16:30 Paris (UTC+1) + 60: Monday 30 March 09:30, now UTC+2.
    expect(addWorkingMinutes(nineToFive('Europe/Paris'), at('2026-03-27T15:30:00Z'), 60)).toEqual(
      at('2026-03-30T07:30:00Z'),
    );
    // New York changes on 8 March 2026: Friday 6 March 16:30 (UTC-5) + 60 → Monday 9 March 09:30 (UTC-4).
    expect(addWorkingMinutes(nineToFive('America/New_York'), at('2026-03-06T21:30:00Z'), 60)).toEqual(
      at('2026-03-09T13:30:00Z'),
    );
  });

  it('a week with no opening: no due time', () => {
    const closed: Schedule = {
      timezone: 'Europe/Paris',
      holidays: [],
      week: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
    };
    expect(addWorkingMinutes(closed, at('2026-12-04T15:30:00Z'), 60)).toBeNull();
  });
});
