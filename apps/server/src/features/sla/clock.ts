import { minutesOf, WEEKDAYS, type Weekday } from '@parley/contract/business-hours';
import { addCalendarDays, instantOf, type Schedule, wallTime } from '../business-hours/schedule.ts';

/**
 * SLA time (docs/sla.md "Clocks"): a target counted in calendar time, or only in the team's
 * business hours, as a pure function of its start. Wall time and daylight saving come from the
 * business-hours schedule (business-hours/schedule.ts).
 */

/** How far ahead an opening is looked for: a year of holidays, then a week. */
const SEARCH_DAYS = 366 + 8;

const weekdayOf = (date: string): Weekday => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return WEEKDAYS[(new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7] as Weekday;
};

/**
 * The instant `minutes` after `start`: in calendar time without a schedule, else in the
 * schedule's open time only (holidays and closed days skipped). Null when the schedule opens
 * too rarely to reach it within the search (a week with no opening at all).
 */
export function addWorkingMinutes(schedule: Schedule | null, start: Date, minutes: number): Date | null {
  if (!schedule) return new Date(start.getTime() + minutes * 60_000);
  let left = minutes * 60_000;
  const first = wallTime(start, schedule.timezone).date;
  for (let k = 0; k < SEARCH_DAYS; k++) {
    const date = addCalendarDays(first, k);
    if (schedule.holidays.includes(date)) continue;
    for (const range of schedule.week[weekdayOf(date)]) {
      const opens = instantOf(date, minutesOf(range.open), schedule.timezone).getTime();
      const closes = instantOf(date, minutesOf(range.close), schedule.timezone).getTime();
      const from = Math.max(opens, start.getTime());
      if (closes <= from) continue;
      if (closes - from >= left) return new Date(from + left);
      left -= closes - from;
    }
  }
  return null;
}
