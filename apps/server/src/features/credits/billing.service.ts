import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
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
  const [row, counts] = await Promise.all([
    repo.findCredits(ctx.db, workspaceId),
    repo.usageCounts(ctx.db, workspaceId),
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
  };
}

/**
 * Plan changes (docs/api.md "Plans"): through Stripe Checkout once Stripe is configured; there is no
 * Stripe configuration yet, so they are an operator command and the API answers 400.
 */
export async function startCheckout(_ctx: AppContext, _workspaceId: string, _plan: 'pro' | 'enterprise') {
  throw new AppError(
    'billing_not_configured',
    'Online billing is not configured on this server; ask the operator to change the plan',
  );
}
