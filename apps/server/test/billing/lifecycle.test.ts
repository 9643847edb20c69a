import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contacts, events, tickets, workspaceBilling, workspaces } from '../../src/db/schema/index.ts';
import { CATALOG } from '../../src/jobs/catalog.ts';
import { addDays, now } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { mailsTo } from '../account/mail.ts';
import { clockTo, nextMonthStart } from '../credits/helpers.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { addMember, createWorld, insertWorkspace, setPlan, setUsed, type World } from '../support/world.ts';
import { billingRow, noticesOf, planChanges, workspaceRow } from './helpers.ts';

/**
 * The plan lifecycle as the `billing-lifecycle` job runs it (docs/billing.md "Plan lifecycle"),
 * with the clock (lib/clock) moved: trial reminder and end, downgrades and cancellations at the
 * period's end, the monthly reset, and quotas after a downgrade.
 */

let t: TestApp;
let w: World;
beforeAll(async () => {
  // The clock moves weeks ahead; sessions must outlive it.
  t = await createTestApp({ SESSION_TTL_DAYS: '365' });
  w = await createWorld(t);
});
afterEach(() => clockTo(null));
afterAll(async () => {
  clockTo(null);
  await t?.close();
});

/** One pass of the job, as the catalog's runner would call it. */
const runJob = () => CATALOG['billing-lifecycle'].create(t.ctx).step();

const summary = async (ws: string) =>
  (await t.request({ method: 'GET', url: `/api/workspaces/${ws}/billing`, headers: w.owner.headers })).json()
    .data;

describe('trial (docs/billing.md "Plan lifecycle")', () => {
  it('three days out: one reminder; at the end: Free with its allowances, the event, notice and email', async () => {
    const ws = await insertWorkspace(t, w.owner, { name: 'Trialco' });
    await addMember(t, ws, w.admin, 'admin');
    await addMember(t, ws, w.member, 'member');
    const endsAt = (await workspaceRow(t, ws))?.trialEndsAt as Date;
    expect(endsAt.getTime()).toBeGreaterThan(addDays(now(), 13).getTime());

    clockTo(addDays(endsAt, -4));
    await runJob();
    expect(await noticesOf(t, ws, 'trial.ending')).toHaveLength(0);

    clockTo(new Date(addDays(endsAt, -3).getTime() + 60_000));
    await runJob();
    await runJob();
    const reminders = await noticesOf(t, ws, 'trial.ending');
    // Owner and admin, once each; members do not get billing notices.
    expect(reminders.map((n) => n.userId).sort()).toEqual([w.owner.id, w.admin.id].sort());
    expect(reminders[0]?.title).toContain(endsAt.toISOString().slice(0, 10));
    await waitFor(
      () => mailsTo(t, w.admin.email).some((m) => m.includes('Trialco: the Pro trial ends')),
      10_000,
    );
    expect((await summary(ws)).plan).toBe('pro');

    clockTo(new Date(endsAt.getTime() + 30_000));
    await runJob();
    const row = await workspaceRow(t, ws);
    expect(row).toMatchObject({ plan: 'free', billingStatus: 'active', trialEndsAt: null });
    const [event] = await t.ctx.db.select().from(events).where(eq(events.workspaceId, ws));
    expect(event?.type).toBe('workspace.plan_changed');
    expect(event?.data).toEqual({
      workspaceId: ws,
      from: 'pro',
      to: 'free',
      effectiveAt: endsAt.toISOString(),
    });
    expect(await noticesOf(t, ws, 'trial.ended')).toHaveLength(2);
    await waitFor(
      () => mailsTo(t, w.owner.email).some((m) => m.includes('Trialco: the Pro trial has ended')),
      10_000,
    );
    const data = await summary(ws);
    expect(data).toMatchObject({ plan: 'free', status: 'active', credits: { limit: 50 } });
    expect(data.usage).toMatchObject({ contacts: { limit: 100 }, tickets: { limit: 50 } });

    // Again: nothing more (no second event, notice or reminder).
    await runJob();
    expect(await planChanges(t, ws)).toEqual([['pro', 'free']]);
    expect(await noticesOf(t, ws, 'trial.ended')).toHaveLength(2);
  });

  it('an upgrade during the trial ends it: no reminder, no trial end', async () => {
    const ws = await insertWorkspace(t, w.owner, { name: 'Upgraded' });
    const endsAt = (await workspaceRow(t, ws))?.trialEndsAt as Date;
    await setPlan(t, ws, 'pro'); // as a checkout or the operator command leaves it
    clockTo(addDays(endsAt, 1));
    await runJob();
    expect(await noticesOf(t, ws, 'trial.ending')).toHaveLength(0);
    expect((await workspaceRow(t, ws))?.plan).toBe('pro');
    expect(await planChanges(t, ws)).toEqual([]);
  });

  it('two processes running the job at once end a trial once', async () => {
    const ws = await insertWorkspace(t, w.owner, { name: 'Racer' });
    const endsAt = (await workspaceRow(t, ws))?.trialEndsAt as Date;
    clockTo(addDays(endsAt, 1));
    await Promise.all([runJob(), runJob(), runJob()]);
    expect(await planChanges(t, ws)).toEqual([['pro', 'free']]);
    expect(await noticesOf(t, ws, 'trial.ended')).toHaveLength(1);
  });
});

