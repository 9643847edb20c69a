import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contacts, workspaceCredits } from '../../src/db/schema/index.ts';
import { reserveCredit } from '../../src/features/credits/credits.service.ts';
import { newId } from '../../src/lib/ids.ts';
import { mailsTo } from '../account/mail.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { addMember, setPlan, setUsed } from '../support/world.ts';
import {
  clockTo,
  creditsRow,
  midMonth,
  monthStart,
  nextMonthStart,
  noticesOf,
  reserveMany,
  tryReserve,
  workspaceOn,
} from './helpers.ts';

let t: TestApp;
/** What the alerts logged: a claim lost to another reply, or nothing to send, is no error. */
const errors: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ SESSION_TTL_DAYS: '365' });
  const ignore = () => undefined;
  t.ctx.log.attach({ info: ignore, warn: ignore, error: (_obj, msg) => errors.push(msg) });
});
beforeEach(() => clockTo(midMonth(0)));
afterAll(async () => {
  clockTo(null);
  await t?.close();
});

type Team = { ws: string; owner: TestUser; admin: TestUser; member: TestUser };

/** A fresh workspace with an owner, an admin (both alerted) and a member (not alerted). */
async function team(plan: 'free' | 'pro' | 'enterprise', monthlyCredits?: number): Promise<Team> {
  const [owner, admin, member] = await Promise.all([signupUser(t), signupUser(t), signupUser(t)]);
  const ws = await workspaceOn(t, owner, plan, { trial: false, monthlyCredits });
  await addMember(t, ws, admin, 'admin');
  await addMember(t, ws, member, 'member');
  return { ws, owner, admin, member };
}

const count = async (ws: string, type: string) => (await noticesOf(t, ws, type)).length;
const mailCount = (user: TestUser, subject: string) =>
  mailsTo(t, user.email).filter((m) => m.includes(subject)).length;

describe('credit alerts at 80% and 100% (docs/credits.md)', () => {
  it('each alert goes once per period to owners and admins, in the app and by email', async () => {
    const { ws, owner, admin, member } = await team('free');
    expect(await reserveMany(t, ws, 39)).toBe(39);
    expect(await count(ws, 'credits.warning')).toBe(0);

    await reserveCredit(t.ctx, ws); // 40 of 50 = 80%
    const warnings = await noticesOf(t, ws, 'credits.warning');
    expect(warnings.map((n) => n.userId).sort()).toEqual([owner.id, admin.id].sort());
    expect(warnings[0]?.title).toBe("Acme: 80% of this month's AI credits used");
    expect(warnings[0]?.body).toContain('The workspace Acme has used 40 of its 50');

    expect(await reserveMany(t, ws, 9)).toBe(9); // 49
    expect(await count(ws, 'credits.warning')).toBe(2);
    expect(await count(ws, 'credits.exhausted')).toBe(0);

    await reserveCredit(t.ctx, ws); // 50 of 50
    const exhausted = await noticesOf(t, ws, 'credits.exhausted');
    expect(exhausted.map((n) => n.userId).sort()).toEqual([owner.id, admin.id].sort());
    expect(exhausted[0]?.body).toContain('Conversations and data are untouched');

    // Refused replies do not repeat the alert.
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    expect(await count(ws, 'credits.exhausted')).toBe(2);
    expect(await count(ws, 'credits.warning')).toBe(2);

    // Email after commit, one of each per recipient; none for plain members.
    for (const user of [owner, admin]) {
      await waitFor(() => mailCount(user, 'monthly AI credits used up') === 1, 10_000, 'exhausted mail');
      expect(mailCount(user, "80% of this month's AI credits used")).toBe(1);
    }
    expect(mailsTo(t, member.email)).toHaveLength(0);
    expect((await count(ws, 'credits.warning')) + (await count(ws, 'credits.exhausted'))).toBe(4);
    expect(errors).toEqual([]);
  });

  it('a new period sends the alerts again', async () => {
    const { ws } = await team('free');
    await setUsed(t, ws, 49);
    await reserveCredit(t.ctx, ws);
    expect(await count(ws, 'credits.exhausted')).toBe(2);
    expect(await count(ws, 'credits.warning')).toBe(0); // jumped past 80%: only the one that matters

    clockTo(midMonth(1));
    expect(await reserveMany(t, ws, 40)).toBe(40);
    expect(await count(ws, 'credits.warning')).toBe(2);
    expect(await reserveMany(t, ws, 10)).toBe(10);
    expect(await count(ws, 'credits.exhausted')).toBe(4);
    expect(await creditsRow(t, ws)).toMatchObject({
      alert80For: monthStart(midMonth(1)),
      alert100For: monthStart(midMonth(1)),
    });
  });

  it('a limit of one sends only the 100% alert', async () => {
    const { ws } = await team('enterprise', 1);
    await reserveCredit(t.ctx, ws);
    expect(await count(ws, 'credits.exhausted')).toBe(2);
    expect(await count(ws, 'credits.warning')).toBe(0);
  });

  it('80% rounds up: 960 of Pro 1,200', async () => {
    const { ws } = await team('pro');
    await setUsed(t, ws, 958);
    await reserveCredit(t.ctx, ws); // 959
    expect(await count(ws, 'credits.warning')).toBe(0);
    await reserveCredit(t.ctx, ws); // 960
    expect(await count(ws, 'credits.warning')).toBe(2);
  });

  it('a downgrade below the usage sends the 100% alert once, on the first refused reply', async () => {
    const { ws } = await team('pro');
    await setUsed(t, ws, 100);
    await setPlan(t, ws, 'free');
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    expect(await tryReserve(t, ws)).toBe('credits_limit_exceeded');
    expect(await count(ws, 'credits.exhausted')).toBe(2);
  });

  it('an upgrade does not repeat an alert already sent this period', async () => {
    const { ws } = await team('free');
    await setUsed(t, ws, 39);
    await reserveCredit(t.ctx, ws);
    expect(await count(ws, 'credits.warning')).toBe(2);
    await setPlan(t, ws, 'pro');
    await setUsed(t, ws, 959);
    await reserveCredit(t.ctx, ws);
    expect(await count(ws, 'credits.warning')).toBe(2);
  });
});

