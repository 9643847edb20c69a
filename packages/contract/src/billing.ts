import { z } from 'zod';
import { idParam } from './envelope.ts';

export const billingParams = z.object({ workspaceId: idParam });

const usage = z.object({
  used: z.number().int(),
  /** null: unlimited on this plan. */
  limit: z.number().int().nullable(),
});

/** docs/credits.md: `GET /api/workspaces/{ws}/billing`. */
const plan = z.enum(['free', 'pro', 'enterprise']);

export const billingSchema = z.object({
  plan,
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
  /** docs/billing.md "Routes": online billing, and a change waiting for the paid period's end. */
  subscription: z.object({
    provider: z.enum(['stripe']).nullable(),
    pendingPlan: plan.nullable(),
    cancelAtPeriodEnd: z.boolean(),
    currentPeriodEnd: z.string().nullable(),
  }),
});

/** Plans a checkout can move to (an upgrade; the Free plan needs no checkout). */
export const checkoutBody = z.strictObject({
  plan: z.enum(['pro', 'enterprise'], { message: 'Must be pro or enterprise' }),
});

/** A downgrade (docs/billing.md "Stripe"): any plan, checked against the one in force. */
export const changeBody = z.strictObject({
  plan: z.enum(['free', 'pro', 'enterprise'], { message: 'Must be free, pro or enterprise' }),
});

export const cancelSchema = z.object({ plan, accessUntil: z.string().nullable() });
export const changeSchema = z.object({ plan, pendingPlan: plan, effectiveAt: z.string().nullable() });

/** One Stripe invoice, as the billing page lists it (amounts in the currency's smallest unit). */
export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  status: z.string().nullable(),
  currency: z.string(),
  amountDue: z.number().int(),
  amountPaid: z.number().int(),
  createdAt: z.string(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  hostedUrl: z.string().nullable(),
  pdfUrl: z.string().nullable(),
});