describe('period end (docs/billing.md "Plan lifecycle")', () => {
  async function paid(plan: 'pro' | 'enterprise', change: Partial<typeof workspaceBilling.$inferInsert>) {
    const ws = await insertWorkspace(t, w.owner, { plan, name: `Paid ${plan}` });
    await setPlan(t, ws, plan);
    const periodEnd = addDays(now(), 10);
    await t.ctx.db.insert(workspaceBilling).values({
      workspaceId: ws,
      stripeCustomerId: `cus_${newId('ws')}`,
      stripeSubscriptionId: `sub_${newId('ws')}`,
      periodEnd,
      ...change,
    });
    return { ws, periodEnd };
  }

  it('a downgrade waits for the period end, then the lower plan with its quotas and credits at once', async () => {
    const { ws, periodEnd } = await paid('enterprise', { pendingPlan: 'pro' });
    clockTo(new Date(periodEnd.getTime() - 60_000));
    await runJob();
    expect((await summary(ws)).plan).toBe('enterprise');
    clockTo(new Date(periodEnd.getTime() + 60_000));
    await runJob();
    const data = await summary(ws);
    expect(data).toMatchObject({ plan: 'pro', status: 'active', credits: { limit: 1200 } });
    expect(data.usage.contacts.limit).toBe(5000);
    expect(data.subscription.pendingPlan).toBeNull();
    expect(await planChanges(t, ws)).toEqual([['enterprise', 'pro']]);
    const [event] = await t.ctx.db.select().from(events).where(eq(events.workspaceId, ws));
    expect(event?.data).toMatchObject({ effectiveAt: periodEnd.toISOString() });
    // The subscription runs on at Stripe (renewed at the lower price).
    expect((await billingRow(t, ws))?.stripeSubscriptionId).toEqual(expect.any(String));
  });

  it('a cancellation keeps access to the period end, then Free; the subscription is gone', async () => {
    const { ws, periodEnd } = await paid('pro', { pendingPlan: 'free', canceledAt: now() });
    clockTo(new Date(periodEnd.getTime() - 1000));
    await runJob();
    expect((await summary(ws)).plan).toBe('pro');
    clockTo(new Date(periodEnd.getTime() + 1000));
    await runJob();
    expect(await summary(ws)).toMatchObject({ plan: 'free', credits: { limit: 50 } });
    expect(await billingRow(t, ws)).toMatchObject({ stripeSubscriptionId: null, pendingPlan: null });
    expect(await planChanges(t, ws)).toEqual([['pro', 'free']]);
  });

  it('after a downgrade to Free: existing contacts and tickets stay, new ones get 403 plan_limit_reached', async () => {
    const { ws, periodEnd } = await paid('pro', { pendingPlan: 'free', canceledAt: now() });
    await t.ctx.db
      .insert(contacts)
      .values(Array.from({ length: 120 }, (_, i) => ({ id: newId('ct'), workspaceId: ws, name: `C${i}` })));
    await t.ctx.db
      .insert(tickets)
      .values(
        Array.from({ length: 55 }, (_, i) => ({ id: newId('tkt'), workspaceId: ws, subject: `T${i}` })),
      );
    const create = (what: 'contacts' | 'tickets') =>
      t.request({
        method: 'POST',
        url: `/api/workspaces/${ws}/${what}`,
        headers: w.owner.headers,
        payload: what === 'contacts' ? { name: 'One more' } : { subject: 'One more' },
      });
    expect((await create('contacts')).statusCode).toBe(201);

    clockTo(new Date(periodEnd.getTime() + 1000));
    await runJob();
    const data = await summary(ws);
    expect(data.usage).toEqual({ contacts: { used: 121, limit: 100 }, tickets: { used: 55, limit: 50 } });
    for (const what of ['contacts', 'tickets'] as const) {
      const res = await create(what);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'plan_limit_reached', details: { resource: what } });
    }
    const list = await t.request({
      method: 'GET',
      url: `/api/workspaces/${ws}/contacts?limit=100`,
      headers: w.owner.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 121 });
  });
});

describe('monthly reset (docs/credits.md)', () => {
  it('credits start at zero in the next month, on the same plan', async () => {
    const ws = await insertWorkspace(t, w.owner, { plan: 'free', name: 'Monthly' });
    await setUsed(t, ws, 50);
    expect((await summary(ws)).credits).toMatchObject({ used: 50, remaining: 0 });
    clockTo(new Date(nextMonthStart(now()).getTime() + 60_000));
    await runJob();
    await CATALOG['credits-reset'].create(t.ctx).step();
    expect(await summary(ws)).toMatchObject({ plan: 'free', credits: { used: 0, remaining: 50, limit: 50 } });
    const [row] = await t.ctx.db.select().from(workspaces).where(eq(workspaces.id, ws));
    expect(row?.plan).toBe('free');
  });
});