describe('scheduled monthly reset (docs/credits.md)', () => {
  it('starts the new period at zero for ended rows only; its data untouched', async () => {
    const ended = await team('free');
    const current = await team('free');
    await setUsed(t, ended.ws, 50);
    await reserveCredit(t.ctx, ended.ws).catch(() => undefined);
    expect(await count(ended.ws, 'credits.exhausted')).toBe(2);
    const contactId = newId('ct');
    await t.ctx.db.insert(contacts).values({ id: contactId, workspaceId: ended.ws, name: 'Kept' });

    clockTo(midMonth(1));
    await setUsed(t, current.ws, 7); // already in the new month: must stay as it is
    const scheduler = t.startJobs(['credits-reset'], { 'credits-reset': 50 });
    try {
      await waitFor(async () => (await creditsRow(t, ended.ws))?.used === 0, 10_000, 'the reset');
    } finally {
      await scheduler.stop();
    }
    expect(await creditsRow(t, ended.ws)).toMatchObject({
      used: 0,
      periodStart: monthStart(midMonth(1)),
      periodEnd: nextMonthStart(midMonth(1)),
    });
    expect((await creditsRow(t, current.ws))?.used).toBe(7);
    // Nothing else is cleared: the workspace's data and its notices stay.
    expect(await t.ctx.db.select().from(contacts).where(eq(contacts.id, contactId))).toHaveLength(1);
    expect(await count(ended.ws, 'credits.exhausted')).toBe(2);
    // The new period can alert again.
    await setUsed(t, ended.ws, 49);
    await reserveCredit(t.ctx, ended.ws);
    expect(await count(ended.ws, 'credits.exhausted')).toBe(4);
  });

  it('wake() runs a pass at once; stop() ends the loop', async () => {
    const a = await team('free');
    await setUsed(t, a.ws, 12);
    const scheduler = t.startJobs(['credits-reset'], { 'credits-reset': 60_000 });
    clockTo(midMonth(2));
    t.ctx.jobs.wake('credits-reset');
    try {
      await waitFor(async () => (await creditsRow(t, a.ws))?.used === 0, 10_000, 'the woken reset');
    } finally {
      await scheduler.stop();
    }
    const [row] = await t.ctx.db
      .select()
      .from(workspaceCredits)
      .where(eq(workspaceCredits.workspaceId, a.ws));
    expect(row?.periodStart).toEqual(monthStart(midMonth(2)));
  });
});
