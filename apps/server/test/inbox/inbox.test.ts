import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, widgetSessions, workspaceCredits } from '../../src/db/schema/index.ts';
import { chat, messagesOf } from '../chat/helpers.ts';
import type { TestApp } from '../support/harness.ts';
import type { World } from '../support/world.ts';
import { fromSite, type Session, SITE, widgetChat } from '../widget/helpers.ts';
import { changesOf, conversationEvents, inbox, openSse, type SseStream } from './helpers.ts';
import { startInbox, visitorOf } from './setup.ts';

let t: TestApp;
let w: World;
let asst: string;
let base: string;

beforeAll(async () => {
  ({ t, w, asst, base } = await startInbox());
});
afterAll(() => t.close());

const visitor = (content?: string) => visitorOf(t, asst, content);

const creditsUsed = async () => {
  const [row] = await t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, w.ws));
  return row?.used ?? 0;
};

const widgetStream = (s: Session) =>
  openSse(`${base}/api/widget/${asst}/sessions/${s.sessionId}/events`, {
    origin: SITE,
    authorization: `Widget ${s.token}`,
  });

const isStatus = (status: string) => (e: Record<string, unknown>) =>
  e.type === 'status' && e.status === status;

describe('a widget conversation, from the AI to a person and back', () => {
  it('takeover, live reply, release, AI again, close: every step stored, evented and delivered', async () => {
    const { s, id } = await visitor();
    const stream: SseStream = await widgetStream(s);

    // The inbox lists it.
    const listed = await inbox(t, w.member, 'GET', `?workspaceId=${w.ws}&channel=widget`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((c: { id: string }) => c.id)).toContain(id);

    // A member takes over: handoff, assigned to them, the widget hears who is answering.
    const taken = await inbox(t, w.member, 'POST', `/${id}/handoff`);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().data).toMatchObject({ id, status: 'handoff', assigneeId: w.member.id });
    expect(taken.json().data.handedOffAt).toEqual(expect.any(String));
    expect(await stream.until(isStatus('handoff'), 'handoff status')).toEqual({
      type: 'status',
      status: 'handoff',
      agent: { type: 'agent', name: 'Member', avatarUrl: null },
    });
    const updated = await conversationEvents(t, w.ws, 'conversation.updated', id);
    expect(updated.at(-1)?.data).toMatchObject({
      status: 'handoff',
      assigneeId: w.member.id,
      changedBy: { type: 'user', id: w.member.id },
    });

    // The visitor writes: stored, no AI reply, no credit.
    const before = await creditsUsed();
    const held = await widgetChat(t, asst, s, 'Hello? Is someone there?');
    expect(held.events).toEqual([
      { type: 'finish', messageId: null, usage: { promptTokens: 0, completionTokens: 0 } },
    ]);
    expect(await creditsUsed()).toBe(before);

    // The member answers: live on the widget, in its history, in the inbox's messages.
    const replied = await inbox(t, w.member, 'POST', `/${id}/messages`, {
      content: 'Hi, I am Member. Let me check.',
    });
    expect(replied.statusCode, replied.body).toBe(201);
    expect(replied.json().data).toMatchObject({
      role: 'agent',
      content: 'Hi, I am Member. Let me check.',
      author: { id: w.member.id, name: 'Member' },
    });
    const live = await stream.until((e) => e.type === 'message', 'the agent reply');
    expect(live).toMatchObject({
      type: 'message',
      message: {
        role: 'assistant',
        content: 'Hi, I am Member. Let me check.',
        author: { type: 'agent', name: 'Member' },
      },
    });
    const history = await fromSite(t, {
      method: 'GET',
      url: `/api/widget/${asst}/sessions/${s.sessionId}/messages`,
      token: s.token,
    });
    expect(history.json().data.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Hi, I am Member. Let me check.',
      author: { type: 'agent', name: 'Member' },
    });
    const msgs = await inbox(t, w.guest, 'GET', `/${id}/messages?limit=100`);
    expect(msgs.statusCode).toBe(200);
    expect(msgs.json().data.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'agent',
    ]);

    // Released: back to the AI, which answers (and charges) again.
    const released = await inbox(t, w.member, 'POST', `/${id}/release`);
    expect(released.json().data).toMatchObject({ status: 'open', assigneeId: null });
    expect(await stream.until(isStatus('open'), 'open status')).toEqual({
      type: 'status',
      status: 'open',
      agent: null,
    });
    const again = await widgetChat(t, asst, s, 'Thanks. What are your opening hours?');
    expect(again.events.at(-1)).toMatchObject({ type: 'finish', messageId: expect.stringMatching(/^msg_/) });
    expect(await creditsUsed()).toBe(before + 1);

    // Closed by the member: conversation.ended, the session ends, the widget hears it.
    const closed = await inbox(t, w.member, 'POST', `/${id}/close`);
    expect(closed.json().data).toMatchObject({ status: 'closed', endedAt: expect.any(String) });
    expect(await stream.until(isStatus('closed'), 'closed status')).toEqual({
      type: 'status',
      status: 'closed',
      agent: null,
    });
    await stream.until((e) => e.type === 'ended', 'ended');
    await stream.ended;
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(session?.status).toBe('ended');
    const ended = await conversationEvents(t, w.ws, 'conversation.ended', id);
    expect(ended).toHaveLength(1);
    expect(ended[0]?.data).toMatchObject({
      sessionId: s.sessionId,
      reason: 'agent',
      changedBy: { type: 'user', id: w.member.id },
    });
    // Closing again changes nothing.
    expect((await inbox(t, w.member, 'POST', `/${id}/close`)).statusCode).toBe(200);
    expect(await conversationEvents(t, w.ws, 'conversation.ended', id)).toHaveLength(1);

    // After the session ended, the visitor's widget starts a new session (the old one refuses chat).
    expect((await widgetChat(t, asst, s, 'one more thing')).status).toBe(400);
    const fresh = await visitor('one more thing');
    expect(fresh.id).not.toBe(id);

    expect((await changesOf(t, id)).map((c) => [c.kind, c.status, c.actorType])).toEqual([
      ['takeover', 'handoff', 'user'],
      ['release', 'open', 'user'],
      ['close', 'closed', 'user'],
    ]);
  });

  it('the AI hands off by itself; a widget opened afterwards learns a person holds it', async () => {
    const { s, id } = await visitor('I want to talk to a human please');
    const [row] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
    expect(row?.status).toBe('handoff');
    const changes = await changesOf(t, id);
    expect(changes.map((c) => [c.kind, c.actorType, c.actorId])).toEqual([['handoff', 'assistant', asst]]);
    const updated = await conversationEvents(t, w.ws, 'conversation.updated', id);
    expect(updated[0]?.data).toMatchObject({ status: 'handoff', changedBy: { type: 'assistant', id: asst } });
    // Unassigned in the inbox until someone takes it.
    const unassigned = await inbox(t, w.owner, 'GET', `?status=handoff&unassigned=true&workspaceId=${w.ws}`);
    expect(unassigned.json().data.map((c: { id: string }) => c.id)).toContain(id);
    // Its note that a person was asked for is in the thread but not counted: the visitor saw two messages.
    const listed = unassigned.json().data.find((c: { id: string }) => c.id === id);
    expect(listed.messageCount).toBe(2);
    const thread = await inbox(t, w.owner, 'GET', `/${id}/messages?workspaceId=${w.ws}`);
    expect(
      thread
        .json()
        .data.map((m: { role: string }) => m.role)
        .sort(),
    ).toEqual(['assistant', 'system', 'user']);

    await inbox(t, w.admin, 'POST', `/${id}/handoff`);
    const stream = await widgetStream(s);
    expect(await stream.until(isStatus('handoff'))).toMatchObject({ agent: { name: 'Admin' } });
    stream.close();
    // Another member taking over keeps the assignee; reassigning is a PATCH.
    const second = await inbox(t, w.member, 'POST', `/${id}/handoff`);
    expect(second.json().data.assigneeId).toBe(w.admin.id);
  });

  it('a reply to a conversation the AI holds takes it over first', async () => {
    const { id } = await visitor();
    const res = await inbox(t, w.admin, 'POST', `/${id}/messages`, { content: 'Jumping in here.' });
    expect(res.statusCode).toBe(201);
    const one = await inbox(t, w.admin, 'GET', `/${id}`);
    expect(one.json().data).toMatchObject({ status: 'handoff', assigneeId: w.admin.id });
  });

  it('closed conversations refuse replies, takeover and release with 409', async () => {
    const { id } = await visitor();
    await inbox(t, w.member, 'POST', `/${id}/close`);
    for (const [method, path, body] of [
      ['POST', `/${id}/messages`, { content: 'late' }],
      ['POST', `/${id}/handoff`, undefined],
      ['POST', `/${id}/release`, undefined],
    ] as const) {
      const res = await inbox(t, w.member, method, path, body);
      expect(res.statusCode, `${path} ${res.body}`).toBe(409);
      expect(res.json().code).toBe('conflict:api');
    }
  });
});

