import { currentLocale } from '../i18n/locale.ts';

/**
 * Every date and time the dashboard shows goes through here (docs/dashboard.md "Dates and
 * numbers"): `Intl.DateTimeFormat` in the reader's locale (the dashboard's language, docs/languages.md
 * "Dashboard") and time zone, one style for a moment
 * ("Nov 27, 2026, 7:25 AM" in en-US, "27 Nov 2026, 07:25" in en-GB), its date alone, its time
 * alone, and a calendar day of a chart (a UTC date, so no time zone moves it).
 */
export function dateFormats(locale?: string, timeZone?: string) {
  const moment = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone });
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const of = (at: string | Date) => (typeof at === 'string' ? new Date(at) : at);
  return {
    /** A moment: date and time. */
    dateTime: (at: string | Date) => moment.format(of(at)),
    /** The date of a moment. */
    date: (at: string | Date) => date.format(of(at)),
    /** The time of a moment (beside a date already shown). */
    time: (at: string | Date) => time.format(of(at)),
    /** A calendar day `YYYY-MM-DD` (a chart's axis): "Nov 27". */
    day: (ymd: string) => day.format(new Date(`${ymd}T00:00:00Z`)),
  };
}

/** The formats of the dashboard's locale now, made once per locale. */
const cache = new Map<string, ReturnType<typeof dateFormats>>();
function formats() {
  const locale = currentLocale();
  let f = cache.get(locale);
  if (!f) {
    f = dateFormats(locale);
    cache.set(locale, f);
  }
  return f;
}

export const formatDateTime = (at: string | Date) => formats().dateTime(at);
export const formatDate = (at: string | Date) => formats().date(at);
export const formatTime = (at: string | Date) => formats().time(at);
export const formatDay = (ymd: string) => formats().day(ymd);

/** The reader's own time zone (an IANA name): the first choice for a team's business hours. */
export function readerTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Every IANA time zone the browser knows, for a time zone select (docs/business-hours.md). */
export function timeZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function'
    ? Intl.supportedValuesOf('timeZone')
    : [readerTimeZone()];
}

/** A calendar date `YYYY-MM-DD` with its year and weekday ("Fri, Dec 25, 2026"): no time zone moves it. */
export function formatCalendarDate(ymd: string, locale: string = currentLocale()): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${ymd}T00:00:00Z`));
}

/**
 * A span of time in its two largest units, to the nearest minute (the units of the SLA policies'
 * targets; docs/dashboard.md "Inbox"): "less than a minute", "25 min", "2 h", "1 h 30 min",
 * "3 d", "1 d 4 h" (a day's leftover minutes dropped). A negative span is written as its size.
 * In another language the units are `Intl`'s short ones ("3 j" in French) and the shortest
 * span is "< 1 min".
 */
export function durationWords(ms: number, locale: string = currentLocale()): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const english = locale.split('-')[0] === 'en';
  const unit = (n: number, u: 'minute' | 'hour' | 'day') =>
    english
      ? `${n} ${u === 'minute' ? 'min' : u[0]}`
      : new Intl.NumberFormat(locale, { style: 'unit', unit: u, unitDisplay: 'short' }).format(n);
  if (minutes < 1) return english ? 'less than a minute' : `< ${unit(1, 'minute')}`;
  if (minutes < 60) return unit(minutes, 'minute');
  const [big, bigUnit, small, smallUnit] =
    minutes < 1440
      ? ([Math.floor(minutes / 60), 'hour', minutes % 60, 'minute'] as const)
      : ([Math.floor(minutes / 1440), 'day', Math.floor((minutes % 1440) / 60), 'hour'] as const);
  return small ? `${unit(big, bigUnit)} ${unit(small, smallUnit)}` : unit(big, bigUnit);
}
