import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { subscriptionSummary } from '../billing/billing.service.ts';
import { effectivePlan, PLAN_QUOTAS } from '../workspaces/plan.ts';
import { monthlyCreditsFor, standing } from './allowance.ts';
import * as repo from './credits.repo.ts';

/**
 * The billing summary (docs/credits.md): plan in force, billing status, trial end, the end of the
 * current period (the credit month), credits and usage against the plan quotas.
 */
export async function billingSummary(ctx: AppContext, workspaceId: string) {
  const ws = await repo.findWorkspace(ctx.db, workspaceId);
  if (!ws) throw notFound('Workspace');
  const at = now();
  const [row, counts, subscription] = await Promise.all([
    repo.findCredits(ctx.db, workspaceId),
    repo.usageCounts(ctx.db, workspaceId),
    subscriptionSummary(ctx, workspaceId),
  ]);
  const plan = effectivePlan(ws);
  const credits = standing(row, monthlyCreditsFor(ws, ctx.config), at);
  const quotas = PLAN_QUOTAS[plan];
  // A passed trial is the Free plan, which has nothing to pay: no longer "trialing".
  const status = ws.billingStatus === 'trialing' && plan !== ws.plan ? 'active' : ws.billingStatus;
  return {
    plan,
    status,
    trialEndsAt: ws.trialEndsAt?.toISOString() ?? null,
    periodEnd: credits.resetsAt,
    credits,
    usage: {
      contacts: { used: counts.contacts, limit: quotas.contacts },
      tickets: { used: counts.tickets, limit: quotas.tickets },
    },
    subscription,
  };
}
