import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversations, memberships, notifications } from '../../src/db/schema/index.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { addRule } from '../steering/helpers.ts';
import type { TestUser } from '../support/factories.ts';
import { waitFor } from '../support/receiver.ts';
import { type SmtpStandIn, startSmtpServer } from '../support/smtp-server.ts';
import { changesOf, conversationEvents, inbox, openSse, type SseStream } from './helpers.ts';
import { type InboxApp, startInbox, visitorOf } from './setup.ts';

/**
 * docs/inbox.md "Auto-assignment": with it on, a conversation handed to a person without an
 * assignee goes to the online owner, admin or member present in the inbox with the fewest
 * conversations in handoff, below the maximum (ties: assigned longest ago); it waits when nobody
 * can take it and is given out, longest waiting first, when someone can. A person's assignment,
 * or unassignment, is never changed. Handoffs come from a guidance rule (no model call).
 */
let app: InboxApp;
const streams: Array<{ s: SseStream; user: TestUser }> = [];
const TRIGGER = 'a human please';
const CSAT_OFF = { enabled: false, question: 'How would you rate the help you received?' };

let smtp: SmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startInbox({ SMTP_URL: smtp.url, MAIL_FROM: 'Parley <no-reply@parley.test>' });
  await addRule(app.t, app.w.owner, app.asst, {
    name: 'people',
    kind: 'handoff',
    text: 'A person will answer.',
    triggers: [TRIGGER],
  });
});
afterAll(async () => {
  for (const { s } of streams) s.close();
  await app.t.close();
  await smtp.close();
});
afterEach(() => setClockOffset(0));

const settings = (user: TestUser, body?: Record<string, unknown>, ws = app.w.ws) =>
  app.t.request({
    method: body ? 'PUT' : 'GET',
    url: `/api/workspaces/${ws}/inbox-settings`,
    headers: user.headers,
    ...(body ? { payload: body } : {}),
  });

const availability = (user: TestUser, status: string) =>
  app.t.request({
    method: 'PUT',
    url: `/api/workspaces/${app.w.ws}/members/me/availability`,
    headers: user.headers,
    payload: { status },
  });

/** Opens `user`'s inbox stream (they are present from then on) and waits for it to be counted. */
async function present(user: TestUser) {
  const s = await openSse(`${app.base}/api/inbox/stream?workspaceId=${app.w.ws}`, user.headers);
  streams.push({ s, user });
  await s.until((e) => e.type === 'ready');
  await waitFor(async () => (await seenAt(user)) !== null, 5000, 'inbox presence stored');
  return s;
}

async function seenAt(user: TestUser) {
  const [m] = await app.t.ctx.db
    .select({ at: memberships.inboxSeenAt })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, app.w.ws), eq(memberships.userId, user.id)));
  return m?.at ?? null;
}

/** A conversation a visitor asked a person for; returns its id. */
async function handoff(): Promise<string> {
  const { id } = await visitorOf(app.t, app.asst, TRIGGER);
  return id;
}

async function assigneeOf(id: string) {
  const [c] = await app.t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
  return c?.assigneeId ?? null;
}

/** Closes every conversation of the workspace and resets who is present: each test starts empty. */
beforeEach(async () => {
  const open = await app.t.ctx.db.select().from(conversations).where(eq(conversations.workspaceId, app.w.ws));
  for (const c of open.filter((c) => c.status !== 'closed'))
    await inbox(app.t, app.w.owner, 'POST', `/${c.id}/close`);
  // A closed stream stores its member's last presence: wait for that write before clearing it.
  const closedAt = new Date();
  for (const { s, user } of streams.splice(0)) {
    if (s.res.destroyed) continue;
    s.close();
    await waitFor(
      async () => ((await seenAt(user))?.getTime() ?? 0) >= closedAt.getTime() - 5,
      5000,
      'the closed stream stores its presence',
    );
  }
  await app.t.ctx.db
    .update(memberships)
    .set({ inboxSeenAt: null, lastAssignedAt: null, availability: 'offline' })
    .where(eq(memberships.workspaceId, app.w.ws));
  expect((await settings(app.w.owner, { autoAssign: false, maxOpenPerAgent: 10 })).statusCode).toBe(200);
});

