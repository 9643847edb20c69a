import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { workspaces } from '../../src/db/schema/index.ts';
import {
  creditSummary,
  monthlyCreditsFor,
  refundCredit,
  reserveCredit,
} from '../../src/features/credits/credits.service.ts';
import { AppError } from '../../src/http/errors.ts';
import { now } from '../../src/lib/clock.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { setPlan } from '../support/world.ts';
import {
  clockTo,
  creditsRow,
  midMonth,
  monthStart,
  nextMonthStart,
  reserveMany,
  setUsed,
  tryReserve,
  workspaceOn,
} from './helpers.ts';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp({ ENTERPRISE_MONTHLY_CREDITS: '7' });
  owner = await signupUser(t);
});
beforeEach(() => clockTo(midMonth(0)));
afterAll(async () => {
  clockTo(null);
  await t?.close();
});

describe('reserveCredit (docs/credits.md)', () => {
  it('one credit per reservation up to the Free allowance, then 403 credits_limit_exceeded', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    const at = midMonth(0);
    for (let i = 1; i <= 50; i++) {
      const r = await reserveCredit(t.ctx, ws);
      expect(r).toEqual({ workspaceId: ws, periodStart: monthStart(at), used: i, limit: 50 });
    }
    const err = await reserveCredit(t.ctx, ws).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('credits_limit_exceeded');
    expect((err as AppError).status).toBe(403);
    expect((err as AppError).details).toEqual({ limit: 50, resetsAt: nextMonthStart(at).toISOString() });
    expect((await creditsRow(t, ws))?.used).toBe(50);
    expect(await creditSummary(t.ctx, ws)).toEqual({
      limit: 50,
      used: 50,
      remaining: 0,
      resetsAt: nextMonthStart(at).toISOString(),
    });
  });

  it('creates the row lazily: a workspace that never chatted has its full allowance', async () => {
    const ws = await workspaceOn(t, owner, 'pro');
    expect(await creditsRow(t, ws)).toBeUndefined();
    expect(await creditSummary(t.ctx, ws)).toMatchObject({ limit: 1200, used: 0, remaining: 1200 });
    await reserveCredit(t.ctx, ws);
    expect(await creditsRow(t, ws)).toMatchObject({
      used: 1,
      periodStart: monthStart(midMonth(0)),
      periodEnd: nextMonthStart(midMonth(0)),
    });
  });

  it('an unknown workspace is a 404, and nothing is written', async () => {
    const err = await reserveCredit(t.ctx, 'ws_missing').catch((e: unknown) => e);
    expect((err as AppError).code).toBe('not_found:api');
    expect(await creditsRow(t, 'ws_missing')).toBeUndefined();
  });

  it('refund gives the credit back, never below zero', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    const a = await reserveCredit(t.ctx, ws);
    const b = await reserveCredit(t.ctx, ws);
    await refundCredit(t.ctx, b);
    expect((await creditsRow(t, ws))?.used).toBe(1);
    await refundCredit(t.ctx, a);
    await refundCredit(t.ctx, a); // a double refund must not go negative
    expect((await creditsRow(t, ws))?.used).toBe(0);
  });

  it('a refund lets a blocked workspace take the credit again', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    await setUsed(t, ws, 49);
    const last = await reserveCredit(t.ctx, ws);
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    await refundCredit(t.ctx, last);
    expect(await tryReserve(t, ws)).toBe('ok');
  });

  it('a refund of last month never touches the new period', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    const old = await reserveCredit(t.ctx, ws);
    clockTo(midMonth(1));
    await reserveCredit(t.ctx, ws);
    await refundCredit(t.ctx, old);
    expect(await creditsRow(t, ws)).toMatchObject({ used: 1, periodStart: monthStart(midMonth(1)) });
  });
});

describe('monthly period (calendar month, UTC; no rollover)', () => {
  it('a blocked workspace resumes in the next month at zero, with the same allowance', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    await setUsed(t, ws, 50);
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    clockTo(midMonth(1));
    expect(await creditSummary(t.ctx, ws)).toEqual({
      limit: 50,
      used: 0,
      remaining: 50,
      resetsAt: nextMonthStart(midMonth(1)).toISOString(),
    });
    const r = await reserveCredit(t.ctx, ws);
    expect(r).toMatchObject({ used: 1, limit: 50, periodStart: monthStart(midMonth(1)) });
    expect(await creditsRow(t, ws)).toMatchObject({ used: 1, periodEnd: nextMonthStart(midMonth(1)) });
  });

  it('unused credits do not roll over', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    await reserveMany(t, ws, 3);
    clockTo(midMonth(1));
    expect(await creditSummary(t.ctx, ws)).toMatchObject({ limit: 50, used: 0, remaining: 50 });
  });

  it('the period turns at 00:00 UTC on the 1st', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    const boundary = nextMonthStart(midMonth(0));
    // A minute before (the clock keeps running while the test does), then exactly at the turn.
    clockTo(new Date(boundary.getTime() - 60_000));
    await setUsed(t, ws, 50);
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    clockTo(boundary);
    const r = await reserveCredit(t.ctx, ws);
    expect(r).toMatchObject({ used: 1, periodStart: boundary });
  });

  it('a counter several months old starts the current month', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    await setUsed(t, ws, 50);
    clockTo(midMonth(5));
    expect(await reserveCredit(t.ctx, ws)).toMatchObject({ used: 1, periodStart: monthStart(midMonth(5)) });
  });
});

