import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, tickets, widgetSessions, workspaceCredits } from '../../src/db/schema/index.ts';
import { chat, messagesOf } from '../chat/helpers.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  type Session,
  SITE,
  widgetAssistant,
  widgetChat,
} from '../widget/helpers.ts';
import {
  changesOf,
  conversationEvents,
  conversationOfSession,
  inbox,
  listen,
  openSse,
  type SseStream,
} from './helpers.ts';

let t: TestApp;
let w: World;
let asst: string;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ ...NO_RATE_LIMIT, CHAT_KEEPALIVE_MS: '100' });
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws);
  base = await listen(t);
});
afterAll(() => t.close());

const creditsUsed = async () => {
  const [row] = await t.ctx.db.select().from(workspaceCredits).where(eq(workspaceCredits.workspaceId, w.ws));
  return row?.used ?? 0;
};

const widgetStream = (s: Session) =>
  openSse(`${base}/api/widget/${asst}/sessions/${s.sessionId}/events`, {
    origin: SITE,
    authorization: `Widget ${s.token}`,
  });

/** A visitor's widget conversation with one message; returns its session and conversation id. */
async function visitor(content = 'Where is my order?') {
  const s = await initWidget(t, asst);
  const r = await widgetChat(t, asst, s, content);
  expect(r.status, r.res.body).toBe(200);
  return { s, id: await conversationOfSession(t, s) };
}

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

