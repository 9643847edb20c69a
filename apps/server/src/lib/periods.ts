import { z } from 'zod';
import { now } from './clock.ts';

/**
 * Analytics periods, the one definition: workspace analytics (docs/analytics.md "Periods") and SMS
 * analytics (docs/sms.md "Analytics") count the same whole UTC days, today included.
 */
export const PERIODS = { '7d': 7, '30d': 30, '90d': 90 } as const;
export type Period = keyof typeof PERIODS;

export const periodField = z.enum(['7d', '30d', '90d'], { message: 'Must be 7d, 30d or 90d' }).default('30d');

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
