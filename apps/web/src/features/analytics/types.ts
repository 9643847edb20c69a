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

/** "2026-11-26" → "Nov 26" in en-US (the series' days are UTC dates; shell/dates.ts). */
export { formatDay as dayLabel } from '../../shell/dates.ts';
