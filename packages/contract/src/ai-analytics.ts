import { z } from 'zod';
import { idParam } from './envelope.ts';
import { periodField } from './periods.ts';
import { REPLY_OUTCOMES } from './steering.ts';

/**
 * `GET /api/workspaces/{ws}/analytics/ai`: how the AI did (docs/analytics.md "AI analytics",
 * docs/measuring.md "Resolution"). `outcomes` counts AI replies; every other figure counts
 * conversations started in the period.
 */

export const HANDOFF_REASONS = ['customer_asked', 'rule', 'low_confidence', 'declined', 'agent'] as const;
export type HandoffReason = (typeof HANDOFF_REASONS)[number];

export const aiAnalyticsQuery = z.strictObject({
  period: periodField,
  /** Only this assistant's conversations; omitted: every assistant of the workspace. */
  assistantId: idParam.optional(),
});

const count = z.number().int().min(0);

export const aiAnalyticsSchema = z.object({
  period: z.string(),
  /** Conversations started in the period. */
  conversations: count,
  /** Of them, those with at least one AI reply. */
  involved: count,
  /** Involved conversations settled as resolved by the AI (7 days passed after they ended). */
  resolvedByAi: count,
  /** Involved conversations that would be resolved by the AI, not settled yet. */
  resolvedByAiPending: count,
  /** resolvedByAi over the involved conversations settled (their 7 days passed); null when none. */
  aiResolutionRate: z.number().min(0).max(1).nullable(),
  /** Conversations handed to a person, by the reason they were handed over. */
  handoffs: z.object(
    Object.fromEntries(HANDOFF_REASONS.map((r) => [r, count])) as Record<HandoffReason, typeof count>,
  ),
  /** AI replies of the period, by outcome. */
  outcomes: z.object(
    Object.fromEntries(REPLY_OUTCOMES.map((o) => [o, count])) as Record<
      (typeof REPLY_OUTCOMES)[number],
      typeof count
    >,
  ),
  byDay: z.array(
    z.object({
      /** A UTC day, `YYYY-MM-DD`, oldest first; every day of the period. */
      date: z.string(),
      involved: count,
      resolvedByAi: count,
      /** Conversations of the day handed to a person, every reason. */
      handoffs: count,
    }),
  ),
});

export type AiAnalytics = z.infer<typeof aiAnalyticsSchema>;
