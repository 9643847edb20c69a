export type { AiAnalytics } from '@parley/contract/ai-analytics';

import type { channelsSchema, gapsSchema, overviewSchema } from '@parley/contract/analytics';
import type { Period } from '@parley/contract/periods';
import type { z } from 'zod';

/** Shapes of the analytics endpoints (docs/analytics.md "Endpoints"; packages/contract/src/analytics.ts). */
export type { Period };

export const PERIODS: Array<{ value: Period; label: string }> = [
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
];

export type Overview = z.output<typeof overviewSchema>;
export type Gaps = z.output<typeof gapsSchema>;
export type Channels = z.output<typeof channelsSchema>;

export const analyticsPath = (ws: string) => `/api/workspaces/${ws}/analytics`;

/** Channel names in words. */
export const CHANNEL_NAMES: Record<string, string> = {
  widget: 'Website widget',
  chat: 'Internal chat',
  sms: 'SMS',
};
export const channelName = (c: string) => CHANNEL_NAMES[c] ?? c;

/** 0.4166 → "41.7%"; no denominator → "–". */
export const percent = (rate: number | null) =>
  rate === null ? '–' : `${(rate * 100).toLocaleString('en', { maximumFractionDigits: 1 })}%`;

export type { ServiceAnalytics, ServiceFigure } from '@parley/contract/service-analytics';
/** "2026-11-26" → "Nov 26" in en-US (the series' days are UTC dates; shell/dates.ts). */
export { formatDay as dayLabel } from '../../shell/dates.ts';

/**
 * A median time in words, to the minute: "less than a minute", "4 min", "2 h 10 min", "3 d 4 h";
 * null → "–" (nothing to measure).
 */
export function spanWords(seconds: number | null): string {
  if (seconds === null) return '–';
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return 'less than a minute';
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return `${m} min`;
}

/** A mean rating out of 5, one decimal: 3.666 → "3.7 / 5"; none → "–". */
export const ratingWords = (average: number | null) =>
  average === null ? '–' : `${average.toLocaleString('en', { maximumFractionDigits: 1 })} / 5`;
