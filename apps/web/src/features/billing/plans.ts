import type { Plan } from '@parley/contract/plans';

/**
 * The plans as docs/credits.md "Allowances" lists them, in the page's words, and how a plan is
 * named wherever the dashboard shows it (the overview, the billing page): one name, with
 * "(trial)" during the trial. Pure, so a unit test reads it (apps/server/test/dashboard).
 */
export type { Plan };

type PlanCard = {
  id: Plan;
  name: string;
  /** The monthly list price in `currency` (an ISO 4217 code); null: priced by agreement. */
  monthly: { amount: number; currency: string } | null;
  credits: string;
  notes: string;
};

export const PLANS: PlanCard[] = [
  {
    id: 'free',
    name: 'Free',
    monthly: { amount: 0, currency: 'USD' },
    credits: '50 credits a month',
    notes: '100 contacts, 50 tickets',
  },
  {
    id: 'pro',
    name: 'Pro',
    monthly: { amount: 29, currency: 'USD' },
    credits: '1,200 credits a month',
    notes: '5,000 contacts, 1,000 tickets, SMS and other channels, API write access',
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    monthly: null,
    credits: 'Credits as agreed',
    notes: 'Unlimited contacts and tickets, SSO, dedicated support',
  },
];

export const planName = (p: string) => PLANS.find((x) => x.id === p)?.name ?? p;

/** "Pro (trial)" during the trial, else the plan's name: the same words on every page. */
export const planLabel = (p: string, trialing: boolean) => `${planName(p)}${trialing ? ' (trial)' : ''}`;

/**
 * Whether a workspace is in its trial, from what the workspace list carries: `trialEndsAt` is set
 * only while the trial lasts (a plan change clears it; docs/workspaces.md "Workspaces"), as the
 * billing summary's `trialing` status is.
 */
export const inTrial = (w: { plan: string; trialEndsAt: string | null }) =>
  w.plan === 'pro' && w.trialEndsAt !== null;

/** "$29 a month" in en-US, "US$29 a month" in en-GB: the amount as the reader's locale writes money. */
export function priceText(plan: PlanCard, locale?: string): string {
  if (!plan.monthly) return 'Custom';
  if (plan.monthly.amount === 0) return 'Free';
  const money = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: plan.monthly.currency,
    maximumFractionDigits: Number.isInteger(plan.monthly.amount) ? 0 : 2,
  });
  return `${money.format(plan.monthly.amount)} a month`;
}