describe('an internal chat handed to a person', () => {
  it('stays private until handed off; then an agent answers, releases, closes; writing again reopens it', async () => {
    const first = await chat(t, w.member, { assistantId: asst, content: 'How do refunds work?' });
    const privateId = first.conversationId as string;
    expect((await inbox(t, w.owner, 'GET', `/${privateId}`)).statusCode).toBe(404);
    const all = await inbox(t, w.owner, 'GET', `?workspaceId=${w.ws}&limit=100`);
    expect(all.json().data.map((c: { id: string }) => c.id)).not.toContain(privateId);

    const r = await chat(t, w.member, { assistantId: asst, content: 'I need to speak to a person' });
    const id = r.conversationId as string;
    const listed = await inbox(t, w.owner, 'GET', `?workspaceId=${w.ws}&channel=chat`);
    expect(listed.json().data.map((c: { id: string }) => c.id)).toEqual([id]);

    expect((await inbox(t, w.owner, 'POST', `/${id}/handoff`)).json().data.assigneeId).toBe(w.owner.id);
    const held = await chat(t, w.member, { assistantId: asst, conversationId: id, content: 'still there?' });
    expect(held.events).toEqual([
      { type: 'finish', messageId: null, usage: { promptTokens: 0, completionTokens: 0 } },
    ]);
    await inbox(t, w.owner, 'POST', `/${id}/messages`, { content: 'Yes, Owner here.' });
    const mine = await messagesOf(t, w.member, id);
    expect(mine.at(-1)).toMatchObject({ role: 'agent', content: 'Yes, Owner here.' });

    await inbox(t, w.owner, 'POST', `/${id}/release`);
    const ai = await chat(t, w.member, {
      assistantId: asst,
      conversationId: id,
      content: 'How do refunds work?',
    });
    expect(ai.events.at(-1)).toMatchObject({ type: 'finish', messageId: expect.stringMatching(/^msg_/) });

    await inbox(t, w.owner, 'POST', `/${id}/close`);
    expect(await conversationEvents(t, w.ws, 'conversation.ended', id)).toHaveLength(1);
    const reopened = await chat(t, w.member, {
      assistantId: asst,
      conversationId: id,
      content: 'One more question',
    });
    expect(reopened.status).toBe(200);
    expect(reopened.events.at(-1)).toMatchObject({
      type: 'finish',
      messageId: expect.stringMatching(/^msg_/),
    });
    const now = await inbox(t, w.owner, 'GET', `/${id}`);
    expect(now.json().data).toMatchObject({ status: 'open', endedAt: null });
    expect((await changesOf(t, id)).map((c) => [c.kind, c.actorType])).toEqual([
      ['handoff', 'assistant'],
      ['takeover', 'user'],
      ['release', 'user'],
      ['close', 'user'],
      ['reopen', 'user'],
    ]);
    const reopenEvent = (await conversationEvents(t, w.ws, 'conversation.updated', id)).at(-1);
    expect(reopenEvent?.data).toMatchObject({
      status: 'open',
      change: 'reopen',
      changedBy: { type: 'user', id: w.member.id },
    });
  });
});
