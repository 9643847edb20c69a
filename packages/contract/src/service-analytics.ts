import { z } from 'zod';
import { periodField } from './periods.ts';

/**
 * `GET /api/workspaces/{ws}/analytics/service`: satisfaction, SLA and response times (docs/analytics.md
 * "Service"; docs/decisions/0038-service-analytics.md says which conversations count in each figure).
 */

export const serviceAnalyticsQuery = z.strictObject({ period: periodField });

/** The figures whose conversations `.../analytics/service/conversations.csv` lists. */
export const SERVICE_FIGURES = ['csat', 'sla_breached', 'sla_met', 'first_response', 'resolution'] as const;
export type ServiceFigure = (typeof SERVICE_FIGURES)[number];

export const serviceCsvQuery = z.strictObject({
  period: periodField,
  figure: z.enum(SERVICE_FIGURES, {
    message: 'Must be csat, sla_breached, sla_met, first_response or resolution',
  }),
});

const count = z.number().int().min(0);
/** The mean rating, 1 to 5; null when there is none. */
const average = z.number().min(1).max(5).nullable();
const rate = z.number().min(0).max(1).nullable();
const seconds = z.number().int().min(0).nullable();

export const serviceAnalyticsSchema = z.object({
  csat: z.object({
    /** Ratings given in the period (by when the customer rated). */
    responses: count,
    average,
    /** The share of 4 and 5 among them; null when there is none. */
    satisfied: rate,
    /** By the person holding the conversation when it was rated; `userId` null: nobody held it. */
    byAgent: z.array(
      z.object({ userId: z.string().nullable(), name: z.string(), responses: count, average }),
    ),
    /** By the conversation's assistant (an addition to the shape decided for this endpoint). */
    byAssistant: z.array(z.object({ assistantId: z.string(), name: z.string(), responses: count, average })),
  }),
  sla: z.object({
    /** Every policy of the workspace, in the order one is chosen; zeros when none settled. */
    policies: z.array(
      z.object({
        policyId: z.string(),
        name: z.string(),
        met: count,
        breached: count,
        /** met over met + breached; null when both are 0. */
        metRate: rate,
      }),
    ),
  }),
  /** From the handoff to a person's first reply, the median; null when none. */
  firstResponseMedianSeconds: seconds,
  /** From the handoff to closing, the median; null when none. */
  resolutionMedianSeconds: seconds,
  byDay: z.array(
    z.object({
      /** A UTC day, `YYYY-MM-DD`, oldest first; every day of the period. */
      date: z.string(),
      responses: count,
      average,
      /** SLA breaches whose due time fell on that day. */
      breaches: count,
    }),
  ),
});

export type ServiceAnalytics = z.infer<typeof serviceAnalyticsSchema>;
