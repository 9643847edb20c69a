import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, tickets, workspaces } from '../../src/db/schema/index.ts';
import { reserveCredit } from '../../src/features/credits/credits.service.ts';
import { now } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { securitySuite } from '../support/security.ts';
import { expectNothingStored } from '../support/stored-rows.ts';
import { addMember, createWorld, personalToken, setPlan, type World } from '../support/world.ts';
import { nextMonthStart, setUsed, workspaceOn } from './helpers.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({ ENTERPRISE_MONTHLY_CREDITS: '3000' });
  w = await createWorld(t);
});
afterAll(() => t?.close());

securitySuite(() => t, {
  name: 'GET /api/workspaces/:workspaceId/billing',
  auth: 'user',
  minRole: 'guest',
  request: (ws) => ({ method: 'GET', url: `/api/workspaces/${ws}/billing` }),
});

securitySuite(() => t, {
  name: 'POST /api/workspaces/:workspaceId/billing/checkout',
  auth: 'user',
  minRole: 'owner',
  // Without Stripe the owner's answer is 400 billing_not_configured (docs/credits.md).
  allowed: (s) => s === 400,
  request: (ws) => ({
    method: 'POST',
    url: `/api/workspaces/${ws}/billing/checkout`,
    payload: { plan: 'pro' },
  }),
});

const billing = (ws: string, headers: Record<string, string>) =>
  t.request({ method: 'GET', url: `/api/workspaces/${ws}/billing`, headers });

describe('GET /api/workspaces/{ws}/billing (docs/credits.md)', () => {
  it('a Pro trial: plan, status, trial end, period end, credits and usage', async () => {
    const res = await billing(w.ws, w.owner.headers);
    expect(res.statusCode, res.body).toBe(200);
    const [ws] = await t.ctx.db.select().from(workspaces).where(eq(workspaces.id, w.ws));
    const periodEnd = nextMonthStart(now()).toISOString();
    expect(res.json()).toEqual({
      data: {
        plan: 'pro',
        status: 'trialing',
        trialEndsAt: ws?.trialEndsAt?.toISOString(),
        periodEnd,
        credits: { limit: 1200, used: 0, remaining: 1200, resetsAt: periodEnd },
        usage: { contacts: { used: 0, limit: 5000 }, tickets: { used: 0, limit: 1000 } },
        subscription: { provider: null, pendingPlan: null, cancelAtPeriodEnd: false, currentPeriodEnd: null },
      },
    });
  });

  it('counts credits, contacts and tickets of this workspace only; a guest with a token may read it', async () => {
    const ws = await workspaceOn(t, w.owner, 'free');
    for (let i = 0; i < 3; i++) await reserveCredit(t.ctx, ws);
    await t.ctx.db.insert(contacts).values([
      { id: newId('ct'), workspaceId: ws, name: 'A' },
      { id: newId('ct'), workspaceId: ws, name: 'B' },
      { id: newId('ct'), workspaceId: w.otherWs, name: 'Elsewhere' },
    ]);
    await t.ctx.db.insert(tickets).values({ id: newId('tkt'), workspaceId: ws, subject: 'Help' });
    await addMember(t, ws, w.guest, 'guest');

    const res = await billing(ws, await personalToken(t, w.guest));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      plan: 'free',
      status: 'active',
      trialEndsAt: null,
      credits: { limit: 50, used: 3, remaining: 47 },
      usage: { contacts: { used: 2, limit: 100 }, tickets: { used: 1, limit: 50 } },
    });
  });

  it('Enterprise: custom credits and unlimited quotas (null)', async () => {
    const ws = await workspaceOn(t, w.owner, 'enterprise');
    let res = await billing(ws, w.owner.headers);
    expect(res.json().data).toMatchObject({
      plan: 'enterprise',
      credits: { limit: 3000, used: 0, remaining: 3000 },
      usage: { contacts: { used: 0, limit: null }, tickets: { used: 0, limit: null } },
    });
    await t.ctx.db.update(workspaces).set({ monthlyCredits: 9000 }).where(eq(workspaces.id, ws));
    res = await billing(ws, w.owner.headers);
    expect(res.json().data.credits).toMatchObject({ limit: 9000, remaining: 9000 });
  });

  it('a passed trial reads as Free: Free credits and quotas, no longer trialing', async () => {
    const ws = await workspaceOn(t, w.owner, 'pro');
    await setUsed(t, ws, 70);
    const ended = new Date(now().getTime() - 60_000);
    await t.ctx.db.update(workspaces).set({ trialEndsAt: ended }).where(eq(workspaces.id, ws));
    const res = await billing(ws, w.owner.headers);
    expect(res.json().data).toMatchObject({
      plan: 'free',
      status: 'active',
      trialEndsAt: ended.toISOString(),
      credits: { limit: 50, used: 70, remaining: 0 },
      usage: { contacts: { limit: 100 }, tickets: { limit: 50 } },
    });
  });

  it('an upgrade shows the new allowance at once', async () => {
    const ws = await workspaceOn(t, w.owner, 'free');
    await setUsed(t, ws, 50);
    expect((await billing(ws, w.owner.headers)).json().data.credits.remaining).toBe(0);
    await setPlan(t, ws, 'pro');
    expect((await billing(ws, w.owner.headers)).json().data.credits).toMatchObject({
      limit: 1200,
      used: 50,
      remaining: 1150,
    });
  });

  it('is listed in the OpenAPI document with its response schema', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    const get = doc.paths['/api/workspaces/{workspaceId}/billing']?.get;
    expect(get?.responses?.['200']).toBeDefined();
    expect(JSON.stringify(get.responses['200'])).toContain('resetsAt');
    expect(doc.paths['/api/workspaces/{workspaceId}/billing/checkout']?.post).toBeDefined();
  });
});

