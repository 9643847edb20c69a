/** Shapes of the analytics endpoints (docs/analytics.md "Endpoints"). */

export type Period = '7d' | '30d' | '90d';

export const PERIODS: Array<{ value: Period; label: string }> = [
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
];

type Window = { period: Period; since: string; until: string };

export type Overview = Window & {
  channels: string[];
  days: Array<{ date: string; conversations: Record<string, number>; credits: number }>;
  totals: { conversations: number; byChannel: Record<string, number>; credits: number };
  handoff: { conversations: number; rate: number | null };
  resolvedWithoutPerson: { conversations: number; rate: number | null };
  feedback: {
    positive: number;
    negative: number;
    total: number;
    positiveRate: number | null;
    responseRate: number | null;
  };
};

export type Gaps = Window & {
  replies: number;
  aiReplies: number;
  rate: number | null;
  /** `question`: the grouping key (normalised); `asked`: the customer's own words, shown. */
  gaps: Array<{ question: string; asked: string; count: number; lastAskedAt: string }>;
};

export type Channels = Window & {
  channels: Array<{
    channel: string;
    conversations: number;
    messages: number;
    inbound: number;
    outbound: number;
  }>;
};

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
