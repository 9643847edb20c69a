import type { Plan } from '@parley/contract/plans';
import { i18n } from '../../i18n/index.ts';
import { currentLocale } from '../../i18n/locale.ts';

/**
 * The plans as docs/credits.md "Allowances" lists them, in the page's words (the user's language),
 * and how a plan is named wherever the dashboard shows it (the overview, the billing page): one
 * name, with "(trial)" during the trial. Pure, so a unit test reads it (apps/server/test/dashboard).
 */
export type { Plan };

type PlanCard = {
  id: Plan;
  /** The monthly list price in `currency` (an ISO 4217 code); null: priced by agreement. */
  monthly: { amount: number; currency: string } | null;
};

/** Their names, credits and notes are in the billing catalog (apps/web/src/i18n/en/billing.ts). */
export const PLANS: PlanCard[] = [
  { id: 'free', monthly: { amount: 0, currency: 'USD' } },
  { id: 'pro', monthly: { amount: 29, currency: 'USD' } },
  { id: 'enterprise', monthly: null },
];

const known = (p: string): p is Plan => PLANS.some((x) => x.id === p);

export const planName = (p: string) => (known(p) ? i18n.t(`billing:plans.${p}.name`) : p);

/** A plan's allowance ("1,200 credits a month") and what else it includes, in the page's words. */
export const planCredits = (p: Plan) => i18n.t(`billing:plans.${p}.credits`);
export const planNotes = (p: Plan) => i18n.t(`billing:plans.${p}.notes`);

/** "Pro (trial)" during the trial, else the plan's name: the same words on every page. */
export const planLabel = (p: string, trialing: boolean) =>
  trialing ? i18n.t('billing:trialLabel', { plan: planName(p) }) : planName(p);

/**
 * Whether a workspace is in its trial, from what the workspace list carries: `trialEndsAt` is set
 * only while the trial lasts (a plan change clears it; docs/workspaces.md "Workspaces"), as the
 * billing summary's `trialing` status is.
 */
export const inTrial = (w: { plan: string; trialEndsAt: string | null }) =>
  w.plan === 'pro' && w.trialEndsAt !== null;

/** "$29 a month" in en-US, "US$29 a month" in en-GB: the amount as the reader's locale writes money. */
export function priceText(plan: PlanCard, locale: string = currentLocale()): string {
  if (!plan.monthly) return i18n.t('billing:price.custom');
  if (plan.monthly.amount === 0) return i18n.t('billing:price.free');
  const money = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: plan.monthly.currency,
    maximumFractionDigits: Number.isInteger(plan.monthly.amount) ? 0 : 2,
  });
  return i18n.t('billing:price.monthly', { amount: money.format(plan.monthly.amount) });
}
