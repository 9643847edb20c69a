import { z } from 'zod';
import { idParam } from './envelope.ts';
import { periodField } from './periods.ts';

/** Request and response shapes of the analytics endpoints (docs/analytics.md "Endpoints"). */

/** Whole UTC days, today included (docs/analytics.md "Periods"). */
const period = periodField;

export const analyticsParams = z.object({ workspaceId: idParam });
export const overviewQuery = z.strictObject({ period });
export const gapsQuery = z.strictObject({
  period,
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/** `/api/analytics/channels` is on the session surface: the workspace comes in the query (docs/analytics.md "Endpoints"). */
export const channelsQuery = z.strictObject({ workspaceId: idParam.optional(), period });

/** A count per channel (`chat`, `widget`, `sms`, and any channel added later). */
const byChannel = z.record(z.string(), z.number().int());
const rate = z.number().min(0).max(1).nullable();

const window = {
  period: z.string(),
  /** The first instant counted: 00:00 UTC of the period's first day. */
  since: z.string(),
  /** The last instant counted: now. */
  until: z.string(),
};

export const overviewSchema = z.object({
  ...window,
  channels: z.array(z.string()),
  days: z.array(
    z.object({
      date: z.string(),
      conversations: byChannel,
      credits: z.number().int(),
    }),
  ),
  totals: z.object({
    conversations: z.number().int(),
    byChannel,
    credits: z.number().int(),
  }),
  handoff: z.object({ conversations: z.number().int(), rate }),
  resolvedWithoutPerson: z.object({ conversations: z.number().int(), rate }),
  feedback: z.object({
    positive: z.number().int(),
    negative: z.number().int(),
    total: z.number().int(),
    positiveRate: rate,
    /** Ratings per AI reply of the period. */
    responseRate: rate,
  }),
});

export const gapSchema = z.object({
  /** The grouping key: the question lowercased, spaces collapsed, no trailing `?`, `!` or `.`. */
  question: z.string(),
  /** The customer's own words, the most recent time it was asked (docs/analytics.md "Knowledge gaps"). */
  asked: z.string(),
  count: z.number().int(),
  lastAskedAt: z.string(),
});

export const gapsSchema = z.object({
  ...window,
  /** AI replies of the period that cited no passage and used no tool (docs/analytics.md "Knowledge gaps"). */
  replies: z.number().int(),
  /** All AI replies of the period. */
  aiReplies: z.number().int(),
  rate,
  gaps: z.array(gapSchema),
});

export const channelsSchema = z.object({
  period: z.string(),
  since: z.string(),
  until: z.string(),
  channels: z.array(
    z.object({
      channel: z.string(),
      conversations: z.number().int(),
      messages: z.number().int(),
      inbound: z.number().int(),
      outbound: z.number().int(),
    }),
  ),
});
