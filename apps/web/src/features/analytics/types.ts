export type { AiAnalytics } from '@parley/contract/ai-analytics';

import type { channelsSchema, gapsSchema, overviewSchema } from '@parley/contract/analytics';
import { PERIODS as PERIOD_DAYS, type Period } from '@parley/contract/periods';
import type { z } from 'zod';
import { formatNumber, formatPercent } from '../../i18n/format.ts';
import { i18n } from '../../i18n/index.ts';
import { durationWords } from '../../shell/dates.ts';

/** Shapes of the analytics endpoints (docs/analytics.md "Endpoints"; packages/contract/src/analytics.ts). */
export type { Period };

/** The periods a page offers, in order; their words are `analytics:periods.<period>`. */
export const PERIODS = Object.keys(PERIOD_DAYS) as Period[];

/** A period in words, in the dashboard's language: "30 days", "30 días". */
export const periodLabel = (p: Period) => i18n.t(`analytics:periods.${p}`);

export type Overview = z.output<typeof overviewSchema>;
export type Gaps = z.output<typeof gapsSchema>;
export type Channels = z.output<typeof channelsSchema>;

export const analyticsPath = (ws: string) => `/api/workspaces/${ws}/analytics`;

const CHANNELS = ['widget', 'chat', 'sms', 'email'] as const;

/** A channel's name in words; a channel added later shows its id until it has words. */
export const channelName = (c: string) =>
  (CHANNELS as readonly string[]).includes(c)
    ? i18n.t(`analytics:channels.${c as (typeof CHANNELS)[number]}`)
    : c;

/** 0.4166 → "41.7%" ("41,7 %" in Spanish); no denominator → "–". */
export const percent = (rate: number | null) => (rate === null ? '–' : formatPercent(rate));

export type { ServiceAnalytics, ServiceFigure } from '@parley/contract/service-analytics';
/** "2026-11-26" → "Nov 26" in en-US (the series' days are UTC dates; shell/dates.ts). */
export { formatDay as dayLabel } from '../../shell/dates.ts';

/**
 * A median time in words, to the minute (shell/dates.ts): "less than a minute", "4 min",
 * "2 h 10 min", "3 d 4 h"; null → "–" (nothing to measure).
 */
export const spanWords = (seconds: number | null) => (seconds === null ? '–' : durationWords(seconds * 1000));

/** A mean rating out of 5, one decimal: 3.666 → "3.7 / 5" ("3,7 / 5" in Spanish); none → "–". */
export const ratingWords = (average: number | null) =>
  average === null
    ? '–'
    : i18n.t('analytics:rating', { value: formatNumber(average, { maximumFractionDigits: 1 }) });