describe('plan allowances (Free 50, Pro and trial 1,200, Enterprise custom)', () => {
  const config = { enterpriseMonthlyCredits: 100_000 };
  const base = { trialEndsAt: null, billingStatus: 'active', monthlyCredits: null };

  it('monthlyCreditsFor follows the plan in force', () => {
    const future = new Date(now().getTime() + 86_400_000);
    const past = new Date(now().getTime() - 86_400_000);
    expect(monthlyCreditsFor({ ...base, plan: 'free' }, config)).toBe(50);
    expect(monthlyCreditsFor({ ...base, plan: 'pro' }, config)).toBe(1200);
    const trial = { ...base, plan: 'pro' as const, billingStatus: 'trialing' };
    expect(monthlyCreditsFor({ ...trial, trialEndsAt: future }, config)).toBe(1200);
    expect(monthlyCreditsFor({ ...trial, trialEndsAt: past }, config)).toBe(50);
    expect(monthlyCreditsFor({ ...base, plan: 'enterprise' }, config)).toBe(100_000);
    expect(monthlyCreditsFor({ ...base, plan: 'enterprise', monthlyCredits: 250 }, config)).toBe(250);
    // The agreed figure is Enterprise's custom allowance; Free and Pro keep the table's.
    expect(monthlyCreditsFor({ ...base, plan: 'pro', monthlyCredits: 5 }, config)).toBe(1200);
  });

  it('each plan reserves up to its own limit', async () => {
    const cases = [
      { ws: await workspaceOn(t, owner, 'free'), limit: 50 },
      { ws: await workspaceOn(t, owner, 'pro'), limit: 1200 },
      { ws: await workspaceOn(t, owner, 'pro', { trial: false }), limit: 1200 },
      { ws: await workspaceOn(t, owner, 'enterprise'), limit: 7 }, // ENTERPRISE_MONTHLY_CREDITS
      { ws: await workspaceOn(t, owner, 'enterprise', { monthlyCredits: 12 }), limit: 12 },
    ];
    for (const c of cases) {
      await setUsed(t, c.ws, c.limit - 1);
      expect(await reserveCredit(t.ctx, c.ws)).toMatchObject({ used: c.limit, limit: c.limit });
      expect(await tryReserve(t, c.ws)).toBe('credits_limit_exceeded');
    }
  });

  it('a passed trial counts as Free at once, before any job rewrites the row', async () => {
    const ws = await workspaceOn(t, owner, 'pro');
    await setUsed(t, ws, 60);
    expect(await tryReserve(t, ws)).toBe('ok');
    await t.ctx.db
      .update(workspaces)
      .set({ trialEndsAt: new Date(midMonth(0).getTime() - 1000) })
      .where(eq(workspaces.id, ws));
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    expect(await creditSummary(t.ctx, ws)).toMatchObject({ limit: 50, used: 61, remaining: 0 });
  });

  it('an Enterprise figure of zero refuses every reply and writes nothing', async () => {
    const ws = await workspaceOn(t, owner, 'enterprise', { monthlyCredits: 0 });
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    expect(await creditsRow(t, ws)).toBeUndefined();
  });
});

describe('upgrade and downgrade (docs/credits.md)', () => {
  it('an upgrade raises the limit at once: a blocked workspace resumes', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    await setUsed(t, ws, 50);
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    await setPlan(t, ws, 'pro');
    expect(await reserveCredit(t.ctx, ws)).toMatchObject({ used: 51, limit: 1200 });
    expect(await creditSummary(t.ctx, ws)).toMatchObject({ limit: 1200, used: 51, remaining: 1149 });
  });

  it('a lower limit than the usage blocks without touching the counter', async () => {
    const ws = await workspaceOn(t, owner, 'pro', { trial: false });
    await setUsed(t, ws, 100);
    await setPlan(t, ws, 'free');
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    expect((await creditsRow(t, ws))?.used).toBe(100);
    expect(await creditSummary(t.ctx, ws)).toMatchObject({ limit: 50, used: 100, remaining: 0 });
  });
});
