import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { events, notifications, slaPolicies } from '../../src/db/schema/index.ts';
import { recordDueBreaches } from '../../src/features/sla/sla.jobs.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { inbox } from '../inbox/helpers.ts';
import { type InboxApp, startInbox, visitorOf } from '../inbox/setup.ts';
import { addRule } from '../steering/helpers.ts';
import { widgetAssistant, widgetChat } from '../widget/helpers.ts';

/**
 * docs/sla.md "Clocks" and "Breaches", through the running server with the clock moved: the
 * policy chosen at handoff (priority, channel, labels), due times in business hours across a
 * weekend and a holiday, a person's reply meeting the first response, a customer's next message
 * starting the next-response clock, each breach recorded once (however many passes run at once)
 * with `sla.breached` and a notice, the inbox's `slaBreached` filter, and closing stopping it.
 */
let app: InboxApp;
const TRIGGER = 'a human please';
/** Friday 4 December 2026, 16:30 in Paris (UTC+1). */
const FRIDAY_1630 = Date.parse('2026-12-04T15:30:00Z');
const moveTo = (iso: string | number) => setClockOffset(new Date(iso).getTime() - Date.now());

beforeAll(async () => {
  app = await startInbox();
  await addRule(app.t, app.w.owner, app.asst, {
    name: 'people',
    kind: 'handoff',
    text: 'A person.',
    triggers: [TRIGGER],
  });
  const day = [{ open: '09:00', close: '17:00' }];
  const hours = await app.t.request({
    method: 'PUT',
    url: `/api/workspaces/${app.w.ws}/business-hours`,
    headers: app.w.owner.headers,
    payload: {
      timezone: 'Europe/Paris',
      week: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: [], sun: [] },
      holidays: ['2026-12-07'],
      outsideHoursMessage: 'We are away.',
    },
  });
  expect(hours.statusCode, hours.body).toBe(200);
});
afterAll(() => app.t.close());
afterEach(() => setClockOffset(0));

async function policy(fields: Partial<typeof slaPolicies.$inferInsert> & { priority: number }) {
  const id = newId('sla');
  await app.t.ctx.db
    .insert(slaPolicies)
    .values({ id, workspaceId: app.w.ws, name: `Policy ${id.slice(-4)}`, ...fields });
  return id;
}

/** The conversation, its SLA times to the minute (the clock keeps running after a move). */
async function conversation(id: string) {
  const c = (await inbox(app.t, app.w.owner, 'GET', `/${id}`)).json().data;
  const minute = (iso: string | null) => (iso ? `${iso.slice(0, 16)}Z` : null);
  if (!c.sla) return c;
  const { sla } = c;
  return {
    ...c,
    sla: {
      ...sla,
      firstResponseDueAt: minute(sla.firstResponseDueAt),
      nextResponseDueAt: minute(sla.nextResponseDueAt),
      resolutionDueAt: minute(sla.resolutionDueAt),
      breaches: sla.breaches.map((b: { kind: string; at: string }) => ({ kind: b.kind, at: minute(b.at) })),
    },
  };
}

