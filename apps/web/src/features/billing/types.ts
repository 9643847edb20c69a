import type { invoiceSchema } from '@parley/contract/billing';
import type { z } from 'zod';
import type { Billing as Summary } from '../../api.ts';

/** The billing summary (`GET /api/workspaces/{ws}/billing`, docs/credits.md, docs/billing.md "Routes"). */
export type BillingSummary = Summary;

/** One invoice of `GET /api/workspaces/{ws}/billing/invoices` (docs/billing.md "Routes"). */
export type Invoice = z.output<typeof invoiceSchema>;

/** Whether plan changes go through Stripe here; undefined until the server says. */
export const onlineBilling = (s: BillingSummary): boolean | undefined =>
  s.subscription ? s.subscription.provider !== null : undefined;

export {
  inTrial,
  PLANS,
  type Plan,
  planCredits,
  planLabel,
  planName,
  planNotes,
  priceText,
} from './plans.ts';

/** Whole days left until `iso`, counting a part of a day as a day (0 once passed). */
export function daysLeft(iso: string, at = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(iso).getTime() - at) / 86_400_000));
}

export { formatDate as dateOf } from '../../shell/dates.ts';

/** The operator's command without Stripe (docs/billing.md "Changing a plan by hand"). */
export const operatorCommand = (ws: string) => `npm run plan -- ${ws} <free|pro|enterprise>`;
