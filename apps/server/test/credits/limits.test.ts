import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { creditsResetJob, resetStep } from '../../src/features/credits/credits.jobs.ts';
import { creditSummary, reserveCredit } from '../../src/features/credits/credits.service.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { setPlan, setUsed } from '../support/world.ts';
import {
  clockTo,
  creditsRow,
  midMonth,
  nextMonthStart,
  noticesOf,
  tryReserve,
  workspaceOn,
} from './helpers.ts';

/**
 * The edges of the credit rules (src/features/credits/): an agreed allowance of zero, a usage
 * above a lowered limit, the instant a period ends, the 80% threshold rounded up on a limit where
 * 80% is not whole, and one pass of the monthly reset (docs/credits.md).
 */
let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await signupUser(t);
});
beforeEach(() => clockTo(midMonth(0)));
afterAll(async () => {
  clockTo(null);
  await t?.close();
});

describe('credit limits at their edges', () => {
  it('an Enterprise allowance of 0 refuses every reply and stores no counter', async () => {
    const ws = await workspaceOn(t, owner, 'enterprise', { trial: false, monthlyCredits: 0 });
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    expect(await creditsRow(t, ws)).toBeUndefined();
    expect(await creditSummary(t.ctx, ws)).toMatchObject({ limit: 0, used: 0, remaining: 0 });
  });

  it('a usage above a lowered limit leaves 0 remaining, never a negative figure', async () => {
    const ws = await workspaceOn(t, owner, 'pro', { trial: false });
    await setUsed(t, ws, 100);
    await setPlan(t, ws, 'free');
    expect(await creditSummary(t.ctx, ws)).toMatchObject({ limit: 50, used: 100, remaining: 0 });
  });

  it('at the very instant the period ends, the summary reads a new period at zero', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    await setUsed(t, ws, 30);
    const end = nextMonthStart(midMonth(0));
    const before = new Date(end.getTime() - 1);
    expect(await creditSummary(t.ctx, ws, undefined, before)).toEqual({
      limit: 50,
      used: 30,
      remaining: 20,
      resetsAt: end.toISOString(),
    });
    expect(await creditSummary(t.ctx, ws, undefined, end)).toEqual({
      limit: 50,
      used: 0,
      remaining: 50,
      resetsAt: nextMonthStart(end).toISOString(),
    });
  });

  it('80% of 8 is 6.4: the warning comes at 7 used, not at 6', async () => {
    const ws = await workspaceOn(t, owner, 'enterprise', { trial: false, monthlyCredits: 8 });
    await setUsed(t, ws, 5);
    await reserveCredit(t.ctx, ws); // 6 of 8
    expect(await noticesOf(t, ws, 'credits.warning')).toHaveLength(0);
    await reserveCredit(t.ctx, ws); // 7 of 8
    expect(await noticesOf(t, ws, 'credits.warning')).toHaveLength(1);
    await reserveCredit(t.ctx, ws); // 8 of 8
    expect(await noticesOf(t, ws, 'credits.exhausted')).toHaveLength(1);
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
  });
});

describe('one pass of the monthly reset', () => {
  it('says whether more rows may be due: not when the batch was not full', async () => {
    const ws = await workspaceOn(t, owner, 'free');
    await setUsed(t, ws, 9);
    clockTo(midMonth(1));
    expect(await resetStep(t.ctx)).toBe(false);
    expect((await creditsRow(t, ws))?.used).toBe(0);
    expect(await creditsResetJob(t.ctx).step()).toBe(false);
  });
});
