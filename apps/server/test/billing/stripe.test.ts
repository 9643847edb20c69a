import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPeriodEnds } from '../../src/features/billing/lifecycle.ts';
import { now } from '../../src/lib/clock.ts';
import { mailsTo } from '../account/mail.ts';
import { clockTo } from '../credits/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-server.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, insertWorkspace, ownerOf, setPlan, type World } from '../support/world.ts';
import { billingRow, noticesOf, planChanges, workspaceRow } from './helpers.ts';

/**
 * Stripe (docs/billing.md "Stripe"): the routes call a local stand-in of Stripe's endpoints
 * through the `stripe` library (STRIPE_API_BASE); webhooks are signed as Stripe signs them.
 */

let t: TestApp;
let w: World;
let stripe: StripeStandIn;
beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_PRICE_PRO: stripe.prices.pro,
    STRIPE_PRICE_ENTERPRISE: stripe.prices.enterprise,
    STRIPE_API_BASE: stripe.url,
    // The clock moves a paid period ahead; sessions must outlive it.
    SESSION_TTL_DAYS: '365',
  });
  w = await createWorld(t);
});
afterAll(async () => {
  clockTo(null);
  await t?.close();
  await stripe?.close();
});

const post = (ws: string, action: string, headers: Record<string, string>, payload?: unknown) =>
  t.request({
    method: 'POST',
    url: `/api/workspaces/${ws}/billing/${action}`,
    headers,
    payload: payload as object,
  });

const deliver = (event: Record<string, unknown>, secret?: string) => {
  const { payload, headers } = stripe.signed(event, secret);
  return t.request({ method: 'POST', url: '/api/billing/stripe/webhook', headers, payload });
};

const summary = async (ws: string) =>
  (
    await t.request({ method: 'GET', url: `/api/workspaces/${ws}/billing`, headers: ownerOf(w, ws).headers })
  ).json().data;

/** Checkout as the owner, paid at the stand-in, and the completed event delivered. */
async function subscribe(ws: string, plan: 'pro' | 'enterprise') {
  const res = await post(ws, 'checkout', ownerOf(w, ws).headers, { plan });
  expect(res.statusCode, res.body).toBe(200);
  const sessionId = String(res.json().data.url).split('/').at(-1) as string;
  const { session, subscription } = stripe.completeCheckout(sessionId);
  const event = stripe.event('checkout.session.completed', session);
  const hook = await deliver(event);
  expect(hook.statusCode, hook.body).toBe(200);
  return { event, subscription };
}

