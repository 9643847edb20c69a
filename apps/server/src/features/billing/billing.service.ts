import { PLAN_RANK, type Plan } from '@parley/contract/plans';
import type Stripe from 'stripe';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { creditSummary } from '../credits/credits.service.ts';
import { effectivePlan, PLAN_QUOTAS } from '../workspaces/plan.ts';
import * as repo from './billing.repo.ts';
import { periodEndOf, priceOf, stripeConfigured, stripeOf } from './stripe.ts';

/**
 * Billing (docs/billing.md): the summary every member reads, and the actions through Stripe
 * ("Stripe"): Checkout for upgrades, the billing portal for cards, wallets and invoices, cancel and
 * downgrade at the period's end; Stripe's signed webhooks then drive the plan (stripe-events.ts).
 * Calls to Stripe happen outside transactions.
 */

async function workspaceOf(ctx: AppContext, workspaceId: string) {
  const ws = await repo.findWorkspace(ctx.db, workspaceId);
  if (!ws) throw notFound('Workspace');
  return ws;
}

/**
 * `GET .../billing` (docs/credits.md, docs/billing.md "Routes"): plan in force, billing status,
 * trial end, the end of the current period (the credit month), credits and usage against the plan
 * quotas, and the subscription.
 */
export async function billingSummary(ctx: AppContext, workspaceId: string) {
  const ws = await workspaceOf(ctx, workspaceId);
  const at = now();
  const [credits, counts, subscription] = await Promise.all([
    creditSummary(ctx, workspaceId, ws, at),
    repo.usageCounts(ctx.db, workspaceId),
    subscriptionSummary(ctx, workspaceId),
  ]);
  const plan = effectivePlan(ws);
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

/** The Stripe customer of the workspace, created on first need. */
async function customerOf(ctx: AppContext, stripe: Stripe, workspaceId: string): Promise<string> {
  const billing = await repo.findBilling(ctx.db, workspaceId);
  if (billing?.stripeCustomerId) return billing.stripeCustomerId;
  const ws = await workspaceOf(ctx, workspaceId);
  const customer = await stripe.customers.create(
    { name: ws.name, metadata: { workspaceId } },
    { idempotencyKey: `parley-customer-${workspaceId}` },
  );
  await repo.saveBilling(ctx.db, workspaceId, { stripeCustomerId: customer.id }, now());
  return customer.id;
}

const billingPage = (base: string, workspaceId: string) => `${base}/workspaces/${workspaceId}/billing`;

/** `POST .../billing/checkout {plan}` → a Stripe Checkout URL for the subscription. */
export async function startCheckout(
  ctx: AppContext,
  workspaceId: string,
  plan: 'pro' | 'enterprise',
  base: string,
) {
  const stripe = stripeOf(ctx);
  const price = priceOf(ctx.config, plan);
  if (!price) throw badRequest(`No Stripe price is configured for the ${plan} plan`, { plan: 'Not offered' });
  const customer = await customerOf(ctx, stripe, workspaceId);
  const page = billingPage(base, workspaceId);
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    client_reference_id: workspaceId,
    line_items: [{ price, quantity: 1 }],
    metadata: { workspaceId, plan },
    subscription_data: { metadata: { workspaceId, plan } },
    success_url: `${page}?checkout=done`,
    cancel_url: `${page}?checkout=cancelled`,
  });
  if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
  return { url: session.url };
}

/** `POST .../billing/portal` → a Stripe billing portal URL (cards, wallets, invoices). */
export async function openPortal(ctx: AppContext, workspaceId: string, base: string) {
  const stripe = stripeOf(ctx);
  const customer = await customerOf(ctx, stripe, workspaceId);
  const session = await stripe.billingPortal.sessions.create({
    customer,
    return_url: billingPage(base, workspaceId),
  });
  return { url: session.url };
}

async function subscriptionOf(ctx: AppContext, workspaceId: string) {
  const billing = await repo.findBilling(ctx.db, workspaceId);
  if (!billing?.stripeSubscriptionId) {
    throw badRequest('This workspace has no paid subscription', { subscription: 'None' });
  }
  return billing.stripeSubscriptionId;
}