describe('POST /api/workspaces/{ws}/billing/checkout (docs/credits.md)', () => {
  const checkout = (payload: unknown, headers = w.owner.headers, ws = w.ws) =>
    t.request({
      method: 'POST',
      url: `/api/workspaces/${ws}/billing/checkout`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('without Stripe configured: 400 billing_not_configured, and the plan is unchanged', async () => {
    for (const plan of ['pro', 'enterprise']) {
      const res = await checkout({ plan });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('billing_not_configured');
    }
    const [ws] = await t.ctx.db.select().from(workspaces).where(eq(workspaces.id, w.ws));
    expect(ws?.plan).toBe('pro');
  });

  it('admins cannot manage billing (owner only)', async () => {
    const res = await checkout({ plan: 'pro' }, w.admin.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden:api');
  });

  // Without Stripe the answer is billing_not_configured before the body is looked at (docs/billing.md
  // "Routes"); the same bodies with Stripe configured are in test/billing/stripe.test.ts.
  it('hostile bodies are a 400 billing_not_configured, never a 500, and store nothing', async () => {
    const bodies: unknown[] = [
      {},
      { plan: 'free' },
      { plan: 'PRO' },
      { plan: 'x'.repeat(100_000) },
      { plan: ['pro'] },
      { plan: { $ne: null } },
      { plan: 'pro', credits: 1_000_000 },
      { plan: 'pro', workspaceId: w.otherWs },
      { plan: 'pro\u0000' },
      [],
      'null',
      '"pro"',
    ];
    for (const body of bodies) {
      const res = await expectNothingStored(t, () => checkout(body));
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 80)} → ${res.body}`).toBe(400);
      expect(res.json().code).toBe('billing_not_configured');
    }
    expect((await expectNothingStored(t, () => checkout('{"plan": "pro"'))).statusCode).toBe(400); // malformed JSON
  });
});

describe('hostile workspace ids', () => {
  it('are a 404 (or 400), never a 500; the POSTs store nothing', async () => {
    const ids = [
      'ws_missing',
      'x'.repeat(101),
      'x'.repeat(5000),
      encodeURIComponent("' or 1=1 --"),
      encodeURIComponent('../../api/workspaces'),
      '%00',
      encodeURIComponent('ws_😀'),
      '%E0%A4%A',
    ];
    for (const id of ids) {
      for (const method of ['GET', 'POST'] as const) {
        const url = `/api/workspaces/${id}/billing${method === 'POST' ? '/checkout' : ''}`;
        const send = () => t.request({ method, url, headers: w.owner.headers, payload: { plan: 'pro' } });
        const res = method === 'POST' ? await expectNothingStored(t, send) : await send();
        expect([400, 404], `${method} ${url.slice(0, 80)} → ${res.statusCode} ${res.body}`).toContain(
          res.statusCode,
        );
      }
    }
  });
});
