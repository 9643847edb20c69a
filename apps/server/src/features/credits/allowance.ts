import type { Plan } from '@parley/contract/plans';
import type { Config } from '../../config.ts';
import { type PlanStanding, planStanding } from '../workspaces/plan.ts';
import type { CreditRow, Period } from './credits.repo.ts';

/** docs/credits.md "Allowances": Free 50, Pro (and the Pro trial) 1,200, Enterprise custom. */
export const PLAN_CREDITS: Record<Exclude<Plan, 'enterprise'>, number> = { free: 50, pro: 1200 };

export type AllowanceInput = {
  plan: Plan;
  trialEndsAt: Date | null;
  billingStatus: string;
  monthlyCredits: number | null;
};

/**
 * The monthly allowance of the plan in force (docs/credits.md "Allowances"): Free and Pro (trial included) by
 * the plan; Enterprise gets its agreed `monthly_credits`, else ENTERPRISE_MONTHLY_CREDITS. Taken
 * from the workspace row read in the same request, so an upgrade raises the limit at once and a
 * blocked workspace resumes.
 */
export function creditLimit(
  standing: PlanStanding,
  config: Pick<Config, 'enterpriseMonthlyCredits'>,
): number {
  if (standing.plan === 'enterprise') return standing.monthlyCredits ?? config.enterpriseMonthlyCredits;
  return PLAN_CREDITS[standing.plan];
}

/** The same from a workspace row: a passed trial counts as Free. */
export function monthlyCreditsFor(
  ws: AllowanceInput,
  config: Pick<Config, 'enterpriseMonthlyCredits'>,
): number {
  return creditLimit(planStanding(ws), config);
}

/** The credit period containing `at`: the calendar month in UTC (docs/decisions/0005-credits.md). */
export function periodOf(at: Date): Period {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
}

/** The 80% alert fires at this many credits used (docs/credits.md "Alerts": rounded up). */
export const warningThreshold = (limit: number) => Math.ceil(limit * 0.8);

/**
 * Where the counter stands at `at`. A stored period that has ended counts as a new one at zero,
 * exactly as the next reservation (or the scheduled reset) will make it.
 */
export function standing(row: CreditRow | undefined, limit: number, at: Date) {
  const current = row !== undefined && row.periodEnd.getTime() > at.getTime();
  const used = current ? row.used : 0;
  const periodEnd = current ? row.periodEnd : periodOf(at).end;
  return { limit, used, remaining: Math.max(0, limit - used), resetsAt: periodEnd.toISOString() };
}