describe('GET/PUT /api/workspaces/:ws/inbox-settings', () => {
  it('defaults; owners and admins change what they name; every member reads', async () => {
    expect((await settings(app.w.guest)).json()).toEqual({
      data: { autoAssign: false, maxOpenPerAgent: 10, csat: CSAT_OFF },
    });
    const r = await settings(app.w.admin, { maxOpenPerAgent: 3 });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toEqual({ autoAssign: false, maxOpenPerAgent: 3, csat: CSAT_OFF });
    expect((await settings(app.w.owner, { autoAssign: true })).json().data).toEqual({
      autoAssign: true,
      maxOpenPerAgent: 3,
      csat: CSAT_OFF,
    });
    expect((await settings(app.w.member)).json().data).toEqual({
      autoAssign: true,
      maxOpenPerAgent: 3,
      csat: CSAT_OFF,
    });
  });

  it('members and guests may not change them (403); another workspace is not found (404)', async () => {
    expect((await settings(app.w.member, { autoAssign: true })).statusCode).toBe(403);
    expect((await settings(app.w.guest, { autoAssign: true })).statusCode).toBe(403);
    expect((await settings(app.w.outsider, { autoAssign: true })).statusCode).toBe(404);
    expect((await settings(app.w.outsider)).statusCode).toBe(404);
    expect((await settings(app.w.owner)).json().data.autoAssign).toBe(false);
  });

  it.each([
    [{}, 'autoAssign'],
    [{ maxOpenPerAgent: 0 }, 'maxOpenPerAgent'],
    [{ maxOpenPerAgent: 101 }, 'maxOpenPerAgent'],
    [{ maxOpenPerAgent: 2.5 }, 'maxOpenPerAgent'],
    [{ maxOpenPerAgent: '5' }, 'maxOpenPerAgent'],
    [{ autoAssign: 'yes' }, 'autoAssign'],
    [{ autoAssign: true, everyone: true }, ''],
  ])('%j → 400 naming the field', async (body, field) => {
    const r = await settings(app.w.owner, body);
    expect(r.statusCode, r.body).toBe(400);
    if (field) expect(JSON.stringify(r.json().error.details ?? r.json())).toContain(field);
    expect((await settings(app.w.owner)).json().data).toEqual({
      autoAssign: false,
      maxOpenPerAgent: 10,
      csat: CSAT_OFF,
    });
  });
});

