import { minutesOf, WEEKDAYS, type Weekday } from '@parley/contract/business-hours';

/**
 * When a team answers (docs/business-hours.md "Open or closed"), as pure functions of an instant:
 * no clock and no database here. Wall time comes from `Intl.DateTimeFormat` in the workspace's
 * time zone, so daylight saving changes are the time zone database's, not ours.
 */

export type Schedule = {
  timezone: string;
  week: Record<Weekday, ReadonlyArray<{ open: string; close: string }>>;
  holidays: readonly string[];
};

/** The wall clock in `timezone` at `at`: the date, its weekday and the minutes since midnight. */
export type WallTime = { date: string; weekday: Weekday; minutes: number };

/** The longest run of closed days a schedule can have before an opening: every holiday, then a week. */
const SEARCH_DAYS = 366 + 8;
const HALF_DAY = 43_200_000;

const formatters = (timezone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

function fields(at: Date, timezone: string) {
  const parts: Record<string, number> = {};
  for (const p of formatters(timezone).formatToParts(at)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
const dateString = (y: number, m: number, d: number) => `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;

/** Monday first, as the week's keys. */
function weekdayOf(date: string): Weekday {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const sundayFirst = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return WEEKDAYS[(sundayFirst + 6) % 7] as Weekday;
}

export function wallTime(at: Date, timezone: string): WallTime {
  const f = fields(at, timezone);
  const date = dateString(f.year, f.month, f.day);
  return { date, weekday: weekdayOf(date), minutes: f.hour * 60 + f.minute };
}

/** The date `days` after `date` on the calendar (no time zone involved). */
export function addCalendarDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The offset of `timezone` from UTC at `at`, in milliseconds. */
function offsetAt(at: Date, timezone: string): number {
  const f = fields(at, timezone);
  const asUtc = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant the wall clock in `timezone` first shows `minutes` on `date` or later. A time the
 * clocks skip (the hour lost when summer time starts) answers the instant the clocks jump, when
 * the wall clock passes it; a time they repeat (the hour gained in autumn) answers its first
 * occurrence.
 */
export function instantOf(date: string, minutes: number, timezone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d, 0, minutes);
  // The offsets half a day either side bracket any change of that day; the earlier reading of a
  // repeated hour comes first.
  const [before, after] = [guess - HALF_DAY, guess + HALF_DAY].map(
    (t) => guess - offsetAt(new Date(t), timezone),
  );
  const candidates = [before ?? guess, after ?? guess]
    .filter((t) => localMillis(new Date(t), timezone) === guess)
    .sort((a, b) => a - b);
  if (candidates[0] !== undefined) return new Date(candidates[0]);
  // Skipped: the clocks jump at the first instant whose wall time is `minutes` or later, found by
  // halving the span between the two readings.
  let lo = Math.min(before ?? guess, after ?? guess);
  let hi = Math.max(before ?? guess, after ?? guess);
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2000) * 1000;
    if (localMillis(new Date(mid), timezone) < guess) lo = mid;
    else hi = mid;
  }
  return new Date(hi);
}

/** The wall time at `at` read as if it were UTC, in milliseconds (to compare with a wall time). */
function localMillis(at: Date, timezone: string): number {
  return Math.floor(at.getTime() / 1000) * 1000 + offsetAt(at, timezone);
}

const isHoliday = (s: Schedule, date: string) => s.holidays.includes(date);

/** Whether the team answers at `at`: not a holiday, and inside one of that weekday's ranges. */
export function isOpenAt(s: Schedule, at: Date): boolean {
  const wall = wallTime(at, s.timezone);
  if (isHoliday(s, wall.date)) return false;
  return s.week[wall.weekday].some(
    (r) => minutesOf(r.open) <= wall.minutes && wall.minutes < minutesOf(r.close),
  );
}

/**
 * The next instant after `at` the team opens, or null: while it is open (`nextOpenAt`
 * is null then), and when the week has no opening at all. Holidays and closed days are skipped.
 */
export function nextOpening(s: Schedule, at: Date): Date | null {
  if (isOpenAt(s, at)) return null;
  const today = wallTime(at, s.timezone);
  for (let k = 0; k < SEARCH_DAYS; k++) {
    const date = addCalendarDays(today.date, k);
    if (isHoliday(s, date)) continue;
    for (const range of s.week[weekdayOf(date)]) {
      const opens = instantOf(date, minutesOf(range.open), s.timezone);
      if (opens.getTime() > at.getTime()) return opens;
    }
  }
  return null;
}

/** Whether the team answers now, and when it opens next (docs/business-hours.md "Widget"). */
export function teamStatus(s: Schedule | null, at: Date): { teamOnline: boolean; nextOpenAt: Date | null } {
  if (!s) return { teamOnline: true, nextOpenAt: null };
  const online = isOpenAt(s, at);
  return { teamOnline: online, nextOpenAt: online ? null : nextOpening(s, at) };
}

/**
 * The next opening in words, as the customer reads it (docs/business-hours.md "The message"):
 * "We're back today at 14:00 (Europe/Paris).", "… tomorrow at 09:00 …", "… Monday at 09:00 …"
 * within the week, "… Monday 5 January at 09:00 …" beyond it.
 */
export function backInWords(timezone: string, at: Date, opens: Date): string {
  const now = wallTime(at, timezone);
  const then = wallTime(opens, timezone);
  const time = `${pad(Math.floor(then.minutes / 60))}:${pad(then.minutes % 60)}`;
  const days = Math.round(
    (Date.parse(`${then.date}T00:00:00Z`) - Date.parse(`${now.date}T00:00:00Z`)) / 86_400_000,
  );
  const named = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', ...options }).format(
      new Date(`${then.date}T12:00:00Z`),
    );
  const when =
    days <= 0
      ? 'today'
      : days === 1
        ? 'tomorrow'
        : days < 7
          ? named({ weekday: 'long' })
          : `${named({ weekday: 'long' })} ${named({ day: 'numeric', month: 'long', ...yearIf(now.date, then.date) })}`;
  return `We're back ${when} at ${time} (${timezone}).`;
}

const yearIf = (from: string, to: string): Intl.DateTimeFormatOptions =>
  from.slice(0, 4) === to.slice(0, 4) ? {} : { year: 'numeric' };
