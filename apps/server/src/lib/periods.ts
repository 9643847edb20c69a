import { PERIODS, type Period } from '@parley/contract/periods';
import { now } from './clock.ts';

const DAY_MS = 86_400_000;

/** The period's window: from 00:00 UTC of its first day (today counts as one) up to now; its dates, oldest first. */
export function windowOf(period: Period, when = now()) {
  const today = Date.UTC(when.getUTCFullYear(), when.getUTCMonth(), when.getUTCDate());
  const since = new Date(today - (PERIODS[period] - 1) * DAY_MS);
  const dates = Array.from({ length: PERIODS[period] }, (_, i) =>
    new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10),
  );
  return { period, since, until: when, dates };
}
