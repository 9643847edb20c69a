import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { createWorld, type World } from '../support/world.ts';
import { planChanges, workspaceRow } from './helpers.ts';

/**
 * The billing actions without Stripe (docs/billing.md "Routes"): owner only (403 below), then
 * 400 `billing_not_configured` before the body is looked at; the Stripe webhook too.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t?.close());

const notConfigured = (s: number) => s === 400;
const actions: { method: 'GET' | 'POST'; action: string; payload?: object }[] = [
  { method: 'POST', action: 'portal' },
  { method: 'POST', action: 'cancel' },
  { method: 'POST', action: 'change', payload: { plan: 'free' } },
  { method: 'GET', action: 'invoices' },
];
for (const a of actions) {
  securitySuite(() => t, {
    name: `${a.method} /api/workspaces/:workspaceId/billing/${a.action}`,
    auth: 'user',
    minRole: 'owner',
    allowed: notConfigured,
    request: (ws) => ({
      method: a.method,
      url: `/api/workspaces/${ws}/billing/${a.action}`,
      ...(a.payload && { payload: a.payload }),
    }),
  });
}

describe('without STRIPE_SECRET_KEY (docs/billing.md "Changing a plan by hand")', () => {
  it('every billing action answers 400 billing_not_configured, whatever the body; nothing changes', async () => {
    const before = await workspaceRow(t, w.ws);
    const bodies = [undefined, { plan: 'free' }, { plan: 'gold', extra: '∞' }, { plan: 7 }];
    for (const a of [...actions, { method: 'POST' as const, action: 'checkout' }]) {
      for (const payload of a.method === 'GET' ? [undefined] : bodies) {
        const res = await t.request({
          method: a.method,
          url: `/api/workspaces/${w.ws}/billing/${a.action}`,
          headers: w.owner.headers,
          ...(payload && { payload }),
        });
        expect(res.statusCode, `${a.action} ${JSON.stringify(payload)}`).toBe(400);
        expect(res.json().code).toBe('billing_not_configured');
      }
    }
    expect(await workspaceRow(t, w.ws)).toEqual(before);
    expect(await planChanges(t, w.ws)).toEqual([]);
  });

  it('the summary says online billing is off', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.ws}/billing`,
      headers: w.member.headers,
    });
    expect(res.json().data.subscription).toEqual({
      provider: null,
      pendingPlan: null,
      cancelAtPeriodEnd: false,
      currentPeriodEnd: null,
    });
  });

  it('the Stripe webhook answers 400 billing_not_configured', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: JSON.stringify({ id: 'evt_1', type: 'invoice.paid' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('billing_not_configured');
  });
});
