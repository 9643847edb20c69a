import { PLAN_RANK } from '@parley/contract/plans';
import type Stripe from 'stripe';
import type { AppContext } from '../../context.ts';
import { now } from '../../lib/clock.ts';
import { paymentFailedNotice } from '../notifications/templates/payment-failed.ts';
import { effectivePlan } from '../workspaces/plan.ts';
import * as repo from './billing.repo.ts';
import { withAdminNotices } from './notices.ts';
import { applyPlanIn } from './plan-change.ts';
import { idOf, periodEndOf, planOfSubscription, stripeOf } from './stripe.ts';

const ENDED: ReadonlySet<string> = new Set(['canceled', 'unpaid', 'incomplete_expired']);

/**
 * Applies a Stripe event once (docs/billing.md "Stripe webhooks"). Subscription state is read
 * fresh from Stripe before the transaction, so events arriving out of order all lead to the
 * subscription's latest state; the event id is claimed in the same transaction as the change.
 */
export async function handleStripeEvent(
  ctx: AppContext,
  event: Stripe.Event,
): Promise<'applied' | 'duplicate' | 'ignored'> {
  const stripe = stripeOf(ctx);
  const obj = event.data.object as unknown as Record<string, unknown>;
  let sub: Stripe.Subscription | undefined;
  let workspaceHint: string | null = null;
  let customer: string | null = null;
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object as Stripe.Checkout.Session;
      workspaceHint = session.client_reference_id ?? session.metadata?.workspaceId ?? null;
      customer = idOf(session.customer);
      const subId = idOf(session.subscription);
      if (subId) sub = await stripe.subscriptions.retrieve(subId);
      break;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const s = event.data.object as Stripe.Subscription;
      customer = idOf(s.customer);
      workspaceHint = s.metadata?.workspaceId ?? null;
      sub = await stripe.subscriptions.retrieve(s.id);
      break;
    }
    case 'invoice.payment_failed':
    case 'invoice.paid':
      customer = idOf(obj.customer as string | { id: string } | null);
      break;
    default:
      return 'ignored';
  }
  const at = now();
  return withAdminNotices(ctx, async (tx, notify) => {
    if (!(await repo.claimStripeEvent(tx, event.id, event.type, at))) return 'duplicate' as const;
    const byCustomer = customer ? await repo.findByCustomer(tx, customer) : undefined;
    const workspaceId = byCustomer?.workspaceId ?? workspaceHint;
    // Locked for the whole change: two events of one workspace apply one after the other.
    const ws = workspaceId ? await repo.findWorkspace(tx, workspaceId, { lock: true }) : undefined;
    if (!workspaceId || !ws) return 'ignored' as const;
    const billing = byCustomer ?? (await repo.findBilling(tx, workspaceId));

    if (event.type === 'invoice.payment_failed' || event.type === 'invoice.paid') {
      if (event.type === 'invoice.payment_failed') {
        await repo.setBillingStatus(tx, workspaceId, 'past_due', at);
        await notify(workspaceId, paymentFailedNotice(ws));
      } else if (ws.billingStatus === 'past_due') {
        await repo.setBillingStatus(tx, workspaceId, 'active', at);
      }
      return 'applied' as const;
    }

    if (!sub) return 'ignored' as const;
    // Only the workspace's current subscription drives it; a checkout makes its subscription current.
    const current = billing?.stripeSubscriptionId;
    const isCheckout = event.type === 'checkout.session.completed';
    if (current && current !== sub.id && !isCheckout) return 'ignored' as const;
    const periodEnd = periodEndOf(sub);
    const plan = planOfSubscription(ctx.config, sub);
    const save = {
      stripeCustomerId: idOf(sub.customer) ?? customer,
      stripeSubscriptionId: sub.id,
      stripeStateAt: new Date(event.created * 1000),
      periodEnd,
    };
    if (ENDED.has(sub.status)) {
      await applyPlanIn(tx, workspaceId, 'free', { at });
      await repo.saveBilling(
        tx,
        workspaceId,
        { ...save, stripeSubscriptionId: null, pendingPlan: null, periodEnd: null },
        at,
      );
      return 'applied' as const;
    }
    if (!plan) return 'ignored' as const;
    const inForce = effectivePlan(ws);
    const status = sub.status === 'past_due' ? 'past_due' : 'active';
    const cancelling = sub.cancel_at_period_end;
    if (PLAN_RANK[plan] < PLAN_RANK[inForce] && !isCheckout) {
      // A downgrade: the paid plan stays until the period ends (the lifecycle job applies it).
      await repo.saveBilling(tx, workspaceId, { ...save, pendingPlan: plan }, at);
      return 'applied' as const;
    }
    await applyPlanIn(tx, workspaceId, plan, { at, status });
    await repo.saveBilling(
      tx,
      workspaceId,
      {
        ...save,
        pendingPlan: cancelling ? 'free' : null,
        canceledAt: cancelling ? (billing?.canceledAt ?? at) : null,
      },
      at,
    );
    return 'applied' as const;
  });
}
