import type { Weekday } from '@parley/contract/business-hours';
import { expect } from 'vitest';
import { addCalendarDays, instantOf, wallTime } from '../../src/features/business-hours/schedule.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import type { TestUser } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';

/** Monday to Friday 09:00-17:00 in Paris, closed at the weekend (docs/business-hours.md). */
const day = [{ open: '09:00', close: '17:00' }];
export const PARIS_OFFICE = {
  timezone: 'Europe/Paris',
  week: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: [], sun: [] },
  holidays: [] as string[],
  outsideHoursMessage: 'Our team is away for now.',
};

/** PUT the workspace's business hours as `user` (its owner); null clears them. */
export async function setHours(t: TestApp, user: TestUser, workspaceId: string, hours: unknown) {
  const r = await t.request({
    method: 'PUT',
    url: `/api/workspaces/${workspaceId}/business-hours`,
    headers: { ...user.headers, 'content-type': 'application/json' },
    payload: JSON.stringify(hours),
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data;
}

/**
 * Moves the app's clock (lib/clock.ts) to the next `weekday` at `hhmm` in `timezone`, at least an
 * hour ahead of the real time and within the next eight days (sessions stay valid); returns it.
 */
export function travelTo(weekday: Weekday, hhmm: string, timezone = 'Europe/Paris'): Date {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const real = Date.now();
  const today = wallTime(new Date(real), timezone).date;
  for (let k = 0; k <= 8; k++) {
    const date = addCalendarDays(today, k);
    if (wallTime(instantOf(date, 12 * 60, timezone), timezone).weekday !== weekday) continue;
    const at = instantOf(date, h * 60 + m, timezone);
    if (at.getTime() < real + 3_600_000) continue;
    setClockOffset(at.getTime() - real);
    return at;
  }
  throw new Error(`no ${weekday} ${hhmm} ahead`);
}
