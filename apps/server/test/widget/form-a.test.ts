import { en } from '@parley/contract/widget-strings/en';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages, widgetSessions, widgetUsage } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { newId } from '../../src/lib/ids.ts';
import { drainIngestion } from '../knowledge/helpers.ts';
import { addSource } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { eventsOf } from '../support/webhooks.ts';
import { createWorld, setUsed, type World } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  type Session,
  SITE,
  sessionUrl,
  widgetAssistant,
  widgetChat,
} from './helpers.ts';

/** docs/widget.md "Form A: the init flow", through the real stack. */
let t: TestApp;
let w: World;
let asst: string;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  asst = await widgetAssistant(
    t,
    w.owner,
    w.ws,
    {
      primaryColor: '#112233',
      position: 'bottom-left',
      leadFormEnabled: true,
      leadFormFields: ['name', 'email'],
    },
    { name: 'Acme Help', welcomeMessage: 'Hi! Ask me anything.' },
  );
  await addSource(t, w.owner, asst, {
    type: 'qa',
    pairs: [
      { question: 'How long do refunds take?', answer: 'Refunds reach your card within 5 business days.' },
    ],
  });
  await drainIngestion(t);
});
afterAll(() => t.close());

describe('POST /api/widget/{assistantId}/init', () => {
  it('creates a session: id, token (stored only as SHA-256), public config, empty history', async () => {
    const s = await initWidget(t, asst);
    expect(s.sessionId).toMatch(/^wss_/);
    expect(s.token.length).toBeGreaterThanOrEqual(40);
    expect(s.data).toEqual({
      sessionId: s.sessionId,
      sessionToken: s.token,
      status: 'active',
      config: {
        assistantName: 'Acme Help',
        welcomeMessage: 'Hi! Ask me anything.',
        primaryColor: '#112233',
        position: 'bottom-left',
        leadFormEnabled: true,
        leadFormFields: ['name', 'email'],
        leadFormRequiredFields: [],
        // No business hours set: always open (docs/business-hours.md "Widget").
        teamOnline: true,
        nextOpenAt: null,
        // No languages sent, no Accept-Language: the workspace's default (docs/languages.md "Widget").
        language: 'en',
        direction: 'ltr',
        strings: en,
      },
      messages: [],
    });
    const [row] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(row?.tokenHash).toBe(sha256Hex(s.token));
    expect(JSON.stringify(row)).not.toContain(s.token);
    expect(row?.metadata).toEqual({ page: `${SITE}/pricing`, origin: SITE });
    expect(row?.conversationId).toBeNull();
  });

  it('accepts an init without sessionId or body (a new session)', async () => {
    const res = await fromSite(t, { method: 'POST', url: `/api/widget/${asst}/init`, payload: {} });
    expect(res.statusCode).toBe(200);
    const bare = await fromSite(t, { method: 'POST', url: `/api/widget/${asst}/init` });
    expect(bare.statusCode, bare.body).toBe(200);
    expect(bare.json().data.sessionId).not.toBe(res.json().data.sessionId);
  });

  it('resumes a session only with its own token, with the history', async () => {
    const s = await initWidget(t, asst);
    const r = await widgetChat(t, asst, s, 'How long do refunds take?');
    expect(r.status).toBe(200);
    const resumed = await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/init`,
      token: s.token,
      payload: { sessionId: s.sessionId },
    });
    expect(resumed.statusCode).toBe(200);
    const data = resumed.json().data;
    expect(data.sessionId).toBe(s.sessionId);
    expect(data.sessionToken).toBe(s.token);
    expect(data.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);

    const other = await initWidget(t, asst);
    for (const token of [undefined, other.token, 'wst_forged-token-that-does-not-exist']) {
      const res = await fromSite(t, {
        method: 'POST',
        url: `/api/widget/${asst}/init`,
        token,
        payload: { sessionId: s.sessionId },
      });
      expect(res.statusCode, String(token)).toBe(401);
      expect(res.json().code).toBe('unauthorized:widget');
    }
  });
});

describe('POST /api/widget/{assistantId}/chat', () => {
  it('streams the answer with the CORS headers, creates a widget conversation on the first message', async () => {
    const s = await initWidget(t, asst);
    const r = await widgetChat(t, asst, s, 'How long do refunds take?');
    expect(r.status).toBe(200);
    expect(r.res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(r.res.headers['access-control-allow-origin']).toBe(SITE);
    expect(r.text).toBe('Refunds reach your card within 5 business days. [1]');
    const finish = r.events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', messageId: expect.stringMatching(/^msg_/) });

    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(session?.conversationId).toMatch(/^conv_/);
    const [conv] = await t.ctx.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, session?.conversationId as string));
    expect(conv).toMatchObject({ channel: 'widget', assistantId: asst, status: 'open', messageCount: 2 });

    const again = await widgetChat(t, asst, s, 'thanks!');
    expect(again.status).toBe(200);
    const [after] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(after?.conversationId).toBe(session?.conversationId);
    const day = new Date().toISOString().slice(0, 10);
    const [usage] = await t.ctx.db
      .select()
      .from(widgetUsage)
      .where(and(eq(widgetUsage.assistantId, asst), eq(widgetUsage.day, day)));
    expect(usage?.count).toBeGreaterThanOrEqual(2);
  });

  it('400 bad_request:chat with details for an invalid body, after the token check', async () => {
    const s = await initWidget(t, asst);
    for (const payload of [
      { sessionId: s.sessionId },
      { sessionId: s.sessionId, content: '   ' },
      { sessionId: s.sessionId, content: 42 },
      { sessionId: s.sessionId, content: 'x'.repeat(8001) },
      { sessionId: s.sessionId, content: 'hi', extra: true },
      { content: 'hi' },
    ]) {
      const res = await fromSite(t, {
        method: 'POST',
        url: `/api/widget/${asst}/chat`,
        token: s.token,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('bad_request:chat');
      expect(res.json().details).toBeTypeOf('object');
      expect(res.headers['access-control-allow-origin']).toBe(SITE);
    }
  });

  it('401 when the body names another session than the token', async () => {
    const s = await initWidget(t, asst);
    const other = await initWidget(t, asst);
    const r = await widgetChat(t, asst, { sessionId: other.sessionId, token: s.token }, 'hello');
    expect(r.status).toBe(401);
    expect(r.res.json().code).toBe('unauthorized:widget');
  });

  it('403 credits_limit_exceeded before any stream; the daily message is given back', async () => {
    const free = await widgetAssistant(t, w.freeOwner, w.freeWs);
    await setUsed(t, w.freeWs, 50); // the Free plan's 50 credits, all spent
    const s = await initWidget(t, free);
    const r = await widgetChat(t, free, s, 'hello');
    expect(r.status).toBe(403);
    expect(r.res.json().code).toBe('credits_limit_exceeded');
    expect(r.res.headers['access-control-allow-origin']).toBe(SITE);
    const usage = await t.ctx.db.select().from(widgetUsage).where(eq(widgetUsage.assistantId, free));
    expect(usage.map((u) => u.count)).toEqual([0]);
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(session?.conversationId).toBeNull();
  });
});

describe('GET /api/widget/{assistantId}/sessions/{sessionId}/messages', () => {
  it('lists user and assistant messages; an agent reply shows as assistant with an author; no system notes', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'How long do refunds take?');
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    const conversationId = session?.conversationId as string;
    // Fixtures: what the inbox would add (a system note and a human agent's reply).
    const later = (ms: number) => new Date(Date.now() + ms);
    await t.ctx.db.insert(messages).values([
      {
        id: newId('msg'),
        workspaceId: w.ws,
        conversationId,
        role: 'system',
        content: 'handed over',
        createdAt: later(1000),
      },
      {
        id: newId('msg'),
        workspaceId: w.ws,
        conversationId,
        role: 'agent',
        content: 'Hi, Sam here.',
        authorId: w.member.id,
        createdAt: later(2000),
      },
    ]);
    const res = await fromSite(t, { method: 'GET', url: sessionUrl(asst, s, 'messages'), token: s.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    const data = res.json().data as Array<Record<string, unknown>>;
    expect(data.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(data[0]).toEqual({
      id: expect.stringMatching(/^msg_/),
      role: 'user',
      content: 'How long do refunds take?',
      createdAt: expect.any(String),
      citations: [],
      author: null,
    });
    expect(data[1]?.citations).toEqual([expect.objectContaining({ index: 1, sourceId: expect.any(String) })]);
    expect(data[2]).toMatchObject({
      role: 'assistant',
      content: 'Hi, Sam here.',
      author: { type: 'agent', name: 'Member', avatarUrl: null },
    });
  });

  it('is empty before the first message; another session’s token → 401', async () => {
    const s = await initWidget(t, asst);
    const other = await initWidget(t, asst);
    const res = await fromSite(t, { method: 'GET', url: sessionUrl(asst, s, 'messages'), token: s.token });
    expect(res.json()).toEqual({ data: [] });
    const wrong = await fromSite(t, {
      method: 'GET',
      url: sessionUrl(asst, s, 'messages'),
      token: other.token,
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('unauthorized:widget');
  });
});

describe('POST /api/widget/{assistantId}/sessions/{sessionId}/end', () => {
  const end = (s: Session) =>
    fromSite(t, { method: 'POST', url: sessionUrl(asst, s, 'end'), token: s.token });

  it('ends the session once (conversation.ended at once, conversation closed), answers the same again', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'How long do refunds take?');
    const before = (await eventsOf(t, w.ws, 'conversation.ended')).length;
    const first = await end(s);
    expect(first.statusCode).toBe(200);
    expect(first.headers['access-control-allow-origin']).toBe(SITE);
    const result = first.json().data;
    expect(result).toEqual({
      sessionId: s.sessionId,
      status: 'ended',
      messageCount: 2,
      duration: expect.any(Number),
      endedAt: expect.any(String),
    });
    expect(Number.isInteger(result.duration)).toBe(true);
    const second = await end(s);
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toEqual(result);

    const ended = await eventsOf(t, w.ws, 'conversation.ended');
    expect(ended.length).toBe(before + 1);
    const [session] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.id, s.sessionId));
    expect(ended.at(-1)?.data).toMatchObject({
      sessionId: s.sessionId,
      conversationId: session?.conversationId,
      assistantId: asst,
      channel: 'widget',
      reason: 'visitor',
      status: 'ended',
    });
    const [conv] = await t.ctx.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, session?.conversationId as string));
    expect(conv?.status).toBe('closed');
    expect(conv?.endedAt?.toISOString()).toBe(result.endedAt);
  });

  it('no chat after the end: 400 bad_request:chat, nothing stored; history still readable', async () => {
    const s = await initWidget(t, asst);
    await widgetChat(t, asst, s, 'hello');
    await end(s);
    const count = async () =>
      (await t.ctx.db.select().from(messages).where(eq(messages.workspaceId, w.ws))).length;
    const before = await count();
    const r = await widgetChat(t, asst, s, 'are you still there?');
    expect(r.status).toBe(400);
    expect(r.res.json().code).toBe('bad_request:chat');
    expect(await count()).toBe(before);
    const history = await fromSite(t, {
      method: 'GET',
      url: sessionUrl(asst, s, 'messages'),
      token: s.token,
    });
    expect(history.json().data).toHaveLength(2);
    const resumed = await fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/init`,
      token: s.token,
      payload: { sessionId: s.sessionId },
    });
    expect(resumed.json().data.status).toBe('ended');
  });

  it('ends a session that never chatted (no conversation): messageCount 0, the event still sent', async () => {
    const s = await initWidget(t, asst);
    const before = (await eventsOf(t, w.ws, 'conversation.ended')).length;
    const res = await end(s);
    expect(res.json().data).toMatchObject({ messageCount: 0, status: 'ended' });
    const ended = await eventsOf(t, w.ws, 'conversation.ended');
    expect(ended.length).toBe(before + 1);
    expect(ended.at(-1)?.data).toMatchObject({ sessionId: s.sessionId, conversationId: null });
  });

  it('accepts an empty body sent as application/json', async () => {
    const s = await initWidget(t, asst);
    const res = await fromSite(t, {
      method: 'POST',
      url: sessionUrl(asst, s, 'end'),
      token: s.token,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