describe('auto-assignment', () => {
  it('off: a handoff waits unassigned', async () => {
    await availability(app.w.member, 'online');
    await present(app.w.member);
    const id = await handoff();
    expect(await assigneeOf(id)).toBeNull();
  });

  it('on: goes to the online member present in the inbox, by the system, with its event and notice', async () => {
    await settings(app.w.owner, { autoAssign: true });
    await availability(app.w.member, 'online');
    const stream = await present(app.w.member);
    const id = await handoff();
    await waitFor(async () => (await assigneeOf(id)) === app.w.member.id, 5000, 'assigned');
    const last = (await changesOf(app.t, id)).at(-1);
    expect(last).toMatchObject({ kind: 'assign', actorType: 'system', assigneeId: app.w.member.id });
    const events = await conversationEvents(app.t, app.w.ws, 'conversation.updated', id);
    expect(events.at(-1)?.data).toMatchObject({
      change: 'assign',
      assigneeId: app.w.member.id,
      changedBy: { type: 'system', id: null },
    });
    await stream.until(
      (e) =>
        e.type === 'conversation.updated' &&
        (e.conversation as { assigneeId: string }).assigneeId === app.w.member.id,
      'the assignment on the inbox stream',
    );
    const notes = await app.t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, app.w.member.id));
    expect(notes.find((n) => n.type === 'conversation.assigned' && n.body.includes(id))).toBeTruthy();
    await waitFor(
      () => smtp.mails.some((m) => m.to.includes(app.w.member.email) && m.raw.includes(id)),
      5000,
      'the email',
    );
    // Email turned off for this kind: the next one is in the app only.
    const off = await app.t.request({
      method: 'PATCH',
      url: '/api/account/notification-preferences',
      headers: app.w.member.headers,
      payload: { 'conversation.assigned': { email: false } },
    });
    expect(off.statusCode, off.body).toBe(200);
    await inbox(app.t, app.w.owner, 'POST', `/${id}/close`);
    const next = await handoff();
    await waitFor(async () => (await assigneeOf(next)) === app.w.member.id, 5000, 'assigned');
    const noted = await app.t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, app.w.member.id));
    expect(noted.some((n) => n.body.includes(next))).toBe(true);
    // The first one's email came within the wait above; give this one the same chance to (wrongly) come.
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.some((m) => m.raw.includes(next))).toBe(false);
  });

  it('nobody present, busy, offline, a guest, or a stream closed over 5 minutes ago: it waits', async () => {
    await settings(app.w.owner, { autoAssign: true });
    await availability(app.w.member, 'online'); // never opened the inbox
    await availability(app.w.admin, 'busy');
    await present(app.w.admin);
    await availability(app.w.guest, 'online');
    await present(app.w.guest);
    const first = await handoff();
    expect(await assigneeOf(first)).toBeNull();
    // The owner was present 6 minutes ago (the stream closed then): not now; at 4 minutes: yes.
    await availability(app.w.owner, 'online');
    const owner = await present(app.w.owner);
    const opened = (await seenAt(app.w.owner))!.getTime();
    owner.close();
    await waitFor(
      async () => ((await seenAt(app.w.owner))?.getTime() ?? 0) > opened,
      5000,
      'stored at close',
    );
    setClockOffset(6 * 60_000);
    const second = await handoff();
    expect(await assigneeOf(second)).toBeNull();
    setClockOffset(4 * 60_000);
    const third = await handoff();
    await waitFor(
      async () => (await assigneeOf(first)) === app.w.owner.id,
      5000,
      'the longest waiting first',
    );
    expect(await assigneeOf(third)).toBe(app.w.owner.id);
    expect(await assigneeOf(second)).toBe(app.w.owner.id);
  });

  it('the fewest open first, ties by the one assigned longest ago; nobody past the maximum; waits, then the longest waiting first', async () => {
    await settings(app.w.owner, { autoAssign: true, maxOpenPerAgent: 2 });
    for (const u of [app.w.admin, app.w.member]) {
      await availability(u, 'online');
      await present(u);
    }
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await handoff());
    await waitFor(async () => (await assigneeOf(ids[3]!)) !== null, 5000, 'four assigned');
    const who = await Promise.all(ids.map(assigneeOf));
    // Alternating (each time the one with fewer, or assigned longest ago), two each, the fifth waits.
    expect(who.slice(0, 4).filter((u) => u === app.w.admin.id)).toHaveLength(2);
    expect(who.slice(0, 4).filter((u) => u === app.w.member.id)).toHaveLength(2);
    expect(who[0]).not.toBe(who[1]);
    expect(who[4]).toBeNull();
    const sixth = await handoff();
    expect(await assigneeOf(sixth)).toBeNull();
    // One of the member's conversations closes: the longest waiting (the fifth) goes to them.
    const membersFirst = ids[who.indexOf(app.w.member.id)]!;
    await inbox(app.t, app.w.member, 'POST', `/${membersFirst}/close`);
    await waitFor(async () => (await assigneeOf(ids[4]!)) === app.w.member.id, 5000, 'the fifth assigned');
    expect(await assigneeOf(sixth)).toBeNull();
    // Raising the maximum gives out the rest.
    await settings(app.w.owner, { maxOpenPerAgent: 3 });
    await waitFor(async () => (await assigneeOf(sixth)) === app.w.admin.id, 5000, 'the sixth assigned');
  });

  it('turning it on, or someone coming online, gives out what waits', async () => {
    await availability(app.w.member, 'online');
    await present(app.w.member);
    const waiting = await handoff();
    expect(await assigneeOf(waiting)).toBeNull();
    await settings(app.w.owner, { autoAssign: true, maxOpenPerAgent: 1 });
    await waitFor(
      async () => (await assigneeOf(waiting)) === app.w.member.id,
      5000,
      'assigned when turned on',
    );
    const next = await handoff();
    expect(await assigneeOf(next)).toBeNull();
    await present(app.w.admin);
    expect(await assigneeOf(next)).toBeNull();
    await availability(app.w.admin, 'online');
    await waitFor(async () => (await assigneeOf(next)) === app.w.admin.id, 5000, 'assigned on coming online');
  });

  it("never changes a person's assignment or unassignment", async () => {
    await settings(app.w.owner, { autoAssign: true });
    await availability(app.w.member, 'online');
    await present(app.w.member);
    const id = await handoff();
    await waitFor(async () => (await assigneeOf(id)) === app.w.member.id, 5000, 'assigned');
    // A person takes the assignee off: it stays unassigned, though the member has room.
    expect((await inbox(app.t, app.w.admin, 'PATCH', `/${id}`, { assigneeId: null })).statusCode).toBe(200);
    // A person gives one to the owner, who is not present: it stays theirs.
    await settings(app.w.owner, { autoAssign: false });
    const other = await handoff();
    const given = await inbox(app.t, app.w.admin, 'PATCH', `/${other}`, { assigneeId: app.w.owner.id });
    expect(given.statusCode).toBe(200);
    await settings(app.w.owner, { autoAssign: true });
    const third = await handoff();
    await waitFor(async () => (await assigneeOf(third)) === app.w.member.id, 5000, 'a new one assigned');
    expect(await assigneeOf(id)).toBeNull();
    expect(await assigneeOf(other)).toBe(app.w.owner.id);
    // The owner, given it by the admin, was told.
    const notes = await app.t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, app.w.owner.id));
    expect(notes.some((n) => n.type === 'conversation.assigned' && n.body.includes(other))).toBe(true);
  });

  it('availability changes reach every open inbox stream', async () => {
    const watching = await present(app.w.guest);
    await availability(app.w.member, 'busy');
    const e = await watching.until((e) => e.type === 'member.updated', 'the availability on the stream');
    expect(e).toEqual({ type: 'member.updated', member: { userId: app.w.member.id, availability: 'busy' } });
  });
});
