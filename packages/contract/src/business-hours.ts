import { z } from 'zod';

/** Request and response shapes of business hours (docs/business-hours.md). */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** At most this many opening ranges a day, and this many holidays. */
export const MAX_RANGES_PER_DAY = 10;
export const MAX_HOLIDAYS = 366;
export const MAX_OUTSIDE_HOURS_MESSAGE = 500;

/** Minutes since midnight of "HH:MM" (24:00 is 1440); NaN when it is not a time. */
export function minutesOf(hhmm: string): number {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  return hhmm === '24:00' ? 1440 : Number.NaN;
}

/** Whether the runtime's time zone database knows `zone` (an IANA name such as Europe/Paris). */
export function canonicalTimeZone(zone: string): string | null {
  // IANA names only: letters, digits, `_`, `-`, `+` and `/`; offsets such as "+01:00" are not zones.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** A real calendar date "YYYY-MM-DD". */
export function isCalendarDate(date: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === date;
}

const timezone = z
  .string()
  .max(64)
  .transform((zone, c) => {
    const known = canonicalTimeZone(zone);
    if (!known) {
      c.addIssue({ code: 'custom', message: 'An IANA time zone, such as Europe/Paris' });
      return z.NEVER;
    }
    return known;
  });

const open = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time HH:MM from 00:00 to 23:59');
const close = z
  .string()
  .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'A time HH:MM from 00:01 to 24:00 (the end of the day)');

export const openingRange = z
  .strictObject({ open, close })
  .refine((r) => minutesOf(r.close) > minutesOf(r.open), {
    message: 'A range closes after it opens (an overnight shift is two ranges)',
    path: ['close'],
  });

/** One day's ranges, sorted by opening; two ranges may touch but not overlap. */
const day = z
  .array(openingRange)
  .max(MAX_RANGES_PER_DAY)
  .transform((ranges, c) => {
    const sorted = [...ranges].sort((a, b) => minutesOf(a.open) - minutesOf(b.open));
    for (let i = 1; i < sorted.length; i++) {
      const before = sorted[i - 1];
      const range = sorted[i];
      if (before && range && minutesOf(range.open) < minutesOf(before.close)) {
        c.addIssue({
          code: 'custom',
          message: `The ranges ${before.open}-${before.close} and ${range.open}-${range.close} overlap`,
        });
        return z.NEVER;
      }
    }
    return sorted;
  });

/** Every day is required: an empty list is a closed day. */
export const weekSchema = z.strictObject({
  mon: day,
  tue: day,
  wed: day,
  thu: day,
  fri: day,
  sat: day,
  sun: day,
});

/** Dates in the workspace's time zone; stored without repeats, in order. */
const holidays = z
  .array(z.string().refine(isCalendarDate, 'A date YYYY-MM-DD'))
  .max(MAX_HOLIDAYS)
  .transform((dates) => [...new Set(dates)].sort());

const outsideHoursMessage = z.string().trim().min(1).max(MAX_OUTSIDE_HOURS_MESSAGE);

/** `PUT /api/workspaces/{ws}/business-hours`: the whole setting, replacing the one before. */
export const businessHoursFields = z.strictObject({
  timezone,
  week: weekSchema,
  holidays: holidays.default([]),
  outsideHoursMessage,
});

/** The PUT's body: the setting, or null to go back to always open (docs/business-hours.md). */
export const businessHoursBody = businessHoursFields.nullable();

const rangeOut = z.object({ open: z.string(), close: z.string() });

export const businessHoursSchema = z.object({
  timezone: z.string(),
  week: z.object(
    Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(rangeOut)])) as Record<
      Weekday,
      z.ZodArray<typeof rangeOut>
    >,
  ),
  holidays: z.array(z.string()),
  outsideHoursMessage: z.string(),
  updatedAt: z.string(),
});

/** `GET`/`PUT` answer `{data: hours}`, `{data: null}` when none are set (always open). */
export const businessHoursData = z.object({ data: businessHoursSchema.nullable() });

export type BusinessHoursInput = z.output<typeof businessHoursFields>;
export type BusinessHours = z.output<typeof businessHoursSchema>;
