import { z } from 'zod';
import { idParam } from '../../http/envelope.ts';

export const billingParams = z.object({ workspaceId: idParam });

const usage = z.object({
  used: z.number().int(),
  /** null: unlimited on this plan. */
  limit: z.number().int().nullable(),
});

/** docs/credits.md: `GET /api/workspaces/{ws}/billing`. */
export const billingSchema = z.object({
  plan: z.enum(['free', 'pro', 'enterprise']),
  status: z.string(),
  trialEndsAt: z.string().nullable(),
  periodEnd: z.string(),
  credits: z.object({
    limit: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    resetsAt: z.string(),
  }),
  usage: z.object({ contacts: usage, tickets: usage }),
});

/** Plans a checkout can move to (an upgrade; the Free plan needs no checkout). */
export const checkoutBody = z.strictObject({
  plan: z.enum(['pro', 'enterprise'], { message: 'Must be pro or enterprise' }),
});