describe('checkout, webhooks and the plan (docs/billing.md "Stripe")', () => {
  it('checkout gives a Stripe URL; the completed checkout upgrades at once; replays change nothing', async () => {
    await setPlan(t, w.freeWs, 'free');
    const res = await post(w.freeWs, 'checkout', w.freeOwner.headers, { plan: 'pro' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const created = stripe.requests.find((r) => r.path === '/v1/checkout/sessions');
    expect(created?.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: w.freeWs,
      line_items: [{ price: stripe.prices.pro, quantity: '1' }],
      subscription_data: { metadata: { workspaceId: w.freeWs, plan: 'pro' } },
    });
    // Not paid yet: still Free.
    expect((await summary(w.freeWs)).plan).toBe('free');

    const sessionId = String(res.json().data.url).split('/').at(-1) as string;
    const { session } = stripe.completeCheckout(sessionId);
    const event = stripe.event('checkout.session.completed', session);
    const hook = await deliver(event);
    expect(hook.statusCode, hook.body).toBe(200);
    expect(hook.json()).toEqual({ received: true, result: 'applied' });
    const data = await summary(w.freeWs);
    expect(data).toMatchObject({ plan: 'pro', status: 'active', credits: { limit: 1200 } });
    expect(data.usage.contacts.limit).toBe(5000);
    expect(await planChanges(t, w.freeWs)).toEqual([['free', 'pro']]);

    // The same event again (Stripe retries): 200, nothing new.
    const again = await deliver(event);
    expect(again.json()).toEqual({ received: true, result: 'duplicate' });
    expect(await planChanges(t, w.freeWs)).toEqual([['free', 'pro']]);
  });

  it('the same event delivered five times at once has one effect (race on PostgreSQL)', async () => {
    const ws = await insertWorkspace(t, w.owner, { plan: 'free', name: 'Racer' });
    const res = await post(ws, 'checkout', w.owner.headers, { plan: 'enterprise' });
    const sessionId = String(res.json().data.url).split('/').at(-1) as string;
    const { session } = stripe.completeCheckout(sessionId);
    const event = stripe.event('checkout.session.completed', session);
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => r.json().result).sort()).toEqual([
      'applied',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await planChanges(t, ws)).toEqual([['free', 'enterprise']]);
  });

  it('an older subscription.updated arriving after a newer one does not roll the plan back', async () => {
    const ws = await insertWorkspace(t, w.freeOwner, { plan: 'free', name: 'Late' });
    const { subscription } = await subscribe(ws, 'enterprise');
    // Stripe's copy as it was a minute ago (Enterprise), in an event sent then but delivered last.
    const older = stripe.event(
      'customer.subscription.updated',
      subscription,
      new Date(now().getTime() - 60_000),
    );
    stripe.setSubscription(subscription.id, {
      metadata: { workspaceId: ws, plan: 'enterprise' },
      status: 'canceled',
    });
    const newer = await deliver(stripe.event('customer.subscription.updated', subscription));
    expect(newer.statusCode, newer.body).toBe(200);
    expect((await summary(ws)).plan).toBe('free');
    const late = await deliver(older);
    expect(late.statusCode, late.body).toBe(200);
    expect((await summary(ws)).plan).toBe('free');
    expect(await planChanges(t, ws)).toEqual([
      ['free', 'enterprise'],
      ['enterprise', 'free'],
    ]);
  });

  it('a forged or missing signature is 400 and changes nothing', async () => {
    const ws = w.otherWs;
    const before = await workspaceRow(t, ws);
    const sub = {
      id: 'sub_forged',
      object: 'subscription',
      customer: 'cus_x',
      metadata: { workspaceId: ws, plan: 'enterprise' },
    };
    const event = stripe.event('customer.subscription.updated', sub);
    const forged = await deliver(event, 'whsec_not_the_secret');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('bad_request:api');
    const { payload } = stripe.signed(event);
    const unsigned = await t.request({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(unsigned.statusCode).toBe(400);
    // A valid signature over a different body.
    const { headers } = stripe.signed(event);
    const tampered = await t.request({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers,
      payload: payload.replace('enterprise', 'pro'),
    });
    expect(tampered.statusCode).toBe(400);
    expect(await workspaceRow(t, ws)).toEqual(before);
    expect(await planChanges(t, ws)).toEqual([]);
  });

  it('events out of order end in the subscription latest state; a downgrade waits for the period end', async () => {
    const owner = w.owner;
    const ws = w.ws;
    await setPlan(t, ws, 'free');
    const { subscription } = await subscribe(ws, 'pro');
    const createdEvent = stripe.event(
      'customer.subscription.created',
      subscription,
      new Date(now().getTime() - 5000),
    );
    // Upgraded to Enterprise at Stripe (say, in the portal); its event arrives first.
    stripe.setSubscription(subscription.id, { metadata: { workspaceId: ws, plan: 'enterprise' } });
    const updated = await deliver(stripe.event('customer.subscription.updated', subscription));
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await summary(ws)).plan).toBe('enterprise');
    // The older "created" event (plan pro) arrives late: the latest state stays.
    const late = await deliver(createdEvent);
    expect(late.statusCode).toBe(200);
    expect((await summary(ws)).plan).toBe('enterprise');
    expect(await planChanges(t, ws)).toEqual([
      ['free', 'pro'],
      ['pro', 'enterprise'],
    ]);

    // Downgrade to Pro: Stripe's price changes now, the plan at the period's end.
    const change = await post(ws, 'change', owner.headers, { plan: 'pro' });
    expect(change.statusCode, change.body).toBe(200);
    expect(change.json().data).toMatchObject({ plan: 'enterprise', pendingPlan: 'pro' });
    const hook = await deliver(stripe.event('customer.subscription.updated', subscription));
    expect(hook.statusCode).toBe(200);
    expect((await summary(ws)).plan).toBe('enterprise');
    expect((await billingRow(t, ws))?.pendingPlan).toBe('pro');
    // An upgrade through change is refused.
    expect((await post(ws, 'change', owner.headers, { plan: 'enterprise' })).statusCode).toBe(400);

    const periodEnd = (await billingRow(t, ws))?.periodEnd as Date;
    clockTo(new Date(periodEnd.getTime() - 60_000));
    expect(await applyPeriodEnds(t.ctx)).toBe(0);
    clockTo(new Date(periodEnd.getTime() + 60_000));
    expect(await applyPeriodEnds(t.ctx)).toBe(1);
    const after = await summary(ws);
    expect(after).toMatchObject({ plan: 'pro', credits: { limit: 1200 } });
    expect(after.usage.contacts.limit).toBe(5000);
    expect((await planChanges(t, ws)).at(-1)).toEqual(['enterprise', 'pro']);
    clockTo(null);
  });

  it('cancel keeps access to the period end, then Free with its quotas', async () => {
    const ws = w.ws;
    // Stripe renewed the subscription at the period's end: a new period, announced by an event.
    const renewed = [...stripe.subscriptions.values()].find((s) => s.metadata.workspaceId === ws);
    stripe.setSubscription(renewed?.id as string, { periodEnd: new Date(now().getTime() + 60 * 86_400_000) });
    expect((await deliver(stripe.event('customer.subscription.updated', renewed))).statusCode).toBe(200);
    const cancel = await post(ws, 'cancel', w.owner.headers);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().data.accessUntil).toEqual(expect.any(String));
    const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.workspaceId === ws);
    expect(sub?.cancel_at_period_end).toBe(true);
    const end = new Date(cancel.json().data.accessUntil);
    stripe.setSubscription(sub?.id as string, { periodEnd: end });
    expect((await summary(ws)).plan).toBe('pro');
    clockTo(new Date(end.getTime() + 1000));
    expect(await applyPeriodEnds(t.ctx)).toBe(1);
    const data = await summary(ws);
    expect(data).toMatchObject({ plan: 'free', credits: { limit: 50 } });
    expect(data.usage).toMatchObject({ contacts: { limit: 100 }, tickets: { limit: 50 } });
    // Stripe's own "deleted" event later: nothing more changes.
    stripe.setSubscription(sub?.id as string, { status: 'canceled' });
    const deleted = await deliver(stripe.event('customer.subscription.deleted', sub));
    expect(deleted.statusCode).toBe(200);
    expect((await planChanges(t, ws)).at(-1)).toEqual(['pro', 'free']);
    clockTo(null);
  });

  it('a failed payment marks the workspace past_due and notifies owners and admins', async () => {
    const ws = w.otherWs;
    await setPlan(t, ws, 'free');
    await subscribe(ws, 'pro');
    const customer = (await billingRow(t, ws))?.stripeCustomerId;
    const res = await deliver(
      stripe.event('invoice.payment_failed', { id: 'in_1', object: 'invoice', customer, status: 'open' }),
    );
    expect(res.statusCode).toBe(200);
    // Stored on the workspace, and what its owner reads: still Pro, past due.
    expect(await workspaceRow(t, ws)).toMatchObject({ plan: 'pro', billingStatus: 'past_due' });
    expect(await summary(ws)).toMatchObject({ plan: 'pro', status: 'past_due' });
    expect(await noticesOf(t, ws, 'payment.failed')).toHaveLength(1);
    await waitFor(
      () => mailsTo(t, w.outsider.email).some((m) => m.includes('a payment failed')),
      10_000,
      'mail',
    );
    await deliver(stripe.event('invoice.paid', { id: 'in_1', object: 'invoice', customer, status: 'paid' }));
    expect(await workspaceRow(t, ws)).toMatchObject({ plan: 'pro', billingStatus: 'active' });
    expect(await summary(ws)).toMatchObject({ plan: 'pro', status: 'active' });
  });

  it('the portal opens for the owner only; admins and members get 403', async () => {
    const res = await post(w.otherWs, 'portal', w.outsider.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    const portal = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1);
    expect(portal?.body.return_url).toBe(`http://parley.test/workspaces/${w.otherWs}/billing`);
    for (const u of [w.admin, w.member]) {
      expect((await post(w.ws, 'portal', u.headers)).statusCode).toBe(403);
      expect((await post(w.ws, 'checkout', u.headers, { plan: 'pro' })).statusCode).toBe(403);
    }
  });

  it("invoices: the customer's own, newest first, in our shape; none before a checkout", async () => {
    const customer = (await billingRow(t, w.otherWs))?.stripeCustomerId as string;
    stripe.addInvoice(customer, 2900);
    stripe.addInvoice(customer, 2900, 'open');
    stripe.addInvoice('cus_someone_else', 9900);
    const res = await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.otherWs}/billing/invoices`,
      headers: w.outsider.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toHaveLength(2);
    expect(data[0]).toEqual({
      id: expect.stringMatching(/^in_/),
      number: 'PARL-0002',
      status: 'open',
      currency: 'usd',
      amountDue: 2900,
      amountPaid: 0,
      createdAt: expect.any(String),
      periodStart: expect.any(String),
      periodEnd: expect.any(String),
      hostedUrl: 'https://invoice.stripe.test/i/2',
      pdfUrl: 'https://pay.stripe.test/invoice/2/pdf',
    });
    expect(data[1]).toMatchObject({ number: 'PARL-0001', status: 'paid', amountPaid: 2900 });
    const never = await insertWorkspace(t, w.owner, { plan: 'free' });
    const fresh = await t.request({
      method: 'GET',
      url: `/api/workspaces/${never}/billing/invoices`,
      headers: w.owner.headers,
    });
    expect(fresh.json()).toEqual({ data: [] });
    const admin = await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.ws}/billing/invoices`,
      headers: w.admin.headers,
    });
    expect(admin.statusCode).toBe(403);
  });

  it('hostile bodies: unknown plan, extra fields, wrong types, huge webhook bodies; nothing stored', async () => {
    const bodies: unknown[] = [
      { plan: 'gold' },
      { plan: 'pro', extra: 1 },
      { plan: 7 },
      {},
      { plan: 'p\u0000ro' },
      { plan: 'free' },
      { plan: 'PRO' },
      { plan: 'x'.repeat(100_000) },
      { plan: { $ne: null } },
      { plan: 'pro', workspaceId: w.otherWs },
      { plan: 'про' },
      [],
      'null',
      '"pro"',
    ];
    for (const payload of bodies) {
      const res = await expectNothingStored(t, () => post(w.ws, 'checkout', w.owner.headers, payload));
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    expect((await post(w.ws, 'checkout', w.owner.headers, { plan: 'gold' })).json().details).toHaveProperty(
      'plan',
    );
    const change = await expectNothingStored(t, () =>
      post(w.ws, 'change', w.owner.headers, { plan: ['free'] }),
    );
    expect(change.statusCode).toBe(400);
    const huge = await expectNothingStored(t, () =>
      t.request({
        method: 'POST',
        url: '/api/billing/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
        payload: JSON.stringify({ pad: 'x'.repeat(600_000) }),
      }),
    );
    expect(huge.statusCode).toBe(413);
    const notJson = await expectNothingStored(t, () =>
      t.request({
        method: 'POST',
        url: '/api/billing/stripe/webhook',
        headers: { 'content-type': 'text/plain', 'stripe-signature': 't=1,v1=00' },
        payload: 'hello',
      }),
    );
    expect([400, 415]).toContain(notJson.statusCode);
  });
});
