import type { Plan } from '@parley/contract/plans';
import { now } from '../../lib/clock.ts';

/**
 * The plan in force (docs/api.md "Plans"): a Pro trial whose end has passed
 * is Free, whatever the stored row still says.
 */
export function effectivePlan(ws: { plan: Plan; trialEndsAt: Date | null; billingStatus: string }): Plan {
  if (ws.billingStatus === 'trialing' && ws.trialEndsAt && ws.trialEndsAt.getTime() <= now().getTime()) {
    return 'free';
  }
  return ws.plan;
}

/** The plan in force and the workspace's agreed Enterprise credits: what the tenant guard carries. */
export type PlanStanding = { plan: Plan; monthlyCredits: number | null };

export function planStanding(ws: {
  plan: Plan;
  trialEndsAt: Date | null;
  billingStatus: string;
  monthlyCredits: number | null;
}): PlanStanding {
  return { plan: effectivePlan(ws), monthlyCredits: ws.monthlyCredits };
}

export const TRIAL_DAYS = 14;

/** Plan quotas (docs/api.md "Plans"); null is unlimited. */
export const PLAN_QUOTAS: Record<Plan, { contacts: number | null; tickets: number | null }> = {
  free: { contacts: 100, tickets: 50 },
  pro: { contacts: 5000, tickets: 1000 },
  enterprise: { contacts: null, tickets: null },
};