describe('SLA clocks', () => {
  it('chosen at handoff, counted in business hours; breached once; met by replies; stopped by closing', async () => {
    const standard = await policy({
      priority: 10,
      firstResponseMinutes: 60,
      nextResponseMinutes: 30,
      resolutionMinutes: 480,
    });
    await policy({ priority: 5, firstResponseMinutes: 5, appliesTo: { channels: ['sms'] } });
    moveTo(FRIDAY_1630);
    const { s, id } = await visitorOf(app.t, app.asst, TRIGGER);
    // 30 minutes on Friday, none on the weekend or Monday's holiday, 30 on Tuesday from 09:00.
    expect((await conversation(id)).sla).toEqual({
      policyId: standard,
      firstResponseDueAt: '2026-12-08T08:30Z',
      nextResponseDueAt: null,
      resolutionDueAt: '2026-12-08T15:30Z',
      breaches: [],
    });

    // Tuesday 09:31: the first response is late; many passes at once record it once.
    moveTo('2026-12-08T08:31:00Z');
    await Promise.all(Array.from({ length: 6 }, () => recordDueBreaches(app.t.ctx)));
    await recordDueBreaches(app.t.ctx);
    const late = await conversation(id);
    expect(late.sla.breaches).toEqual([{ kind: 'first_response', at: '2026-12-08T08:30Z' }]);
    const breached = (await app.t.ctx.db.select().from(events).where(eq(events.type, 'sla.breached'))).filter(
      (e) => (e.data as { conversationId: string }).conversationId === id,
    );
    expect(breached).toHaveLength(1);
    expect(breached[0]!.data).toMatchObject({
      kind: 'first_response',
      dueAt: expect.stringMatching(/^2026-12-08T08:30/),
    });
    // Nobody held it: the owners and admins were told, once each.
    const told = await app.t.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.type, 'sla.breached'), eq(notifications.workspaceId, app.w.ws)));
    expect(
      told
        .filter((n) => n.body.includes(id))
        .map((n) => n.userId)
        .sort(),
    ).toEqual([app.w.owner.id, app.w.admin.id].sort());
    const listed = await app.t.request({
      method: 'GET',
      url: `/api/inbox/conversations?workspaceId=${app.w.ws}&slaBreached=true`,
      headers: app.w.guest.headers,
    });
    expect(listed.json().data.map((c: { id: string }) => c.id)).toEqual([id]);

    // A person answers: the first response is met; the customer writes again at 10:00: 30 minutes.
    await inbox(app.t, app.w.member, 'POST', `/${id}/handoff`);
    await inbox(app.t, app.w.member, 'POST', `/${id}/messages`, { content: 'On it.' });
    expect((await conversation(id)).sla.firstResponseDueAt).toBeNull();
    moveTo('2026-12-08T09:00:00Z');
    expect((await widgetChat(app.t, app.asst, s, 'Any news?')).status).toBe(200);
    await recordDueBreaches(app.t.ctx);
    expect((await conversation(id)).sla.nextResponseDueAt).toBe('2026-12-08T09:30Z');
    moveTo('2026-12-08T09:45:00Z');
    await recordDueBreaches(app.t.ctx);
    await recordDueBreaches(app.t.ctx);
    const next = await conversation(id);
    expect(next.sla.breaches.map((b: { kind: string }) => b.kind)).toEqual([
      'first_response',
      'next_response',
    ]);
    // The assignee is told now.
    const mine = await app.t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, app.w.member.id));
    expect(mine.filter((n) => n.type === 'sla.breached' && n.body.includes(id))).toHaveLength(1);
    // The reply meets it; closing stops the resolution clock, the breaches stay on record.
    await inbox(app.t, app.w.member, 'POST', `/${id}/messages`, { content: 'Done.' });
    await inbox(app.t, app.w.member, 'POST', `/${id}/close`);
    moveTo('2026-12-09T09:00:00Z');
    await recordDueBreaches(app.t.ctx);
    expect((await conversation(id)).sla).toEqual({
      policyId: standard,
      firstResponseDueAt: null,
      nextResponseDueAt: null,
      resolutionDueAt: null,
      breaches: next.sla.breaches,
    });
  });

  it('the policy for its labels wins by priority; none applies: no clocks', async () => {
    await app.t.ctx.db.delete(slaPolicies).where(eq(slaPolicies.workspaceId, app.w.ws));
    const vipLabel = await app.t.request({
      method: 'POST',
      url: `/api/workspaces/${app.w.ws}/labels`,
      headers: app.w.owner.headers,
      payload: { name: 'VIP', color: '#aa0000' },
    });
    const vip = vipLabel.json().data.id as string;
    const fast = await policy({
      priority: 1,
      firstResponseMinutes: 15,
      businessHoursOnly: false,
      appliesTo: { labelIds: [vip] },
    });
    moveTo(FRIDAY_1630);
    const plain = await visitorOf(app.t, app.asst, TRIGGER);
    expect((await conversation(plain.id)).sla).toBeNull();

    const labelled = await visitorOf(app.t, app.asst, 'Hello there');
    const set = await inbox(app.t, app.w.member, 'PUT', `/${labelled.id}/labels`, { labelIds: [vip] });
    expect(set.statusCode, set.body).toBe(200);
    await inbox(app.t, app.w.member, 'POST', `/${labelled.id}/handoff`);
    expect((await conversation(labelled.id)).sla).toMatchObject({
      policyId: fast,
      firstResponseDueAt: '2026-12-04T15:45Z',
      resolutionDueAt: null,
    });
  });

  it('sort=sla: the soonest due first, those with no clock last; pages by its own cursor', async () => {
    await app.t.ctx.db.delete(slaPolicies).where(eq(slaPolicies.workspaceId, app.w.ws));
    const asst = await widgetAssistant(app.t, app.w.owner, app.w.ws);
    await addRule(app.t, app.w.owner, asst, {
      name: 'people',
      kind: 'handoff',
      text: 'A person.',
      triggers: [TRIGGER],
    });
    const none = (await visitorOf(app.t, asst, TRIGGER)).id;
    await policy({ priority: 1, firstResponseMinutes: 60, businessHoursOnly: false });
    const ids: string[] = [];
    for (const minutes of [0, 10, 5]) {
      moveTo(FRIDAY_1630 + minutes * 60_000);
      ids.push((await visitorOf(app.t, asst, TRIGGER)).id);
    }
    const list = (cursor?: string) =>
      app.t.request({
        method: 'GET',
        url: `/api/inbox/conversations?workspaceId=${app.w.ws}&assistantId=${asst}&sort=sla&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        headers: app.w.member.headers,
      });
    const firstRes = await list();
    expect(firstRes.statusCode, firstRes.body).toBe(200);
    const first = firstRes.json();
    const second = (await list(first.nextCursor)).json();
    expect([...first.data, ...second.data].map((c: { id: string }) => c.id)).toEqual([
      ids[0],
      ids[2],
      ids[1],
      none,
    ]);
    expect(second.nextCursor).toBeNull();
    // With a label: the label's rows in the same order (kept by migration 0027's trigger), paged alike;
    // a clock that changes moves its rows too.
    const tag = (
      await app.t.request({
        method: 'POST',
        url: `/api/workspaces/${app.w.ws}/labels`,
        headers: app.w.owner.headers,
        payload: { name: 'Sorted', color: '#00aa00' },
      })
    ).json().data.id as string;
    for (const id of [none, ids[1]!, ids[0]!]) {
      expect((await inbox(app.t, app.w.member, 'PUT', `/${id}/labels`, { labelIds: [tag] })).statusCode).toBe(
        200,
      );
    }
    const labelled = async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (
          await app.t.request({
            method: 'GET',
            url: `/api/inbox/conversations?workspaceId=${app.w.ws}&labelId=${tag}&sort=sla&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
            headers: app.w.member.headers,
          })
        ).json();
        seen.push(...page.data.map((c: { id: string }) => c.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    expect(await labelled()).toEqual([ids[0], ids[1], none]);
    await inbox(app.t, app.w.member, 'POST', `/${ids[1]}/messages`, { content: 'Answered.' });
    await inbox(app.t, app.w.member, 'POST', `/${ids[0]}/messages`, { content: 'Answered.' });
    await inbox(app.t, app.w.member, 'POST', `/${ids[0]}/close`);
    // ids[1]'s first response is met (no clock left), ids[0] is closed: both join the tail, by id.
    expect(await labelled()).toEqual([none, ids[1], ids[0]].sort());

    // A cursor of the other order is refused.
    const recent = (
      await app.t.request({
        method: 'GET',
        url: `/api/inbox/conversations?workspaceId=${app.w.ws}&limit=1`,
        headers: app.w.member.headers,
      })
    ).json();
    expect((await list(recent.nextCursor)).statusCode).toBe(400);
    const bad = await app.t.request({
      method: 'GET',
      url: `/api/inbox/conversations?workspaceId=${app.w.ws}&sort=due`,
      headers: app.w.member.headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});
