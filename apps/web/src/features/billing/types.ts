import type { Billing as Summary } from '../../api.ts';
import type { Plan } from './plans.ts';

/**
 * The billing summary (`GET /api/workspaces/{ws}/billing`, docs/credits.md) and what the billing
 * page reads beyond it. The extras are optional: a server that does not send them yet leaves
 * the page to learn about online billing from the first action's answer (docs/dashboard.md
 * "Billing").
 */

export type BillingSummary = Summary & {
  /**
   * Online billing (docs/billing.md "Routes"): `provider` null when plans are the operator's;
   * `pendingPlan` a downgrade (`free` with `cancelAtPeriodEnd` for a cancellation) taking effect
   * at `currentPeriodEnd`. Absent on a server without Stripe support.
   */
  subscription?: {
    provider: string | null;
    pendingPlan: Plan | null;
    cancelAtPeriodEnd: boolean;
    currentPeriodEnd: string | null;
  };
};

/** One invoice of `GET /api/workspaces/{ws}/billing/invoices` (docs/billing.md "Routes"). */
export type Invoice = {
  id: string;
  number: string | null;
  status: string;
  currency: string;
  /** In the currency's smallest unit, as Stripe counts. */
  amountDue: number;
  amountPaid: number;
  createdAt: string;
  hostedUrl: string | null;
  pdfUrl: string | null;
};

/** Whether plan changes go through Stripe here; undefined until the server says. */
export const onlineBilling = (s: BillingSummary): boolean | undefined =>
  s.subscription ? s.subscription.provider !== null : undefined;

export { inTrial, PLANS, type Plan, planLabel, planName, priceText } from './plans.ts';

/** Whole days left until `iso`, counting a part of a day as a day (0 once passed). */
export function daysLeft(iso: string, at = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(iso).getTime() - at) / 86_400_000));
}

export { formatDate as dateOf } from '../../shell/dates.ts';

/** The operator's command without Stripe (docs/billing.md "Changing a plan by hand"). */
export const operatorCommand = (ws: string) => `npm run plan -- ${ws} <free|pro|enterprise>`;