/** `POST .../billing/cancel`: cancels at the period's end; access lasts until then. */
export async function cancel(ctx: AppContext, workspaceId: string) {
  const stripe = stripeOf(ctx);
  const id = await subscriptionOf(ctx, workspaceId);
  const sub = await stripe.subscriptions.update(id, { cancel_at_period_end: true });
  const at = now();
  const periodEnd = periodEndOf(sub);
  await repo.saveBilling(ctx.db, workspaceId, { canceledAt: at, periodEnd }, at);
  return { plan: (await workspaceOf(ctx, workspaceId)).plan, accessUntil: periodEnd?.toISOString() ?? null };
}

/** `POST .../billing/change {plan}`: a downgrade, applied at the period's end. */
export async function change(ctx: AppContext, workspaceId: string, plan: Plan) {
  const stripe = stripeOf(ctx);
  const ws = await workspaceOf(ctx, workspaceId);
  const current = effectivePlan(ws);
  if (PLAN_RANK[plan] >= PLAN_RANK[current]) {
    throw badRequest('Only a lower plan can be chosen here; upgrades go through checkout', {
      plan: `Must be lower than ${current}`,
    });
  }
  const id = await subscriptionOf(ctx, workspaceId);
  let sub: Stripe.Subscription;
  if (plan === 'free') {
    sub = await stripe.subscriptions.update(id, { cancel_at_period_end: true });
  } else {
    const price = priceOf(ctx.config, plan);
    if (!price)
      throw badRequest(`No Stripe price is configured for the ${plan} plan`, { plan: 'Not offered' });
    const existing = await stripe.subscriptions.retrieve(id);
    const item = existing.items.data[0]?.id;
    sub = await stripe.subscriptions.update(id, {
      items: [{ ...(item && { id: item }), price }],
      proration_behavior: 'none',
      metadata: { workspaceId, plan },
    });
  }
  const at = now();
  const periodEnd = periodEndOf(sub);
  await repo.saveBilling(ctx.db, workspaceId, { pendingPlan: plan, periodEnd }, at);
  return { plan: current, pendingPlan: plan, effectiveAt: periodEnd?.toISOString() ?? null };
}

/**
 * The billing summary's `subscription` (docs/billing.md "Routes"): whether online billing is on,
 * a downgrade or cancellation waiting for the paid period's end, and that end.
 */
export async function subscriptionSummary(ctx: AppContext, workspaceId: string) {
  const billing = await repo.findBilling(ctx.db, workspaceId);
  return {
    provider: stripeConfigured(ctx.config) ? ('stripe' as const) : null,
    pendingPlan: billing?.pendingPlan ?? null,
    cancelAtPeriodEnd: !!billing?.canceledAt,
    currentPeriodEnd: billing?.stripeSubscriptionId ? (billing.periodEnd?.toISOString() ?? null) : null,
  };
}

/** `GET .../billing/invoices`: the customer's latest invoices from Stripe (none before a checkout). */
export async function listInvoices(ctx: AppContext, workspaceId: string) {
  const stripe = stripeOf(ctx);
  const billing = await repo.findBilling(ctx.db, workspaceId);
  if (!billing?.stripeCustomerId) return [];
  const list = await stripe.invoices.list({ customer: billing.stripeCustomerId, limit: 24 });
  const iso = (s: number | null | undefined) =>
    typeof s === 'number' ? new Date(s * 1000).toISOString() : null;
  return list.data.map((i) => ({
    id: i.id ?? '',
    number: i.number ?? null,
    status: i.status ?? null,
    currency: i.currency,
    amountDue: i.amount_due,
    amountPaid: i.amount_paid,
    createdAt: iso(i.created) ?? '',
    periodStart: iso(i.period_start),
    periodEnd: iso(i.period_end),
    hostedUrl: i.hosted_invoice_url ?? null,
    pdfUrl: i.invoice_pdf ?? null,
  }));
}