describe('GET /api/inbox/conversations', () => {
  it('filters by status, channel, assistant, assignee and unassigned; pages with a cursor', async () => {
    const other = await widgetAssistant(t, w.owner, w.ws);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const s = await initWidget(t, other);
      await widgetChat(t, other, s, `question ${i}`);
      ids.push(await conversationOfSession(t, s));
    }
    await inbox(t, w.admin, 'POST', `/${ids[1]}/handoff`);
    await inbox(t, w.member, 'POST', `/${ids[2]}/handoff`);
    await inbox(t, w.member, 'POST', `/${ids[3]}/close`);
    const list = async (query: string) => {
      const res = await inbox(t, w.guest, 'GET', `?workspaceId=${w.ws}&assistantId=${other}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((c: { id: string }) => c.id) as string[];
    };
    // Newest activity first: the last conversation written to first.
    expect(await list('')).toEqual([...ids].reverse());
    expect(await list('status=handoff')).toEqual([ids[2], ids[1]]);
    expect(await list('status=closed')).toEqual([ids[3]]);
    expect(await list(`assigneeId=${w.admin.id}`)).toEqual([ids[1]]);
    expect(await list('unassigned=false')).toEqual([ids[2], ids[1]]);
    expect(await list('unassigned=true')).toEqual([ids[4], ids[3], ids[0]]);
    expect(await list('channel=chat')).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await inbox(
        t,
        w.owner,
        'GET',
        `?workspaceId=${w.ws}&assistantId=${other}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      const body = page.json();
      seen.push(...body.data.map((c: { id: string }) => c.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('400 for bad filters, limits and cursors; workspaceId required with several workspaces', async () => {
    for (const query of [
      'status=pending',
      'channel=fax',
      'unassigned=yes',
      `unassigned=true&assigneeId=${w.member.id}`,
      'limit=0',
      'limit=101',
      'cursor=not-a-cursor',
      'colour=blue',
    ]) {
      const res = await inbox(t, w.owner, 'GET', `?workspaceId=${w.ws}&${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
    }
    // The owner of one workspace may omit it.
    expect((await inbox(t, w.owner, 'GET', '')).statusCode).toBe(200);
  });
});

describe('PATCH /api/inbox/conversations/:id (assign)', () => {
  it('assigns a member, refuses a non-member or a guest with 400, unassigns with null', async () => {
    const { id } = await visitor();
    const assign = (assigneeId: string | null) => inbox(t, w.owner, 'PATCH', `/${id}`, { assigneeId });
    const ok = await assign(w.member.id);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ assigneeId: w.member.id, status: 'open' });
    const outsider = await assign(w.outsider.id);
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().details.assigneeId).toBeDefined();
    expect((await assign(w.guest.id)).statusCode).toBe(400);
    expect((await assign('usr_nobody')).statusCode).toBe(400);
    const none = await assign(null);
    expect(none.json().data.assigneeId).toBeNull();
    const changes = await conversationEvents(t, w.ws, 'conversation.updated', id);
    expect(changes.map((e) => (e.data as { assigneeId: string | null }).assigneeId)).toEqual([
      w.member.id,
      null,
    ]);
    for (const body of [{}, { assigneeId: 5 }, { assigneeId: w.member.id, status: 'closed' }]) {
      expect((await inbox(t, w.owner, 'PATCH', `/${id}`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('POST /api/inbox/conversations/:id/tickets', () => {
  it('opens a ticket linked to the conversation and its contact', async () => {
    const { s, id } = await visitor();
    await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/sessions/${s.sessionId}/lead`,
      token: s.token,
      payload: { name: 'Ada', email: 'ada@example.com' },
    });
    const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, id));
    const res = await inbox(t, w.member, 'POST', `/${id}/tickets`, {
      subject: 'Order never arrived',
      priority: 'high',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      subject: 'Order never arrived',
      priority: 'high',
      status: 'open',
      conversationId: id,
      contactId: conv?.contactId,
    });
    const [row] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, res.json().data.id));
    expect(row?.conversationId).toBe(id);
    for (const body of [
      {},
      { subject: '' },
      { subject: 'x', priority: 'asap' },
      { subject: 'x', status: 'closed' },
    ]) {
      expect(
        (await inbox(t, w.member, 'POST', `/${id}/tickets`, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
  });
});

describe('hostile input', () => {
  it('replies: wrong types, empty, over-long, unknown fields, NUL → 400; huge body → 413; unicode kept', async () => {
    const { id } = await visitor();
    for (const body of [
      {},
      { content: 5 },
      { content: '   ' },
      { content: 'x'.repeat(8001) },
      { content: 'hi', role: 'assistant' },
      { content: 'a\u0000b' },
    ]) {
      const res = await inbox(t, w.member, 'POST', `/${id}/messages`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    const huge = await inbox(t, w.member, 'POST', `/${id}/messages`, {
      content: 'x'.repeat(3 * 1024 * 1024),
    });
    expect(huge.statusCode).toBe(413);
    const text = 'Ça marche 👍 — 你好 <script>alert(1)</script>';
    const ok = await inbox(t, w.member, 'POST', `/${id}/messages`, { content: text });
    expect(ok.json().data.content).toBe(text);
  });

  it('ids: unknown, over-long, another workspace’s, or a workspaceId that is not the conversation’s → 404', async () => {
    const { id } = await visitor();
    for (const path of [
      '/conv_unknown',
      `/${'x'.repeat(101)}`,
      `/${id}?workspaceId=${w.otherWs}`,
      `/${id}?workspaceId=${w.freeWs}`,
    ]) {
      const res = await inbox(t, w.owner, 'GET', path);
      expect(res.statusCode, path).toBe(404);
    }
    expect((await inbox(t, w.outsider, 'GET', `/${id}`)).statusCode).toBe(404);
    expect((await inbox(t, w.outsider, 'POST', `/${id}/handoff`)).statusCode).toBe(404);
  });
});

describe('GET /api/inbox/stream', () => {
  it('streams new conversations, messages and changes of the workspace only', async () => {
    const stream = await openSse(`${base}/api/inbox/stream?workspaceId=${w.ws}`, { ...w.guest.headers });
    expect(stream.res.statusCode).toBe(200);
    await stream.until((e) => e.type === 'ready');
    const { id } = await visitor('A brand new question');
    expect(await stream.until((e) => e.type === 'conversation.created')).toMatchObject({
      conversation: { id, channel: 'widget', status: 'open' },
    });
    await stream.until(
      (e) => e.type === 'message.created' && (e.message as { role: string }).role === 'assistant',
      'the AI reply',
    );
    await inbox(t, w.member, 'POST', `/${id}/handoff`);
    expect(await stream.until((e) => e.type === 'conversation.updated')).toMatchObject({
      conversation: { id, status: 'handoff', assigneeId: w.member.id },
      changedBy: { type: 'user', id: w.member.id },
    });
    await inbox(t, w.member, 'POST', `/${id}/close`);
    await stream.until((e) => e.type === 'conversation.ended');
    // Another workspace's changes never arrive; an internal chat before handoff neither.
    const foreign = await widgetAssistant(t, w.outsider, w.otherWs);
    const fs = await initWidget(t, foreign);
    await widgetChat(t, foreign, fs, 'elsewhere');
    const privateChat = await chat(t, w.member, { assistantId: asst, content: 'a private question' });
    const mark = await visitor('marker');
    await stream.until(
      (e) => e.type === 'conversation.created' && (e.conversation as { id: string }).id === mark.id,
    );
    const ids = stream.events.map(
      (e) => (e.conversation as { id?: string } | undefined)?.id ?? e.conversationId,
    );
    expect(ids).not.toContain(await conversationOfSession(t, fs));
    expect(ids).not.toContain(privateChat.conversationId);
    stream.close();
  });

  it('404 for a workspace the caller is not in', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/inbox/stream?workspaceId=${w.otherWs}`,
      headers: w.owner.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('assistants in other workspaces', () => {
  it('a Free workspace has the inbox too', async () => {
    const a = await createAssistant(t, w.freeOwner, w.freeWs);
    const r = await chat(t, w.freeOwner, { assistantId: a, content: 'I want to talk to a human' });
    const res = await inbox(t, w.freeOwner, 'GET', `/${r.conversationId}`);
    expect(res.statusCode).toBe(200);
    await waitFor(async () => (await inbox(t, w.freeOwner, 'GET', '')).json().data.length === 1);
  });
});
